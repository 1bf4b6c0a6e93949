/* SPDX-License-Identifier: MIT */
/*
 * The file repair writes: made with no name (O_TMPFILE) in OUT's directory, so that a repair
 * killed at any point, SIGKILL included, leaves nothing behind; given its mode, synced, and
 * linked as OUT at once when OUT is absent, or else linked under a hidden name and renamed
 * over OUT; then the directory synced. Where the file system has no O_TMPFILE, a hidden named
 * file is made instead. Hidden names are .tracefsck-PID.N: SIGINT, SIGTERM and SIGHUP remove
 * them before the process ends, and the next repair into the directory removes those of runs
 * that died (SIGKILL in the moment between link and rename).
 */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "repair_output.h"
#include "tracefsck/repair.h"

/*
 * The one name a signal handler may have to remove (the CLI is one thread; the library keeps
 * no such state). Written before the name exists, cleared before it is renamed.
 */
static volatile sig_atomic_t pending_set;
static char pending[4096];

static void on_signal(int sig)
{
	if (pending_set)
		unlink(pending);
	if (sig == SIGINT)
		_exit(EXIT_CANCELED); /* as main.c's handler: fsck(8)'s "canceled by user request" */
	signal(sig, SIG_DFL);
	raise(sig);
}

static void watch(const char *name)
{
	snprintf(pending, sizeof(pending), "%s", name);
	pending_set = 1;
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
}

static void unwatch(void)
{
	pending_set = 0;
}

int repair_output_open(struct repair_output *o, const char *out, mode_t mode)
{
	memset(o, 0, sizeof(*o));
	o->fd = -1;
	o->mode = mode;
	char *copy = strdup(out);
	if (!copy)
		return -1;
	int n = snprintf(o->dir, sizeof(o->dir), "%s", dirname(copy));
	free(copy);
	if (n < 0 || (size_t)n >= sizeof(o->dir) || snprintf(o->out, sizeof(o->out), "%s", out) >= (int)sizeof(o->out)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	tfk_sweep_leftovers(o->dir);
	o->fd = open(o->dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
	if (o->fd >= 0) {
		o->unnamed = true;
		return 0;
	}
	/* no O_TMPFILE here: a hidden named file, removed on a signal */
	for (unsigned i = 0; i < 100; i++) {
		n = snprintf(o->name, sizeof(o->name), "%s/.tracefsck-%ld.%u", o->dir, (long)getpid(), i);
		if (n < 0 || (size_t)n >= sizeof(o->name)) {
			errno = ENAMETOOLONG;
			return -1;
		}
		watch(o->name);
		o->fd = open(o->name, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
		if (o->fd >= 0)
			return 0;
		unwatch();
		if (errno != EEXIST)
			break;
	}
	o->name[0] = '\0';
	return -1;
}

/* The directory's entries on disk too: a rename is durable only once its directory is synced. */
static void sync_dir(const char *dir)
{
	int d = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (d >= 0) {
		fsync(d);
		close(d);
	}
}

int repair_output_commit(struct repair_output *o)
{
	int err = 0;
	if (fchmod(o->fd, o->mode) != 0 || fsync(o->fd) != 0)
		err = errno;
	char self[64];
	snprintf(self, sizeof(self), "/proc/self/fd/%d", o->fd);
	bool linked = false;
	if (!err && o->unnamed && linkat(AT_FDCWD, self, AT_FDCWD, o->out, AT_SYMLINK_FOLLOW) == 0)
		linked = true; /* OUT was absent: it is the file now, and no other name ever was */
	if (!err && o->unnamed && !linked) {
		/* a name for it, beside OUT, then the rename: only this moment has a name to clean up */
		for (unsigned i = 0; i < 100 && !o->name[0]; i++) {
			snprintf(o->name, sizeof(o->name), "%s/.tracefsck-%ld.%u", o->dir, (long)getpid(), i);
			watch(o->name);
			if (linkat(AT_FDCWD, self, AT_FDCWD, o->name, AT_SYMLINK_FOLLOW) != 0) {
				err = errno;
				unwatch();
				o->name[0] = '\0';
				if (err != EEXIST)
					break;
			} else {
				err = 0;
			}
		}
	}
	if (close(o->fd) != 0 && !err)
		err = errno;
	o->fd = -1;
	if (!err && !linked && rename(o->name, o->out) != 0)
		err = errno;
	if (err && o->name[0])
		unlink(o->name);
	unwatch();
	if (err) {
		errno = err;
		return -1;
	}
	sync_dir(o->dir);
	return 0;
}

void repair_output_discard(struct repair_output *o)
{
	if (o->fd >= 0)
		close(o->fd);
	o->fd = -1;
	if (!o->unnamed && o->name[0])
		unlink(o->name);
	unwatch();
}
