/* SPDX-License-Identifier: MIT */
/* The running machine's tracing metadata, read from tracefs and /proc as trace-cmd reads them. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "bench_kmeta.h"

static const char *tracefs_root(void)
{
	static const char *const roots[] = { "/sys/kernel/tracing", "/sys/kernel/debug/tracing" };
	char probe[128];
	for (size_t i = 0; i < sizeof(roots) / sizeof(roots[0]); i++) {
		snprintf(probe, sizeof(probe), "%s/events/header_page", roots[i]);
		if (access(probe, R_OK) == 0)
			return roots[i];
	}
	return NULL;
}

static int only_dirs(const struct dirent *d)
{
	return d->d_name[0] != '.' && (d->d_type == DT_DIR || d->d_type == DT_UNKNOWN);
}

/* Every readable format of one system directory, in name order. */
static int read_system(struct kmeta *m, const char *events, const char *system)
{
	char dir[4096], path[4400];
	snprintf(dir, sizeof(dir), "%s/%s", events, system);
	struct dirent **names;
	int n = scandir(dir, &names, only_dirs, alphasort);
	if (n < 0)
		return 0; /* a plain file such as events/enable */
	int rc = 0;
	for (int i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "%s/%s/format", dir, names[i]->d_name);
		char *text = kmeta_read_file(path, NULL);
		if (text && text[0] && rc == 0)
			rc = kmeta_add_format(m, system, text);
		free(text);
		free(names[i]);
	}
	free(names);
	return rc;
}

/* kallsyms with only every n-th line kept (in place). */
static void thin_lines(char *text, unsigned every)
{
	if (every <= 1)
		return;
	char *in = text, *out = text;
	for (unsigned line = 0; *in; line++) {
		char *end = strchr(in, '\n');
		size_t len = end ? (size_t)(end - in) + 1 : strlen(in);
		if (line % every == 0) {
			memmove(out, in, len);
			out += len;
		}
		in += len;
	}
	*out = 0;
}

int kmeta_from_tracefs(struct kmeta *m, unsigned kallsyms_every)
{
	memset(m, 0, sizeof(*m));
	const char *root = tracefs_root();
	if (!root)
		return -1;
	char path[4096], events[4096];
	snprintf(events, sizeof(events), "%s/events", root);
	snprintf(path, sizeof(path), "%s/header_page", events);
	m->header_page = kmeta_read_file(path, NULL);
	snprintf(path, sizeof(path), "%s/header_event", events);
	m->header_event = kmeta_read_file(path, NULL);
	m->kallsyms = kmeta_read_file("/proc/kallsyms", NULL);
	snprintf(path, sizeof(path), "%s/printk_formats", root);
	m->printk = kmeta_read_file(path, NULL);
	if (!m->printk)
		m->printk = strdup("");
	struct dirent **systems;
	int n = scandir(events, &systems, only_dirs, alphasort);
	int rc = m->header_page && m->header_event && m->kallsyms && m->printk && n > 0 ? 0 : -1;
	for (int i = 0; i < n; i++) {
		if (rc == 0)
			rc = read_system(m, events, systems[i]->d_name);
		free(systems[i]);
	}
	if (n > 0)
		free(systems);
	if (rc != 0 || m->nformats == 0) {
		kmeta_free(m);
		return -1;
	}
	thin_lines(m->kallsyms, kallsyms_every);
	struct utsname u;
	char un[1024] = "Linux";
	if (uname(&u) == 0)
		snprintf(un, sizeof(un), "%s %s %s %s", u.sysname, u.release, u.version, u.machine);
	m->uname = strdup(un);
	char kept[64] = "";
	if (kallsyms_every > 1)
		snprintf(kept, sizeof(kept), " (one line in %u)", kallsyms_every);
	snprintf(m->origin, sizeof(m->origin), "tracefs (%s) and /proc/kallsyms%s of %s", root, kept, un);
	return m->uname ? 0 : -1;
}
