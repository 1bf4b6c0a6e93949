/* SPDX-License-Identifier: MIT */
/*
 * scrub's core: SipHash-2-4 against the reference vectors of its paper; pseudonyms keep the
 * length and shape of every word, leave separators, differ from the word, are the same for
 * the same word under one key and differ under another; the sweep replaces whole words only;
 * fields keep their bytes after a string's padding as far as asked.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "pseudo.h"

static void siphash_reference(void **state)
{
	(void)state;
	uint8_t key[16], msg[64];
	for (unsigned i = 0; i < 16; i++)
		key[i] = (uint8_t)i;
	for (unsigned i = 0; i < 64; i++)
		msg[i] = (uint8_t)i;
	/* SipHash-2-4, key 00..0f: the empty message and the 15-byte message 00..0e */
	assert_true(tfk_siphash(key, msg, 0) == 0x726fdb47dd0e0e31ull);
	assert_true(tfk_siphash(key, msg, 15) == 0xa129ca6149be45e5ull);
	assert_true(tfk_siphash(key, msg, 8) == 0x93f5f5799a932462ull);
}

struct fixture {
	struct tfk_scrub_options opts;
	struct tfk_scrub_report rep;
	struct sc_ctx sc;
};

static void start(struct fixture *f, const char *key)
{
	memset(f, 0, sizeof(*f));
	f->opts.kinds = TFK_SCRUB_PUBLIC;
	memcpy(f->opts.key, key, 16);
	sc_init(&f->sc, &f->opts, &f->rep);
}

static void shape_and_consistency(void **state)
{
	(void)state;
	struct fixture f;
	start(&f, "0123456789abcdef");
	char a[] = "/home/Alice42/x.so", b[] = "Alice42 ran /home";
	sc_text(&f.sc, TFK_SCRUB_PATH, (uint8_t *)a, strlen(a));
	sc_text(&f.sc, TFK_SCRUB_CMDLINE, (uint8_t *)b, strlen(b));
	assert_int_equal(strlen(a), 18);
	assert_true(a[0] == '/' && a[5] == '/' && a[13] == '/' && a[15] == '.');
	assert_true(a[6] >= 'A' && a[6] <= 'Z' && a[7] >= 'a' && a[7] <= 'z' && a[11] >= '0' && a[11] <= '9');
	assert_true(memcmp(a + 6, "Alice42", 7) != 0 && memcmp(a + 1, "home", 4) != 0);
	/* the same word, the same pseudonym, whatever the kind */
	assert_memory_equal(a + 6, b, 7);
	assert_memory_equal(a + 1, b + 13, 4);
	assert_int_equal(f.rep.counts[TFK_SCRUB_PATH].replaced, 1);
	assert_int_equal(f.rep.counts[TFK_SCRUB_CMDLINE].replaced, 1);
	/* the sweep finds remembered words (4 letters and more) as whole words only */
	char c[] = "x Alice42\001home homely";
	sc_sweep(&f.sc, (uint8_t *)c, strlen(c));
	assert_memory_equal(c + 2, b, 7);
	assert_memory_equal(c + 10, a + 1, 4);
	assert_memory_equal(c + 15, "homely", 6);
	assert_int_equal(f.rep.swept, 2);
	sc_release(&f.sc);

	struct fixture g;
	start(&g, "another key 0000");
	char d[] = "Alice42";
	sc_text(&g.sc, TFK_SCRUB_HOST, (uint8_t *)d, strlen(d));
	assert_memory_not_equal(d, b, 7);
	sc_release(&g.sc);
}

static void fields_and_kept_kinds(void **state)
{
	(void)state;
	struct fixture f;
	start(&f, "0123456789abcdef");
	f.opts.kinds &= ~TFK_SCRUB_BIT(TFK_SCRUB_TASK);
	uint8_t comm[16] = "bash\0old-name";
	sc_cstr(&f.sc, TFK_SCRUB_TASK, comm, sizeof(comm));
	assert_memory_equal(comm, "bash\0old-name", 13); /* not asked: kept, counted as kept */
	assert_int_equal(f.rep.counts[TFK_SCRUB_TASK].kept, 1);
	uint8_t path[16] = "/tmp/a\0leftover";
	sc_cstr(&f.sc, TFK_SCRUB_PATH, path, sizeof(path));
	for (unsigned i = 6; i < 16; i++)
		assert_int_equal(path[i], 0); /* what an older string left after the NUL is gone */
	uint8_t rec[24] = "name\0xyz" "\x11\x22\x33\x44\x55\x66\x77\x88";
	memcpy(rec + 16, "\x99\x99\x99\x99\x99\x99\x99\x99", 8);
	sc_cstr_aligned(&f.sc, TFK_SCRUB_PATH, rec, sizeof(rec), 8);
	assert_int_equal(rec[5], 0);
	assert_int_equal(rec[8], 0x11); /* the record goes on after the aligned name: untouched */
	/* one or two digits alone are kept (CPU numbers), longer numbers are not */
	char k[] = "kworker/1:12 id 12345";
	sc_text(&f.sc, TFK_SCRUB_STRING, (uint8_t *)k, strlen(k));
	assert_memory_equal(k + 7, "/1:12 ", 6);
	assert_memory_not_equal(k + 16, "12345", 5);
	sc_release(&f.sc);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(siphash_reference),
		cmocka_unit_test(shape_and_consistency),
		cmocka_unit_test(fields_and_kept_kinds),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
