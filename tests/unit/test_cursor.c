/* SPDX-License-Identifier: MIT */
/* The cursor at every boundary: reads that fit exactly, reads one byte short, overflowing offsets. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "arith.h"
#include "cursor.h"

static const uint8_t bytes[16] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16 };

static void test_reads_exactly_to_the_end(void **state)
{
	(void)state;
	struct tfk_cursor c = tfk_cur_make(bytes, 16, 100, false);
	uint64_t v64;
	uint32_t v32;
	assert_true(tfk_cur_u64(&c, &v64));
	assert_int_equal(v64, 0x0807060504030201ull);
	assert_true(tfk_cur_u32(&c, &v32));
	assert_int_equal(v32, 0x0c0b0a09u);
	assert_int_equal(tfk_cur_abs(&c), 112);
	assert_true(tfk_cur_u32(&c, &v32));
	assert_int_equal(tfk_cur_left(&c), 0);
	uint8_t b;
	assert_false(tfk_cur_u8(&c, &b));
	assert_int_equal(c.pos, 16);
}

static void test_short_read_does_not_move(void **state)
{
	(void)state;
	struct tfk_cursor c = tfk_cur_make(bytes, 16, 0, false);
	assert_true(tfk_cur_skip(&c, 13));
	uint32_t v32 = 0xdeadbeef;
	assert_false(tfk_cur_u32(&c, &v32));
	assert_int_equal(v32, 0xdeadbeef);
	assert_int_equal(c.pos, 13);
	uint16_t v16;
	assert_true(tfk_cur_u16(&c, &v16));
	assert_int_equal(c.pos, 15);
	uint64_t v64;
	assert_false(tfk_cur_u64(&c, &v64));
	assert_false(tfk_cur_skip(&c, 2));
	assert_true(tfk_cur_skip(&c, 1));
}

static void test_big_endian(void **state)
{
	(void)state;
	struct tfk_cursor c = tfk_cur_make(bytes, 16, 0, true);
	uint32_t v32;
	uint16_t v16;
	assert_true(tfk_cur_u32(&c, &v32));
	assert_int_equal(v32, 0x01020304u);
	assert_true(tfk_cur_u16(&c, &v16));
	assert_int_equal(v16, 0x0506);
}

static void test_random_access_overflow(void **state)
{
	(void)state;
	struct tfk_cursor c = tfk_cur_make(bytes, 16, 0, false);
	uint64_t v;
	uint32_t w;
	const uint8_t *p;
	assert_true(tfk_cur_u64_at(&c, 8, &v));
	assert_false(tfk_cur_u64_at(&c, 9, &v));
	assert_false(tfk_cur_u64_at(&c, UINT64_MAX - 3, &v));
	assert_false(tfk_cur_u32_at(&c, UINT64_MAX, &w));
	assert_false(tfk_cur_bytes_at(&c, 1, UINT64_MAX, &p));
	assert_false(tfk_cur_bytes_at(&c, UINT64_MAX, 2, &p));
	assert_true(tfk_cur_bytes_at(&c, 16, 0, &p));
	assert_false(tfk_cur_seek(&c, 17));
	assert_true(tfk_cur_seek(&c, 16));
	assert_false(tfk_cur_skip(&c, UINT64_MAX));
}

static void test_sub_views_clip(void **state)
{
	(void)state;
	struct tfk_cursor c = tfk_cur_make(bytes, 16, 1000, false), s;
	assert_int_equal(tfk_cur_sub(&c, 4, 8, &s), TFK_SUB_OK);
	assert_int_equal(s.len, 8);
	assert_int_equal(s.origin, 1004);
	assert_int_equal(tfk_cur_sub(&c, 12, 8, &s), TFK_SUB_CLIPPED);
	assert_int_equal(s.len, 4);
	assert_int_equal(tfk_cur_sub(&c, 4, UINT64_MAX, &s), TFK_SUB_CLIPPED);
	assert_int_equal(s.len, 12);
	assert_int_equal(tfk_cur_sub(&c, 17, 1, &s), TFK_SUB_OUTSIDE);
	assert_int_equal(s.len, 0);
	assert_int_equal(tfk_cur_sub(&c, 16, 0, &s), TFK_SUB_OK);
	/* A sub-view cannot read its parent's bytes beyond its own end. */
	uint8_t b;
	assert_int_equal(tfk_cur_sub(&c, 0, 2, &s), TFK_SUB_OK);
	assert_false(tfk_cur_u8_at(&s, 2, &b));
}

static void test_cstr(void **state)
{
	(void)state;
	const uint8_t text[] = { 'a', 'b', 0, 'c', 'd', 'e', 'f' };
	struct tfk_cursor c = tfk_cur_make(text, sizeof(text), 0, false);
	const char *s;
	uint64_t len;
	assert_int_equal(tfk_cur_cstr(&c, 10, &s, &len), TFK_CSTR_OK);
	assert_int_equal(len, 2);
	assert_int_equal(c.pos, 3);
	assert_int_equal(tfk_cur_cstr(&c, 10, &s, &len), TFK_CSTR_UNTERMINATED);
	assert_int_equal(c.pos, 3);
	c.pos = 0;
	assert_int_equal(tfk_cur_cstr(&c, 1, &s, &len), TFK_CSTR_TOO_LONG);
	assert_int_equal(tfk_cur_cstr(&c, 2, &s, &len), TFK_CSTR_OK);
}

static void test_find(void **state)
{
	(void)state;
	struct tfk_cursor c = tfk_cur_make(bytes, 16, 0, false);
	assert_int_equal(tfk_cur_find(&c, "\x05\x06", 2), 4);
	c.pos = 5;
	assert_int_equal(tfk_cur_find(&c, "\x05\x06", 2), -1);
	assert_int_equal(tfk_cur_find(&c, "\x0f\x10", 2), 14);
	assert_int_equal(tfk_cur_find(&c, "\x10\x11", 2), -1);
}

static void test_arith(void **state)
{
	(void)state;
	uint64_t r;
	assert_false(tfk_add_u64(UINT64_MAX, 1, &r));
	assert_true(tfk_add_u64(UINT64_MAX - 1, 1, &r));
	assert_false(tfk_mul_u64(1ull << 32, 1ull << 32, &r));
	assert_true(tfk_align_up(4097, 4096, &r));
	assert_int_equal(r, 8192);
	assert_false(tfk_align_up(UINT64_MAX, 4096, &r));
	assert_false(tfk_align_up(5, 0, &r));
	assert_true(tfk_range_fits(10, 6, 16));
	assert_false(tfk_range_fits(10, 7, 16));
	assert_false(tfk_range_fits(17, 0, 16));
	assert_false(tfk_range_fits(1, UINT64_MAX, 16));
	assert_true(tfk_is_pow2(4096));
	assert_false(tfk_is_pow2(0));
	assert_false(tfk_is_pow2(4097));
}

static void test_empty_view(void **state)
{
	(void)state;
	struct tfk_cursor c = tfk_cur_make(NULL, 100, 0, false);
	uint8_t b;
	assert_int_equal(c.len, 0);
	assert_false(tfk_cur_u8(&c, &b));
	assert_int_equal(tfk_cur_find(&c, "a", 1), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_reads_exactly_to_the_end),
		cmocka_unit_test(test_short_read_does_not_move),
		cmocka_unit_test(test_big_endian),
		cmocka_unit_test(test_random_access_overflow),
		cmocka_unit_test(test_sub_views_clip),
		cmocka_unit_test(test_cstr),
		cmocka_unit_test(test_find),
		cmocka_unit_test(test_arith),
		cmocka_unit_test(test_empty_view),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
