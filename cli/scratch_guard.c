/* SPDX-License-Identifier: MIT */
/*
 * The scratch directory archives are unpacked into (units.h) leaves with the run, however it
 * ends: a signal that stops check removes it first (with async-signal-safe calls only), then
 * ends the run as the signal would have. SIGINT ends it with fsck(8)'s 32, "canceled by user
 * request".
 */
#include <signal.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "tracefsck/units.h"

/* The one path a handler may have to remove (the CLI's own state, never the library's). */
static char guarded[4096];
static volatile sig_atomic_t armed;

static void on_signal(int sig)
{
	if (armed)
		tfk_scratch_remove(guarded);
	if (sig == SIGINT)
		_exit(EXIT_CANCELED);
	signal(sig, SIG_DFL);
	raise(sig);
}

/* Guard path (the run has one scratch directory); NULL: it is gone, guard nothing. */
void cli_scratch_guard(const char *path)
{
	if (!path) {
		armed = 0; /* removed already */
		return;
	}
	if (!path[0] || armed)
		return;
	size_t n = strlen(path);
	if (n >= sizeof(guarded))
		return;
	memcpy(guarded, path, n + 1);
	armed = 1;
}

void cli_signals_block(sigset_t *was)
{
	sigset_t set;
	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGHUP);
	sigprocmask(SIG_BLOCK, &set, was);
}

void cli_signals_restore(const sigset_t *was)
{
	sigprocmask(SIG_SETMASK, was, NULL);
}

void cli_scratch_handlers(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP };
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++) {
		struct sigaction old;
		/* a signal the caller ignores (a background job's SIGINT) stays ignored */
		if (sigaction(sigs[i], NULL, &old) == 0 && old.sa_handler != SIG_IGN)
			sigaction(sigs[i], &sa, NULL);
	}
}
