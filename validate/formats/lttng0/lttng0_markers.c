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
#include "../../grow.h"

#define FX(n) ((uint8_t)((n) << 4 | L0F_FIXED))

static const struct l0_marker core[2][2] = {
	{ { .channel = "", .name = "core_marker_id", .has_id = true, .core = true, .has_format = true, .nfields = 7,
	    .fields = { L0F_STRING, FX(2), FX(1), FX(1), FX(1), FX(1), FX(1) } },
	  { .channel = "", .name = "core_marker_format", .id = 1, .has_id = true, .core = true, .has_format = true, .nfields = 2,
	    .fields = { L0F_STRING, L0F_STRING } } },
	{ { .channel = "metadata", .name = "core_marker_id", .has_id = true, .core = true, .has_format = true, .nfields = 8,
	    .fields = { L0F_STRING, L0F_STRING, FX(2), FX(1), FX(1), FX(1), FX(1), FX(1) } },
	  { .channel = "metadata", .name = "core_marker_format", .id = 1, .has_id = true, .core = true, .has_format = true,
	    .nfields = 3, .fields = { L0F_STRING, L0F_STRING, L0F_STRING } } },
};

const struct l0_marker *l0_core_marker(uint8_t layout, uint16_t id)
{
	return id < 2 && (layout == 1 || layout == 2) ? &core[layout - 1][id] : NULL;
}

/* A size qualifier of a "%" conversion or a "#" trace type; 0 when fmt[*i] is none. */
static char qualifier(const char *fmt, size_t len, size_t *i, bool trace)
{
	if (*i >= len)
		return 0;
	const char q = fmt[*i];
	if (!strchr("hlLZzt", q) && q != 'S' && !(trace && strchr("1248", q)))
		return 0;
	(*i)++;
	if (q == 'l' && *i < len && fmt[*i] == 'l') {
		(*i)++;
		return 'L';
	}
	if (q == 'h' && !trace && *i < len && fmt[*i] == 'h') {
		(*i)++;
		return 'H'; /* "%hhu": LTTV stops at it; a byte is the only size it can mean */
	}
	return q;
}

/*
 * The field a type character and its qualifier give: c is one byte, s a string, p a pointer,
 * d i o u x X an integer of the qualifier's size (L 8, l long, z Z size_t, t pointer, h 2, the
 * trace types' 1 2 4 8, none int). -2 for any other character.
 */
static int typed(char q, char conv)
{
	if (conv == 'c')
		return FX(1);
	if (conv == 's')
		return L0F_STRING;
	if (conv == 'p')
		return L0F_PTR;
	if (!conv || !strchr("diouxX", conv))
		return -2;
	switch (q) {
	case 'L':
		return FX(8);
	case 'l':
		return L0F_LONG;
	case 'z':
	case 'Z':
		return L0F_SIZE_T;
	case 't':
		return L0F_PTR;
	case 'h':
		return FX(2);
	case 'H':
		return FX(1);
	case '1':
	case '2':
	case '4':
	case '8':
		return FX(q - '0');
	default:
		return L0F_INT;
	}
}

/*
 * One "%" conversion at fmt[*i] (just past '%'): its field, or -1 for "%%" (no field), or -2
 * when it cannot be sized (a '*' width, floating point, an unknown conversion). Flags and a
 * width are passed over (the tracer's formats have none, but a reader would print them).
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
	const char q = qualifier(fmt, len, &k, false);
	if (k >= len) {
		*i = k;
		return -2;
	}
	const char conv = fmt[k];
	*i = k + 1;
	return typed(q, conv);
}

long l0_format_parse(const char *fmt, size_t len, uint8_t *fields, uint8_t *nfields)
{
	uint8_t n = 0;
	int forced = -1; /* the field a "#" trace type gave the next conversion ("#p%lu", "#2u%u") */
	for (size_t i = 0; i < len;) {
		const size_t at = i;
		const char ch = fmt[i++];
		if (ch == '#') {
			if (i < len && fmt[i] == '#') {
				i++; /* "##": a '#' of the text */
				continue;
			}
			while (i < len && (fmt[i] == 'n' || fmt[i] == 'b'))
				i++; /* network byte order, compact bitfield: the size is what matters here */
			const char q = qualifier(fmt, len, &i, true);
			const int f = i < len ? typed(q, fmt[i]) : -2;
			/*
			 * Not a type ("#1%d"): the tracer's parser (and LTTV's) gives no trace type and
			 * steps over the character it stopped at, here the '%', so that no field is
			 * recorded for the conversion at all.
			 */
			if (i < len)
				i++;
			forced = f < 0 ? -1 : f;
			continue;
		}
		if (ch != '%')
			continue;
		int f = conversion(fmt, len, &i);
		if (f == -1)
			continue;
		if (f < 0)
			return (long)at;
		if (n == L0_MAX_FIELDS)
			return (long)at;
		/* The trace type gives the recorded size, unless the conversion is a string. */
		fields[n++] = (uint8_t)(forced >= 0 && f != L0F_STRING ? forced : f);
		forced = -1;
	}
	*nfields = n;
	return -1;
}

long l0_format_typeless(const char *fmt, size_t len)
{
	for (size_t i = 0; i < len;) {
		const size_t at = i;
		if (fmt[i++] != '#')
			continue;
		if (i < len && fmt[i] == '#') {
			i++;
			continue;
		}
		while (i < len && (fmt[i] == 'n' || fmt[i] == 'b'))
			i++;
		const char q = qualifier(fmt, len, &i, true);
		if (i >= len || typed(q, fmt[i]) < 0)
			return (long)at;
		i++;
	}
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

/* A new marker of (channel, name); NULL at the cap (reported once) or out of memory. */
static struct l0_marker *marker_add(struct tfk_ctx *ctx, struct l0_markers *mk, const char *channel, const char *name,
				    uint64_t offset, uint8_t arch_size)
{
	if (mk->n == L0_MAX_MARKERS) {
		if (!mk->full)
			tfk_limit_hit(ctx, offset, "LTTng 0.x markers", mk->n + 1, L0_MAX_MARKERS);
		mk->full = true;
		return NULL;
	}
	void *grown_m = mk->m;
	bool grown = tfk_array_grow(&grown_m, &mk->cap, mk->n + 1, sizeof(*mk->m), 0);
	mk->m = grown_m;
	if (!grown) {
		tfk_limit_hit(ctx, offset, "LTTng 0.x markers (no memory)", mk->n + 1, mk->n);
		mk->full = true;
		return NULL;
	}
	struct l0_marker *m = &mk->m[mk->n++];
	memset(m, 0, sizeof(*m));
	memcpy(m->channel, channel, strlen(channel) + 1);
	memcpy(m->name, name, strlen(name) + 1);
	const uint8_t sizes[4] = { 4, arch_size, arch_size, arch_size };
	memcpy(m->sizes, sizes, 4);
	return m;
}

/* The first marker of (channel, name) that has (want_id) or lacks an id, or NULL. */
static struct l0_marker *marker_named(struct l0_markers *mk, const char *channel, const char *name)
{
	for (size_t i = 0; i < mk->n; i++)
		if (strcmp(mk->m[i].channel, channel) == 0 && strcmp(mk->m[i].name, name) == 0)
			return &mk->m[i];
	return NULL;
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

/*
 * A type size (slot 0..3: int, long, pointer, size_t) or the alignment (slot 4) of a marker_id
 * that cannot be: every marker_id of the trace gives the traced kernel's, so the value the
 * trace's markers agree on (before any, int 4, arch_size, the header's alignment) replaces it,
 * here and, through the model, in the repaired copy.
 */
static void bad_type_size(struct tfk_ctx *ctx, struct l0_trace *t, const struct tfk_cursor *c, uint64_t off,
			  unsigned slot, uint8_t *sz, uint8_t arch_size)
{
	static const char *const names[5] = { "int", "long", "pointer", "size_t", "alignment" };
	uint8_t want = slot == 0 ? 4 : slot == 4 ? t->alignment : arch_size;
	for (size_t i = 0; i < t->markers.n; i++) {
		const struct l0_marker *m = &t->markers.m[i];
		if (m->has_id) {
			want = slot == 4 ? m->align : m->sizes[slot];
			break;
		}
	}
	struct tfk_finding *f = l0_emit(ctx, t, TFK_LTTNG0_METADATA_BAD_TYPE_SIZE, c->origin + off, 1);
	tfk_set_path(f, "marker_id %s size", names[slot]);
	tfk_set_expected(f, "%u, as the trace's other marker_id events give", want);
	tfk_set_found(f, "%u", sz[slot]);
	sz[slot] = want;
	const struct tfk_observer *obs = ctx->obs;
	if (obs && obs->model) {
		struct tfk_lttng0_patch p = { c->origin + off, want };
		obs->model(obs->user, &tfk_format_lttng0, TFK_LTTNG0_MODEL_PATCH, &p, sizeof p);
	}
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
		for (unsigned i = 0; i < 5; i++)
			if (!(sz[i] == 1 || sz[i] == 2 || sz[i] == 4 || sz[i] == 8 || (i == 4 && sz[i] == 0)))
				bad_type_size(ctx, t, c, offs[k + 1 + i], i, sz, arch_size);
		/*
		 * Another marker of the channel with this id already: the ids clash, unless it is the
		 * same marker again (each CPU's metadata tracefile repeats the markers).
		 */
		for (size_t i = 0; i < t->markers.n; i++) {
			struct l0_marker *o = &t->markers.m[i];
			if (!o->has_id || o->id != mid || strcmp(o->channel, channel) != 0)
				continue;
			if (strcmp(o->name, name) != 0) {
				struct tfk_finding *f = l0_emit(ctx, t, TFK_LTTNG0_METADATA_REDEFINED, c->origin + offs[k], 2);
				tfk_set_path(f, "marker %s event_id", name);
				tfk_set_expected(f, "an id no other marker of channel \"%s\" has", channel);
				tfk_set_found(f, "%u, already %s's", mid, o->name);
				return;
			}
			memcpy(o->sizes, sz, 4);
			o->align = sz[4];
			t->markers.gen++;
			return;
		}
		/*
		 * A marker may be given several ids (LTTV chains them by name): a marker of that name
		 * without an id yet takes this one, else a new entry shares the name and its format.
		 */
		struct l0_marker *m = marker_named(&t->markers, channel, name);
		if (!m || m->has_id) {
			/* by index: adding a marker may move the array the named one lies in */
			const size_t named_at = m ? (size_t)(m - t->markers.m) : SIZE_MAX;
			m = marker_add(ctx, &t->markers, channel, name, c->origin + offs[0], arch_size);
			if (!m)
				return;
			const struct l0_marker *named = named_at != SIZE_MAX ? &t->markers.m[named_at] : NULL;
			if (named && named->has_format) {
				m->nfields = named->nfields;
				memcpy(m->fields, named->fields, named->nfields);
				m->has_format = true;
			}
		}
		m->id = mid;
		m->has_id = true;
		memcpy(m->sizes, sz, 4);
		m->align = sz[4];
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
	const long typeless = l0_format_typeless(fmt, (size_t)n);
	if (typeless >= 0) {
		/* A writer quirk (quirks.def): the tracer recorded no field for this conversion. */
		struct tfk_finding *f = l0_emit(ctx, t, TFK_LTTNG0_WRITER_TYPELESS_TRACE_TYPE, c->origin + offs[k] + (uint64_t)typeless,
						n - (uint64_t)typeless);
		tfk_set_path(f, "marker %s%s%s format", channel, *channel ? "." : "", name);
		tfk_set_expected(f, "a type after the '#' trace type (\"#1u%%u\" records one byte; this records nothing)");
		tfk_set_found(f, "%u.%u", t->major, t->minor);
	}
	/* The format is every marker of that name's, whatever its id. */
	bool any = false;
	for (size_t i = 0; i < t->markers.n; i++) {
		struct l0_marker *m = &t->markers.m[i];
		if (strcmp(m->channel, channel) != 0 || strcmp(m->name, name) != 0)
			continue;
		m->nfields = nf;
		memcpy(m->fields, fields, nf);
		m->has_format = true;
		any = true;
	}
	if (!any) {
		struct l0_marker *m = marker_add(ctx, &t->markers, channel, name, c->origin + offs[0], arch_size);
		if (!m)
			return;
		m->nfields = nf;
		memcpy(m->fields, fields, nf);
		m->has_format = true;
	}
	t->markers.gen++;
}
