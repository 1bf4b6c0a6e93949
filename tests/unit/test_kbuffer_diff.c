/* SPDX-License-Identifier: MIT */
/*
 * Differential test: our page walker against libtraceevent's kbuffer (the decoder trace-cmd
 * uses), on every sample and on fixtures of every layout. For every page our walker calls
 * valid, both agree on the number of events, the first and last event timestamps and the
 * total payload size.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <fcntl.h>
#include <unistd.h>
#include <traceevent/kbuffer.h>

#include "tracedat_helpers.h"

struct diff {
	struct tfk_geometry geo;
	struct kbuffer *kb;
	uint32_t page_size;
	uint64_t pages, events, mismatches;
	char first_mismatch[256];
};

static void on_geometry(void *user, const struct tfk_geometry *g)
{
	struct diff *d = user;
	d->geo = *g;
	if (d->kb)
		kbuffer_free(d->kb);
	d->kb = kbuffer_alloc(g->commit_size == 4 ? KBUFFER_LSIZE_4 : KBUFFER_LSIZE_8,
			      g->big_endian ? KBUFFER_ENDIAN_BIG : KBUFFER_ENDIAN_LITTLE);
}

static void on_buffer(void *user, const char *name, const char *clock, uint32_t page_size, bool latency)
{
	(void)name;
	(void)clock;
	(void)latency;
	((struct diff *)user)->page_size = page_size;
}

static void on_page(void *user, const uint8_t *page, const struct tfk_page_info *info)
{
	struct diff *d = user;
	if (!d->kb || (info->state != TFK_PAGE_GOOD && info->state != TFK_PAGE_EMPTY))
		return;
	/* kbuffer reads the page in place and may write its view of it: give it a copy. */
	uint8_t *copy = malloc(d->page_size);
	memcpy(copy, page, d->page_size);
	uint64_t n = 0, first = 0, last = 0, bytes = 0;
	unsigned long long ts;
	if (kbuffer_load_subbuffer(d->kb, copy) == 0) {
		for (void *ev = kbuffer_read_event(d->kb, &ts); ev; ev = kbuffer_next_event(d->kb, &ts)) {
			if (!n)
				first = ts;
			last = ts;
			bytes += (uint64_t)kbuffer_event_size(d->kb);
			n++;
		}
	}
	free(copy);
	d->pages++;
	d->events += n;
	if (n != info->events || (n && (first != info->first_ts || last != info->last_ts)) || bytes != info->payload_bytes) {
		if (!d->mismatches++)
			snprintf(d->first_mismatch, sizeof(d->first_mismatch),
				 "page %llu: kbuffer %llu events [%llu, %llu] %llu bytes; tracefsck %llu events [%llu, %llu] %llu bytes",
				 (unsigned long long)d->pages, (unsigned long long)n, (unsigned long long)first,
				 (unsigned long long)last, (unsigned long long)bytes, (unsigned long long)info->events,
				 (unsigned long long)info->first_ts, (unsigned long long)info->last_ts,
				 (unsigned long long)info->payload_bytes);
	}
}

static void compare(const uint8_t *data, size_t len, const char *what, uint64_t want_events)
{
	struct diff d;
	memset(&d, 0, sizeof(d));
	struct tfk_observer obs = { .user = &d, .geometry = on_geometry, .buffer = on_buffer, .page = on_page };
	struct tfk_report r;
	tfk_check_buffer_observed(data, len, NULL, &obs, &r);
	if (d.kb)
		kbuffer_free(d.kb);
	if (d.mismatches)
		fail_msg("%s: %llu of %llu pages disagree; first: %s", what, (unsigned long long)d.mismatches,
			 (unsigned long long)d.pages, d.first_mismatch);
	assert_true(d.pages > 0);
	assert_int_equal(d.events, r.stats.events);
	if (want_events)
		assert_int_equal(d.events, want_events);
	print_message("%s: %llu pages, %llu events agree\n", what, (unsigned long long)d.pages, (unsigned long long)d.events);
	tfk_report_free(&r);
}

static void test_fixtures(void **state)
{
	(void)state;
	struct {
		unsigned version;
		int codec;
		bool be;
		uint8_t long_size;
		uint32_t page;
	} v[] = {
		{ 6, TDW_NONE, false, 8, 4096 }, { 6, TDW_NONE, true, 8, 4096 },  { 6, TDW_NONE, false, 4, 4096 },
		{ 6, TDW_NONE, true, 4, 8192 },  { 7, TDW_ZSTD, false, 8, 4096 }, { 7, TDW_ZLIB, true, 8, 4096 },
	};
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		struct fx *x = fx_new();
		x->spec.version = v[i].version;
		x->spec.codec = v[i].codec;
		x->spec.big_endian = v[i].be;
		x->spec.long_size = v[i].long_size;
		x->spec.page_size = v[i].page;
		x->spec.pages_per_cpu = 4;
		x->spec.events_per_page = 40;
		x->spec.instance = "net";
		x->spec.instance_pages = 2;
		fx_build(x);
		char what[64];
		snprintf(what, sizeof(what), "fixture v%u codec %d %s long %u page %u", v[i].version, v[i].codec,
			 v[i].be ? "BE" : "LE", v[i].long_size, v[i].page);
		compare(x->b.data, x->b.len, what, x->L.events);
		fx_free(x);
	}
}

static void test_samples(void **state)
{
	(void)state;
	const char *dir = getenv("TFK_SAMPLES_WORK");
	const char *names[] = { "sched-irq.v6.dat", "sched-irq.v7.dat", "sched-irq.v7zstd.dat", "two-buffers.v6.dat",
				"two-buffers.v7zstd.dat" };
	int seen = 0;
	for (size_t i = 0; dir && i < sizeof(names) / sizeof(names[0]); i++) {
		char path[4096];
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		int fd = open(path, O_RDONLY);
		if (fd < 0)
			continue;
		struct stat st;
		fstat(fd, &st);
		void *m = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
		close(fd);
		assert_true(m != MAP_FAILED);
		compare(m, (size_t)st.st_size, names[i], 0);
		munmap(m, (size_t)st.st_size);
		seen++;
	}
	if (!seen)
		fail_msg("no samples found in TFK_SAMPLES_WORK=%s", dir ? dir : "(unset)");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fixtures),
		cmocka_unit_test(test_samples),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
