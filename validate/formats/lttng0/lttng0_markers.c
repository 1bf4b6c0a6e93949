/* SPDX-License-Identifier: MIT */
/*
 * Marker metadata of a legacy trace: the core marker_id and marker_format events of
 * control/facilities_N (2008) or metadata_N (LTF 2.x), spec §3.1 and §3.3. They give each
 * marker's numeric id and its printf-like format; an event that does not carry its size (2008
 * event_size 0xFFFF, LTF 2.x compact ids and the id-only escape) is measured field by field
 * from that format.
 *
 * The core events' own formats are those of LTTng 0.x's ltt-marker-control (our reading; the
 * 2008 document only names the events): marker_id is "[channel %s ]name %s event_id %hu int
 * #1u%zu long #1u%zu pointer #1u%zu size_t #1u%zu alignment #1u%u" and marker_format is
 * "[channel %s ]name %s format %s", the channel present in LTF 2.x only.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lttng0.h"

#define FX(n) ((uint8_t)((n) << 4 | L0F_FIXED))

static const struct l0_marker core[2][2] = {
	{ { .channel = "", .name = "core_marker_id", .has_id = true, .has_format = true, .nfields = 7,
	    .fields = { L0F_STRING, FX(2), FX(1), FX(1), FX(1), FX(1), FX(1) } },
	  { .channel = "", .name = "core_marker_format", .id = 1, .has_id = true, .has_format = true, .nfields = 2,
	    .fields = { L0F_STRING, L0F_STRING } } },
	{ { .channel = "metadata", .name = "core_marker_id", .has_id = true, .has_format = true, .nfields = 8,
	    .fields = { L0F_STRING, L0F_STRING, FX(2), FX(1), FX(1), FX(1), FX(1), FX(1) } },
	  { .channel = "metadata", .name = "core_marker_format", .id = 1, .has_id = true, .has_format = true,
	    .nfields = 3, .fields = { L0F_STRING, L0F_STRING, L0F_STRING } } },
};

const struct l0_marker *l0_core_marker(uint8_t layout, uint16_t id)
{
	return id < 2 && (layout == 1 || layout == 2) ? &core[layout - 1][id] : NULL;
}

/*
 * One conversion at fmt[*i] (just past '%'): its field, or -1 for "%%" (no field), or -2 when
 * it cannot be sized (a '*' width, floating point, an unknown conversion).
 */
static int conversion(const char *fmt, size_t len, size_t *i)
{
	size_t k = *i;
	if (k < len && fmt[k] == '%') {
		*i = k + 1;
		return -1;
	}
	while (k < len && strchr("-+ #0", fmt[k]))
		k++;
	while (k < len && ((fmt[k] >= '0' && fmt[k] <= '9') || fmt[k] == '.'))
		k++;
	unsigned longs = 0, shorts = 0;
	int cls = L0F_INT;
	for (; k < len; k++) {
		char ch = fmt[k];
		if (ch == 'h')
			shorts++;
		else if (ch == 'l')
			longs++;
		else if (ch == 'L' || ch == 'q')
			longs = 2;
		else if (ch == 'z' || ch == 'Z')
			cls = L0F_SIZE_T;
		else if (ch == 'j')
			longs = 2;
		else if (ch == 't')
			cls = L0F_LONG;
		else
			break;
	}
	if (k >= len) {
		*i = k;
		return -2;
	}
	const char conv = fmt[k];
	*i = k + 1;
	if (conv == 's')
		return L0F_STRING;
	if (conv == 'p')
		return L0F_PTR;
	if (!strchr("diouxXc", conv))
		return -2;
	if (conv == 'c' && !longs && !shorts && cls == L0F_INT)
		return FX(1); /* a char is recorded as one byte (our reading of ltt-serialize) */
	if (cls == L0F_SIZE_T || cls == L0F_LONG)
		return cls;
	if (longs >= 2)
		return FX(8);
	if (longs == 1)
		return L0F_LONG;
	if (shorts >= 2)
		return FX(1);
	if (shorts == 1)
		return FX(2);
	return L0F_INT;
}

long l0_format_parse(const char *fmt, size_t len, uint8_t *fields, uint8_t *nfields)
{
	uint8_t n = 0;
	int forced = 0; /* "#1u%zu": the LTTng type prefix gives the recorded size */
	for (size_t i = 0; i < len;) {
		const size_t at = i;
		const char ch = fmt[i++];
		if (ch == '#') {
			if (i < len && fmt[i] == 'n')
				i++; /* network byte order: the size is what matters here */
			unsigned size = 0;
			while (i < len && fmt[i] >= '0' && fmt[i] <= '9' && size < 100)
				size = size * 10 + (unsigned)(fmt[i++] - '0');
			while (i < len && fmt[i] != '%' && ((fmt[i] >= 'a' && fmt[i] <= 'z') || (fmt[i] >= 'A' && fmt[i] <= 'Z')))
				i++;
			if ((size != 1 && size != 2 && size != 4 && size != 8) || i >= len || fmt[i] != '%')
				return (long)at;
			forced = (int)size;
			continue;
		}
		if (ch != '%')
			continue;
		int f = conversion(fmt, len, &i);
		if (f == -1 && !forced)
			continue;
		if (f < 0 || (forced && f == L0F_STRING))
			return (long)at;
		if (n == L0_MAX_FIELDS)
			return (long)at;
		fields[n++] = forced ? FX(forced) : (uint8_t)f;
		forced = 0;
	}
	if (forced)
		return (long)len;
	*nfields = n;
	return -1;
}

/* The id index of the channel, up to date; false when it cannot be allocated (then scan). */
static bool index_of(struct l0_markers *mk, const char *channel)
{
	if (mk->index && mk->index_gen == mk->gen && strcmp(mk->index_channel, channel) == 0)
		return true;
	if (!mk->index && !(mk->index = malloc(65536 * sizeof(*mk->index))))
		return false;
	memset(mk->index, 0xFF, 65536 * sizeof(*mk->index));
	mk->index_cover = false;
	for (size_t i = mk->n; i-- > 0;) {
		const struct l0_marker *m = &mk->m[i];
		if (!m->has_id || strcmp(m->channel, channel) != 0)
			continue;
		mk->index[m->id] = (int32_t)i; /* the first definition wins, as redefinitions are refused */
		mk->index_cover |= m->has_format;
	}
	snprintf(mk->index_channel, sizeof(mk->index_channel), "%s", channel);
	mk->index_gen = mk->gen;
	return true;
}

const struct l0_marker *l0_marker_find(struct l0_markers *mk, const char *channel, uint16_t id)
{
	if (index_of(mk, channel))
		return mk->index[id] < 0 ? NULL : &mk->m[mk->index[id]];
	for (size_t i = 0; i < mk->n; i++) {
		const struct l0_marker *m = &mk->m[i];
		if (m->has_id && m->id == id && strcmp(m->channel, channel) == 0)
			return m;
	}
	return NULL;
}

bool l0_markers_cover(struct l0_markers *mk, const char *channel)
{
	if (index_of(mk, channel))
		return mk->index_cover;
	for (size_t i = 0; i < mk->n; i++)
		if (mk->m[i].has_id && mk->m[i].has_format && strcmp(mk->m[i].channel, channel) == 0)
			return true;
	return false;
}

void l0_markers_free(struct l0_markers *mk)
{
	free(mk->m);
	free(mk->index);
	memset(mk, 0, sizeof(*mk));
}

/* The marker named (channel, name), added when new; NULL at the cap (reported once) or out of memory. */
static struct l0_marker *marker_of(struct tfk_ctx *ctx, struct l0_markers *mk, const char *channel, const char *name,
				   uint64_t offset, uint8_t arch_size)
{
	for (size_t i = 0; i < mk->n; i++)
		if (strcmp(mk->m[i].channel, channel) == 0 && strcmp(mk->m[i].name, name) == 0)
			return &mk->m[i];
	if (mk->n == L0_MAX_MARKERS) {
		if (!mk->full)
			tfk_limit_hit(ctx, offset, "LTTng 0.x markers", mk->n + 1, L0_MAX_MARKERS);
		mk->full = true;
		return NULL;
	}
	if (mk->n == mk->cap) {
		size_t cap = mk->cap ? 2 * mk->cap : 32;
		struct l0_marker *m = realloc(mk->m, cap * sizeof(*m));
		if (!m) {
			tfk_limit_hit(ctx, offset, "LTTng 0.x markers (no memory)", mk->n + 1, mk->n);
			mk->full = true;
			return NULL;
		}
		mk->m = m;
		mk->cap = cap;
	}
	struct l0_marker *m = &mk->m[mk->n++];
	memset(m, 0, sizeof(*m));
	memcpy(m->channel, channel, strlen(channel) + 1);
	memcpy(m->name, name, strlen(name) + 1);
	const uint8_t sizes[4] = { 4, arch_size, arch_size, arch_size };
	memcpy(m->sizes, sizes, 4);
	return m;
}

static void bad_record(struct tfk_ctx *ctx, struct l0_trace *t, uint64_t offset, uint64_t length, const char *what,
		       const char *expected)
{
	struct tfk_finding *f = l0_emit(ctx, t, TFK_LTTNG0_METADATA_BAD_RECORD, offset, length);
	tfk_set_path(f, "%s", what);
	tfk_set_expected(f, "%s", expected);
	tfk_set_found(f, "no such value");
}

/* A string field at view-relative off: copied (NUL included) when 1..L0_NAME_MAX-1 bytes, else reported. */
static bool name_at(struct tfk_ctx *ctx, struct l0_trace *t, const struct tfk_cursor *c, uint64_t off, char *out,
		    const char *what)
{
	struct tfk_cursor s = *c;
	const char *p;
	uint64_t n = 0;
	if (!tfk_cur_seek(&s, off) || tfk_cur_cstr(&s, L0_NAME_MAX - 1, &p, &n) != TFK_CSTR_OK || n == 0) {
		struct tfk_finding *f = l0_emit(ctx, t, TFK_LTTNG0_METADATA_BAD_RECORD, c->origin + off, n + 1);
		tfk_set_path(f, "marker %s", what);
		tfk_set_expected(f, "a name of 1 to %u bytes", L0_NAME_MAX - 1);
		tfk_set_found(f, "%llu bytes", (unsigned long long)n);
		return false;
	}
	memcpy(out, p, n);
	out[n] = 0;
	return true;
}

void l0_marker_record(struct tfk_ctx *ctx, struct l0_trace *t, const struct tfk_cursor *c, uint8_t layout, uint16_t id,
		      const uint64_t *offs, uint8_t arch_size)
{
	char channel[L0_NAME_MAX] = "", name[L0_NAME_MAX];
	unsigned k = 0;
	if (layout == 2 && !name_at(ctx, t, c, offs[k++], channel, "channel"))
		return;
	if (!name_at(ctx, t, c, offs[k++], name, "name"))
		return;
	if (id == 0) {
		uint16_t mid = 0;
		uint8_t sz[5] = { 0 };
		tfk_cur_u16_at(c, offs[k], &mid);
		for (unsigned i = 0; i < 5; i++)
			tfk_cur_u8_at(c, offs[k + 1 + i], &sz[i]);
		for (unsigned i = 0; i < 4; i++)
			if (sz[i] != 1 && sz[i] != 2 && sz[i] != 4 && sz[i] != 8) {
				bad_record(ctx, t, c->origin + offs[k + 1 + i], 1, "marker_id type size",
					   "1, 2, 4 or 8 bytes");
				return;
			}
		/* Another marker of the channel with this id already: the ids clash. */
		for (size_t i = 0; i < t->markers.n; i++) {
			const struct l0_marker *o = &t->markers.m[i];
			if (o->has_id && o->id == mid && strcmp(o->channel, channel) == 0 && strcmp(o->name, name) != 0) {
				struct tfk_finding *f = l0_emit(ctx, t, TFK_LTTNG0_METADATA_REDEFINED, c->origin + offs[k], 2);
				tfk_set_path(f, "marker %s event_id", name);
				tfk_set_expected(f, "an id no other marker of channel \"%s\" has", channel);
				tfk_set_found(f, "%u, already %s's", mid, o->name);
				return;
			}
		}
		struct l0_marker *m = marker_of(ctx, &t->markers, channel, name, c->origin + offs[0], arch_size);
		if (!m)
			return;
		m->id = mid;
		m->has_id = true;
		memcpy(m->sizes, sz, 4);
		t->markers.gen++;
		return;
	}
	struct tfk_cursor s = *c;
	const char *fmt;
	uint64_t n = 0;
	/* A format is bounded by its event's payload, which the walk already found whole. */
	if (!tfk_cur_seek(&s, offs[k]) || tfk_cur_cstr(&s, 65536, &fmt, &n) != TFK_CSTR_OK)
		return;
	uint8_t fields[L0_MAX_FIELDS], nf = 0;
	long bad = l0_format_parse(fmt, (size_t)n, fields, &nf);
	if (bad >= 0) {
		struct tfk_finding *f = l0_emit(ctx, t, TFK_LTTNG0_METADATA_BAD_FORMAT, c->origin + offs[k] + (uint64_t)bad,
						n - (uint64_t)bad);
		tfk_set_path(f, "marker %s format", name);
		tfk_set_expected(f, "integer, pointer or string conversions (at most %u) whose sizes are known", L0_MAX_FIELDS);
		tfk_set_found_bytes(f, fmt + bad, (size_t)(n - (uint64_t)bad) > 16 ? 16 : (size_t)(n - (uint64_t)bad));
		return;
	}
	struct l0_marker *m = marker_of(ctx, &t->markers, channel, name, c->origin + offs[0], arch_size);
	if (!m)
		return;
	m->nfields = nf;
	memcpy(m->fields, fields, nf);
	m->has_format = true;
	t->markers.gen++;
}
