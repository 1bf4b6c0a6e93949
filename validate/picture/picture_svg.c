/* SPDX-License-Identifier: MIT */
/*
 * Drawing a picture as SVG: the byte band of the file with the findings marked under it, the
 * rows of directory members with findings, then a lane per unit (CPU, stream, task,
 * tracefile): its events over time (darker where denser, red where data was lost), its own
 * bytes (kept, clipped, lost) on a scale of its own, each finding in it labelled with its code,
 * and beside it what the check counted (events, parts, losses). Every text from the file is
 * sanitised and XML-escaped; hover texts are <title> elements, so no script is needed.
 *
 * Scales: the band and each byte row are linear, each row spanning its own unit's bytes, so a
 * unit's damage is seen at its own scale whatever the metadata around it; and a damaged or lost
 * run is drawn at least MIN_DAMAGE pixels wide over its neighbours, so one bad page in a
 * gigabyte still shows. The number of shapes is bounded by the buckets and the label rows, not
 * by the file: marks in one bucket are one mark with a count, labels of one code at one place
 * one label with a count, labels that find no room counted as "more".
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "picture_draw.h"
#include "sanitize.h"
#include "tracefsck/catalog.h"

#define X0 150         /* left edge of the band and lanes */
#define BW 960         /* their width */
#define SUM_X (X0 + BW + 10) /* the counts beside each lane */
#define W (SUM_X + 250) /* picture width */
#define BAND_Y 62
#define BAND_H 30
#define MARK_Y (BAND_Y + BAND_H + 2)
#define ROW_H 12       /* a time or byte row of a lane */
#define LBL_H 12       /* a row of labels */
#define LBL_ROWS 2     /* label rows under a row */
#define MEMBER_H 14
#define COLS 320       /* timeline columns */
#define MAX_MARK_CODES 6
#define MIN_DAMAGE 4.0 /* pixels: the narrowest a damaged run is drawn */
#define CHAR_W 5.8     /* of a 10px label's character, roughly */

static const char *const state_class[PIC_STATES] = { "u", "d", "m", "e", "g", "c", "b" };

void pic_xml(struct tfk_line *l, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '<': tfk_line_printf(l, "&lt;"); break;
		case '>': tfk_line_printf(l, "&gt;"); break;
		case '&': tfk_line_printf(l, "&amp;"); break;
		case '"': tfk_line_printf(l, "&quot;"); break;
		case '\'': tfk_line_printf(l, "&#39;"); break;
		default: tfk_line_printf(l, "%c", *s);
		}
	}
}

void pic_xml_untrusted(struct tfk_line *l, const char *s)
{
	TFK_OWNED_STRING(safe, tfk_sanitize_dup(s, strlen(s)));
	if (!safe) {
		l->truncated = 1;
		return;
	}
	pic_xml(l, safe);
}

int pic_flush(struct tfk_line *l, tfk_write_fn write, void *user)
{
	if (l->truncated)
		return -1;
	return tfk_line_flush(l, write, user);
}

/* The bucket's colour: its most alarming state (one bad page in a thousand still shows). */
static enum pic_state worst(const uint64_t *bytes)
{
	for (int s = PIC_STATES - 1; s > 0; s--)
		if (bytes[s])
			return (enum pic_state)s;
	return PIC_UNCLAIMED;
}

static bool damaged(enum pic_state s)
{
	return s == PIC_BAD || s == PIC_CLIPPED;
}

/* A row of bytes: n buckets of width w from 0 (relative), total bytes across BW, drawn up to limit. */
struct row {
	const enum pic_state *st;
	size_t n;
	uint64_t w, total, limit;
	int y, h;
};

static double row_x(const struct row *rw, uint64_t rel)
{
	return X0 + (double)BW * (double)(rel > rw->total ? rw->total : rel) / (double)rw->total;
}

/* Runs of one state are one rectangle; then the damaged runs again, at least MIN_DAMAGE wide. */
static void draw_row(struct tfk_line *l, const struct row *rw)
{
	for (int pass = 0; pass < 2; pass++) {
		size_t from = 0;
		for (size_t i = 1; i <= rw->n; i++) {
			const uint64_t lo = i * rw->w;
			const bool end = i == rw->n || lo >= rw->limit;
			if (!end && rw->st[i] == rw->st[from])
				continue;
			const enum pic_state s = rw->st[from];
			const uint64_t hi = lo < rw->limit ? lo : rw->limit;
			double x = row_x(rw, from * rw->w), x2 = row_x(rw, hi), wd = x2 - x;
			if (pass == 0 && s != PIC_UNCLAIMED)
				tfk_line_printf(l, "<rect class=\"%s\" x=\"%.1f\" y=\"%d\" width=\"%.2f\" height=\"%d\"/>\n",
						state_class[s], x, rw->y, wd > 0.05 ? wd : 0.05, rw->h);
			else if (pass == 1 && damaged(s) && wd < MIN_DAMAGE) {
				x -= (MIN_DAMAGE - wd) / 2;
				x = x < X0 ? X0 : x > X0 + BW - MIN_DAMAGE ? X0 + BW - MIN_DAMAGE : x;
				tfk_line_printf(l, "<rect class=\"%s\" x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"%d\"/>\n",
						state_class[s], x, rw->y, MIN_DAMAGE, rw->h);
			}
			from = i;
			if (end)
				break;
		}
	}
}

struct band_scale {
	uint64_t width;   /* bytes per drawn bucket */
	size_t merge;     /* hist buckets per drawn bucket */
	size_t n;         /* drawn buckets */
	uint64_t total;   /* bytes the band spans: the file, and what lies past its end */
};

static struct band_scale scale_of(const struct tfk_picture *p, uint64_t file_size)
{
	struct band_scale s;
	uint64_t w = p->band.width ? p->band.width : 1;
	s.total = file_size > p->extent ? file_size : p->extent;
	s.total += p->past_end;
	if (!s.total)
		s.total = 1;
	uint64_t need = (s.total + w - 1) / w;
	s.merge = need > PIC_BAND ? (size_t)((need + PIC_BAND - 1) / PIC_BAND) : 1;
	s.width = w * s.merge;
	s.n = (size_t)((s.total + s.width - 1) / s.width);
	if (s.n > PIC_BAND)
		s.n = PIC_BAND;
	return s;
}

static double x_of(const struct band_scale *s, uint64_t off)
{
	return X0 + (double)BW * (double)(off > s->total ? s->total : off) / (double)s->total;
}

static void draw_band(struct tfk_line *l, const struct tfk_picture *p, const struct band_scale *s, uint64_t file_size)
{
	/* data-total: the bytes the band's width stands for (x = X0 + BW * offset / total) */
	tfk_line_printf(l, "<g id=\"band\" data-x0=\"%d\" data-width=\"%d\" data-total=\"%" PRIu64 "\"><text x=\"4\" y=\"%d\">bytes</text>\n",
			X0, BW, s->total, BAND_Y + 20);
	enum pic_state st[PIC_BAND];
	for (size_t i = 0; i < s->n; i++) {
		uint64_t bytes[PIC_STATES] = { 0 };
		for (size_t k = i * s->merge; k < (i + 1) * s->merge && k < PIC_BAND; k++)
			for (int c = 0; c < PIC_STATES; c++)
				bytes[c] += p->bytes[k][c];
		st[i] = worst(bytes);
	}
	tfk_line_printf(l, "<rect class=\"u\" x=\"%d\" y=\"%d\" width=\"%.1f\" height=\"%d\"/>\n", X0, BAND_Y,
			x_of(s, file_size) - X0, BAND_H);
	const struct row rw = { st, s->n, s->width, s->total, file_size, BAND_Y, BAND_H };
	draw_row(l, &rw);
	/* the end of the file, and what units declare beyond it */
	double eof = x_of(s, file_size);
	if (p->past_end)
		tfk_line_printf(l, "<rect class=\"p\" x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"%d\"><title>%" PRIu64
				   " bytes declared past the end of the file</title></rect>\n",
				eof, BAND_Y, X0 + BW - eof, BAND_H, p->past_end);
	tfk_line_printf(l, "<line class=\"eof\" x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\"/>\n", eof, BAND_Y - 4, eof,
			BAND_Y + BAND_H + 4);
	tfk_line_printf(l, "<text x=\"%d\" y=\"%d\" class=\"s\">0</text><text x=\"%d\" y=\"%d\" class=\"s\" "
			   "text-anchor=\"end\">%" PRIu64 " bytes</text></g>\n",
			X0, BAND_Y - 6, X0 + BW, BAND_Y - 6, file_size);
}

int pic_lane_of(const struct tfk_picture *p, const struct tfk_finding *f)
{
	for (size_t i = 0; i < p->nlanes; i++) {
		const struct pic_lane *l = &p->lanes[i];
		if (f->member[0]) {
			if (l->member[0] && strcmp(l->member, f->member) == 0)
				return (int)i;
		} else if (!l->member[0] && f->has_offset && l->has_bytes && !l->decoded && f->offset >= l->lo && f->offset < l->hi) {
			return (int)i;
		} else if (!l->member[0] && f->has_offset && l->file_hi && f->offset >= l->file_lo && f->offset < l->file_hi) {
			return (int)i;
		}
	}
	return -1;
}

/* The findings marked under the band, one mark per drawn bucket; directory members apart. */
static int draw_marks(struct tfk_line *l, const struct tfk_report *r, const struct band_scale *s, tfk_write_fn write,
		      void *user)
{
	size_t *first = malloc(s->n * sizeof(*first));
	size_t *count = calloc(s->n, sizeof(*count));
	if (!first || !count) {
		free(first);
		free(count);
		return -1;
	}
	for (size_t i = 0; i < r->count; i++) {
		const struct tfk_finding *f = &r->findings[i];
		if (!f->has_offset || f->member[0])
			continue;
		uint64_t b = f->offset / s->width;
		size_t k = b < s->n ? (size_t)b : s->n - 1;
		if (!count[k]++)
			first[k] = i;
	}
	int rc = 0;
	tfk_line_printf(l, "<g id=\"marks\">\n");
	for (size_t k = 0; k < s->n && rc == 0; k++) {
		if (!count[k])
			continue;
		const struct tfk_finding *f0 = &r->findings[first[k]];
		enum tfk_severity sev = f0->severity;
		for (size_t i = first[k]; i < r->count; i++)
			if (!r->findings[i].member[0] && r->findings[i].has_offset && r->findings[i].offset / s->width == k &&
			    r->findings[i].severity > sev)
				sev = r->findings[i].severity;
		double x = x_of(s, f0->offset);
		tfk_line_printf(l,
				"<path class=\"f%s\" data-offset=\"%" PRIu64 "\" data-count=\"%zu\" data-code=\"%s\" "
				"d=\"M%.1f %d l-5 10 h10 z\"><title>",
				tfk_severity_name(sev), f0->offset, count[k], f0->fault->id, x, MARK_Y);
		size_t shown = 0;
		for (size_t i = first[k]; i < r->count && shown < MAX_MARK_CODES; i++) {
			const struct tfk_finding *f = &r->findings[i];
			if (f->member[0] || !f->has_offset || f->offset / s->width != k)
				continue;
			tfk_line_printf(l, "%s0x%" PRIx64 " %s %s", shown ? "\n" : "", f->offset, tfk_severity_name(f->severity),
					f->fault->id);
			if (f->path[0]) {
				tfk_line_printf(l, " [");
				pic_xml_untrusted(l, f->path);
				tfk_line_printf(l, "]");
			}
			shown++;
		}
		if (count[k] > shown)
			tfk_line_printf(l, "\nand %zu more", count[k] - shown);
		tfk_line_printf(l, "</title></path>\n");
		rc = pic_flush(l, write, user);
	}
	tfk_line_printf(l, "</g>\n");
	free(first);
	free(count);
	return rc;
}

/* A finding to label and where: sorted by x, findings of one code close together merged. */
struct lbl {
	double x;
	size_t index;
};

static int by_x(const void *a, const void *b)
{
	const struct lbl *p = a, *q = b;
	return p->x < q->x ? -1 : p->x > q->x ? 1 : p->index < q->index ? -1 : p->index > q->index;
}

/*
 * Labels under a row: each finding's code written where it lies (a tick up to the row above),
 * in up to LBL_ROWS rows; the ones that find no room are counted at the end. Returns the rows
 * used (0 when there is nothing to label); *more receives the findings left unlabelled.
 */
static int draw_labels(struct tfk_line *l, const struct tfk_report *r, struct lbl *v, size_t n, int y, size_t *more,
		       tfk_write_fn write, void *user, int *rc)
{
	*more = 0;
	if (!n)
		return 0;
	qsort(v, n, sizeof(*v), by_x);
	double row_end[LBL_ROWS];
	for (int k = 0; k < LBL_ROWS; k++)
		row_end[k] = X0 - 200;
	int used = 0;
	for (size_t i = 0; i < n && *rc == 0;) {
		const struct tfk_finding *f = &r->findings[v[i].index];
		size_t j = i + 1;
		enum tfk_severity sev = f->severity;
		while (j < n && r->findings[v[j].index].fault == f->fault && v[j].x - v[i].x < 3.0) {
			if (r->findings[v[j].index].severity > sev)
				sev = r->findings[v[j].index].severity;
			j++;
		}
		const size_t count = j - i;
		char text[96];
		if (count > 1)
			snprintf(text, sizeof(text), "%s (%zu)", f->fault->id, count);
		else
			snprintf(text, sizeof(text), "%s", f->fault->id);
		const double width = CHAR_W * (double)strlen(text) + 8;
		double lx = v[i].x;
		if (lx + width > X0 + BW + 240)
			lx = X0 + BW + 240 - width;
		int row = -1;
		for (int k = 0; k < LBL_ROWS && row < 0; k++)
			if (lx >= row_end[k])
				row = k;
		if (row < 0) {
			*more += count;
		} else {
			row_end[row] = lx + width;
			used = row + 1 > used ? row + 1 : used;
			const int ty = y + row * LBL_H + 9;
			tfk_line_printf(l, "<line class=\"tk\" x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\"/>", v[i].x, y - 2, v[i].x,
					ty - 8);
			tfk_line_printf(l, "<text class=\"lbl l%s\" data-code=\"%s\" data-count=\"%zu\" x=\"%.1f\" y=\"%d\">%s<title>",
					tfk_severity_name(sev), f->fault->id, count, lx + 2, ty, text);
			for (size_t k = i; k < j && k < i + MAX_MARK_CODES; k++) {
				const struct tfk_finding *g = &r->findings[v[k].index];
				tfk_line_printf(l, "%s0x%" PRIx64 " %s %s", k > i ? "\n" : "", g->has_offset ? g->offset : 0,
						tfk_severity_name(g->severity), g->fault->id);
				if (g->path[0]) {
					tfk_line_printf(l, " [");
					pic_xml_untrusted(l, g->path);
					tfk_line_printf(l, "]");
				}
			}
			tfk_line_printf(l, ": ");
			pic_xml(l, f->fault->summary);
			tfk_line_printf(l, "</title></text>\n");
		}
		*rc = pic_flush(l, write, user);
		i = j;
	}
	if (*more) {
		used = used ? used : 1;
		tfk_line_printf(l, "<text class=\"s more\" data-more=\"%zu\" x=\"%d\" y=\"%d\">+%zu more</text>\n", *more, X0 + BW + 200,
				y + (used - 1) * LBL_H + 9, *more);
	}
	return used;
}

/* The findings no lane holds and no member has: labelled under the band's marks. */
static int band_labels(struct tfk_line *l, const struct tfk_picture *p, const struct tfk_report *r,
		       const struct band_scale *s, int *y, tfk_write_fn write, void *user)
{
	struct lbl *v = malloc((r->count ? r->count : 1) * sizeof(*v));
	if (!v)
		return -1;
	size_t n = 0, more;
	for (size_t i = 0; i < r->count; i++) {
		const struct tfk_finding *f = &r->findings[i];
		if (f->member[0] || !f->has_offset || pic_lane_of(p, f) >= 0)
			continue;
		v[n].x = x_of(s, f->offset);
		v[n++].index = i;
	}
	int rc = 0;
	tfk_line_printf(l, "<g id=\"band-labels\">\n");
	int rows = draw_labels(l, r, v, n, *y, &more, write, user, &rc);
	tfk_line_printf(l, "</g>\n");
	*y += rows * LBL_H + 4;
	free(v);
	return rc ? rc : pic_flush(l, write, user);
}

/* Findings of trace directory members that are no lane: a row per member, labelled at their offsets. */
static int draw_members(struct tfk_line *l, const struct tfk_picture *p, const struct tfk_report *r, int *y,
			tfk_write_fn write, void *user)
{
	int rows = 0, rc = 0;
	struct lbl *v = malloc((r->count ? r->count : 1) * sizeof(*v));
	if (!v)
		return -1;
	for (size_t i = 0; i < r->count && rc == 0; i++) {
		const struct tfk_finding *f = &r->findings[i];
		if (!f->member[0] || pic_lane_of(p, f) >= 0)
			continue;
		bool seen = false;
		for (size_t j = 0; j < i && !seen; j++)
			seen = strcmp(r->findings[j].member, f->member) == 0;
		if (seen)
			continue;
		if (rows == 16) {
			tfk_line_printf(l, "<text x=\"4\" y=\"%d\" class=\"s\">more members with findings</text>\n", *y + 12);
			*y += MEMBER_H;
			break;
		}
		uint64_t extent = 1;
		for (size_t j = i; j < r->count; j++)
			if (strcmp(r->findings[j].member, f->member) == 0 && r->findings[j].has_offset &&
			    r->findings[j].offset + r->findings[j].length > extent)
				extent = r->findings[j].offset + r->findings[j].length;
		tfk_line_printf(l, "<g class=\"member\"><text x=\"4\" y=\"%d\" class=\"s\">", *y + 9);
		pic_xml_untrusted(l, f->member);
		tfk_line_printf(l, "</text><rect class=\"m\" x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\"/>\n", X0, *y, BW, MEMBER_H - 4);
		size_t n = 0, more;
		for (size_t j = i; j < r->count; j++) {
			const struct tfk_finding *g = &r->findings[j];
			if (strcmp(g->member, f->member) != 0)
				continue;
			double x = X0 + (double)BW * (double)(g->has_offset ? g->offset : 0) / (double)extent;
			v[n].x = x;
			v[n++].index = j;
			tfk_line_printf(l, "<path class=\"f%s\" data-offset=\"%" PRIu64 "\" data-code=\"%s\" d=\"M%.1f %d l-4 8 h8 z\"><title>",
					tfk_severity_name(g->severity), g->has_offset ? g->offset : 0, g->fault->id, x, *y + 1);
			pic_xml_untrusted(l, g->member);
			tfk_line_printf(l, ": 0x%" PRIx64 " %s %s</title></path>\n", g->has_offset ? g->offset : 0,
					tfk_severity_name(g->severity), g->fault->id);
			if ((rc = pic_flush(l, write, user)) != 0)
				break;
		}
		*y += MEMBER_H;
		int used = rc ? 0 : draw_labels(l, r, v, n, *y, &more, write, user, &rc);
		*y += used * LBL_H + 2;
		tfk_line_printf(l, "</g>\n");
		rows++;
	}
	free(v);
	return rc ? rc : pic_flush(l, write, user);
}

static void human(char *out, size_t n, uint64_t bytes)
{
	if (bytes >= 10ull << 20)
		snprintf(out, n, "%" PRIu64 " MiB", bytes >> 20);
	else if (bytes >= 10ull << 10)
		snprintf(out, n, "%" PRIu64 " KiB", bytes >> 10);
	else
		snprintf(out, n, "%" PRIu64 " B", bytes);
}

/* One lane's time row: events over the common range [t0, t0 + span). */
static void draw_time(struct tfk_line *l, const struct pic_lane *ln, uint64_t t0, double span, int y)
{
	uint64_t cols[COLS] = { 0 }, lost[COLS] = { 0 }, max = 0;
	for (size_t b = 0; b < PIC_TIME && ln->time.width; b++) {
		if (!ln->counts[b][0] && !ln->counts[b][1])
			continue;
		double mid = (double)ln->time.origin + ((double)b + 0.5) * (double)ln->time.width;
		double c = (mid - (double)t0) * COLS / span;
		size_t k = c < 0 ? 0 : c >= COLS ? COLS - 1 : (size_t)c;
		cols[k] += ln->counts[b][0];
		lost[k] += ln->counts[b][1];
	}
	if (ln->loss_pending && ln->has_time) { /* lost after its last whole part */
		double c = ((double)ln->last_good_ts - (double)t0) * COLS / span;
		for (size_t k = c < 0 ? 0 : c >= COLS ? COLS - 1 : (size_t)c; k < COLS; k++)
			lost[k]++;
	}
	for (size_t k = 0; k < COLS; k++)
		max = cols[k] > max ? cols[k] : max;
	tfk_line_printf(l, "<rect class=\"lb\" x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\"/>\n", X0, y, BW, ROW_H - 2);
	const double cw = (double)BW / COLS;
	if (!ln->has_time) {
		tfk_line_printf(l, "<text x=\"%d\" y=\"%d\" class=\"s na\">%s</text>\n", X0 + 4, y + 9,
				ln->parts_bad && !ln->total_events ? "nothing kept: no time" : "no timestamps in what the check keeps of it");
		if (ln->parts_bad && !ln->total_events)
			tfk_line_printf(l, "<rect class=\"lost\" x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" opacity=\".4\"/>\n", X0, y,
					BW, ROW_H - 2);
		return;
	}
	for (size_t k = 0; k < COLS; k++) {
		if (lost[k])
			tfk_line_printf(l, "<rect class=\"lost\" x=\"%.1f\" y=\"%d\" width=\"%.2f\" height=\"%d\"/>\n", X0 + k * cw, y, cw,
					ROW_H - 2);
		else if (cols[k]) {
			/* density in 8 steps: the picture's size does not depend on the counts */
			unsigned level = (unsigned)(1 + (7 * cols[k]) / (max ? max : 1));
			tfk_line_printf(l, "<rect class=\"d%u\" x=\"%.1f\" y=\"%d\" width=\"%.2f\" height=\"%d\"/>\n", level > 8 ? 8 : level,
					X0 + k * cw, y, cw, ROW_H - 2);
		}
	}
}

/* The counts the check knows of the lane, beside it. */
static void draw_counts(struct tfk_line *l, const struct pic_lane *ln, int y)
{
	char lostb[32];
	human(lostb, sizeof(lostb), ln->bytes_lost);
	tfk_line_printf(l, "<text class=\"s cnt\" x=\"%d\" y=\"%d\">%" PRIu64 " events kept", SUM_X, y + 9, ln->total_events);
	if (ln->events_lost)
		tfk_line_printf(l, ", %" PRIu64 " lost", ln->events_lost);
	if (ln->events_unknown)
		tfk_line_printf(l, ", more lost");
	tfk_line_printf(l, "</text>");
	if (!ln->parts && !ln->bytes_lost)
		return; /* nothing walked of its own (a perf CPU's samples are the data's records) */
	tfk_line_printf(l, "<text class=\"s cnt\" x=\"%d\" y=\"%d\">%" PRIu64 " %s", SUM_X, y + ROW_H + 9, ln->parts,
			ln->part ? ln->part : "parts");
	if (ln->parts_bad || ln->parts_clipped)
		tfk_line_printf(l, ": %" PRIu64 " lost, %" PRIu64 " cut", ln->parts_bad, ln->parts_clipped);
	if (ln->bytes_lost)
		tfk_line_printf(l, "; %s lost", lostb);
	tfk_line_printf(l, "</text>\n");
}

/* Each unit: its time row, its byte row, the labels of its findings, its counts. */
static int draw_lanes(struct tfk_line *l, const struct tfk_picture *p, const struct tfk_report *r, int *y,
		      tfk_write_fn write, void *user)
{
	uint64_t t0 = UINT64_MAX, t1 = 0;
	for (size_t i = 0; i < p->nlanes; i++)
		if (p->lanes[i].has_time) {
			if (p->lanes[i].first_ts < t0)
				t0 = p->lanes[i].first_ts;
			if (p->lanes[i].last_ts > t1)
				t1 = p->lanes[i].last_ts;
		}
	if (t0 > t1)
		t0 = t1 = 0;
	const double span = (double)(t1 - t0) + 1.0;
	tfk_line_printf(l, "<g id=\"timelines\"><text x=\"4\" y=\"%d\">units</text><text x=\"%d\" y=\"%d\" class=\"s\">time from %" PRIu64
			   " (top row of each); its bytes below, on a scale of its own</text><text x=\"%d\" y=\"%d\" class=\"s\" "
			   "text-anchor=\"end\">+%.6f s</text>\n",
			*y + 8, X0, *y + 8, t0, X0 + BW, *y + 8, (double)(t1 - t0) / 1e9);
	*y += 14;
	struct lbl *v = malloc((r->count ? r->count : 1) * sizeof(*v));
	int rc = v ? pic_flush(l, write, user) : -1;
	for (size_t i = 0; i < p->nlanes && rc == 0; i++) {
		const struct pic_lane *ln = &p->lanes[i];
		tfk_line_printf(l, "<g class=\"lane\" data-kind=\"%s\" data-name=\"", ln->kind);
		pic_xml_untrusted(l, ln->name);
		tfk_line_printf(l, "\" data-member=\"");
		pic_xml_untrusted(l, ln->member);
		tfk_line_printf(l, "\" data-cpu=\"%" PRIu32 "\" data-events=\"%" PRIu64 "\" data-parts=\"%" PRIu64
				   "\" data-parts-lost=\"%" PRIu64 "\"><text x=\"4\" y=\"%d\" class=\"s\">%s ",
				ln->cpu, ln->total_events, ln->parts, ln->parts_bad, *y + 9,
				strncmp(ln->name, ln->kind, strlen(ln->kind)) == 0 ? "" : ln->kind);
		/* the name's tail: the part that tells units apart */
		size_t nl = strlen(ln->name);
		pic_xml_untrusted(l, nl > 20 ? ln->name + nl - 20 : ln->name);
		tfk_line_printf(l, "<title>");
		pic_xml_untrusted(l, ln->member[0] ? ln->member : ln->name);
		tfk_line_printf(l, "</title></text>\n");
		draw_time(l, ln, t0, span, *y);
		/* its bytes, from its origin to the end of what it holds or declares */
		/* no page of a compressed CPU came out of its decoder: its range in the file, lost */
		const bool whole_lost = !ln->has_bytes && ln->file_hi > ln->file_lo;
		const uint64_t origin = whole_lost ? ln->file_lo : ln->span.origin == UINT64_MAX ? ln->lo : ln->span.origin;
		uint64_t end = whole_lost ? ln->file_hi : ln->hi > ln->size + origin ? ln->hi : ln->size + origin;
		const int by = *y + ROW_H;
		enum pic_state st[PIC_LBYTES];
		size_t nb = 0;
		uint64_t total = end > origin ? end - origin : 1;
		if (ln->has_bytes && ln->span.width) {
			for (nb = 0; nb < PIC_LBYTES && nb * ln->span.width < total; nb++)
				st[nb] = worst(ln->bytes[nb]);
			const struct row rw = { st, nb, ln->span.width, total, total, by, ROW_H - 2 };
			tfk_line_printf(l, "<rect class=\"u\" x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\"/>\n", X0, by, BW, ROW_H - 2);
			draw_row(l, &rw);
		} else if (whole_lost) {
			tfk_line_printf(l, "<rect class=\"b\" x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\"><title>%" PRIu64
					   " bytes from 0x%" PRIx64 ": no page of it decoded</title></rect>\n",
					X0, by, BW, ROW_H - 2, total, origin);
		} else {
			tfk_line_printf(l, "<text x=\"%d\" y=\"%d\" class=\"s na\">no bytes of its own drawn</text>\n", X0 + 4,
					by + 9);
		}
		draw_counts(l, ln, *y);
		*y += 2 * ROW_H;
		size_t n = 0, more;
		for (size_t k = 0; k < r->count; k++) {
			const struct tfk_finding *f = &r->findings[k];
			if (pic_lane_of(p, f) != (int)i)
				continue;
			const uint64_t at = ln->decoded && !whole_lost ? (f->in_decoded ? f->decoded_offset : 0) : f->offset;
			const uint64_t off = f->has_offset && at > origin ? at - origin : 0;
			v[n].x = X0 + (double)BW * (double)(off < total ? off : total) / (double)total;
			v[n++].index = k;
		}
		int used = draw_labels(l, r, v, n, *y, &more, write, user, &rc);
		*y += used * LBL_H + 4;
		tfk_line_printf(l, "</g>\n");
		if (rc == 0)
			rc = pic_flush(l, write, user);
	}
	free(v);
	if (p->lanes_dropped) {
		tfk_line_printf(l, "<text x=\"4\" y=\"%d\" class=\"s\">and %zu more units</text>\n", *y + 11, p->lanes_dropped);
		*y += ROW_H;
	}
	tfk_line_printf(l, "</g>\n");
	return rc ? rc : pic_flush(l, write, user);
}

static void legend(struct tfk_line *l, int y)
{
	static const struct {
		const char *cls, *text;
	} keys[] = { { "g", "valid: kept" }, { "c", "clipped" }, { "b", "lost" }, { "e", "empty" }, { "m", "metadata" },
		     { "d", "data" }, { "u", "unclaimed" }, { "p", "past the end" }, { "lost", "time lost" }, { "d5", "events" } };
	int x = X0;
	tfk_line_printf(l, "<g id=\"legend\">");
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		tfk_line_printf(l, "<rect class=\"%s\" x=\"%d\" y=\"%d\" width=\"10\" height=\"10\"/><text x=\"%d\" y=\"%d\" class=\"s\">%s</text>",
				keys[i].cls, x, y, x + 13, y + 9, keys[i].text);
		x += 20 + 6 * (int)strlen(keys[i].text);
	}
	tfk_line_printf(l, "<text x=\"%d\" y=\"%d\" class=\"s\">damaged runs drawn at least %.0f px wide</text></g>\n", x + 10, y + 9,
			MIN_DAMAGE);
}

/* An upper bound of the height the body needs (the header is written before the body). */
static int height_of(const struct tfk_picture *p, const struct tfk_report *r)
{
	size_t members = 0;
	for (size_t i = 0; i < r->count; i++) {
		bool first = r->findings[i].member[0] != 0;
		for (size_t j = 0; j < i && first; j++)
			first = strcmp(r->findings[j].member, r->findings[i].member) != 0;
		members += first;
	}
	if (members > 17)
		members = 17;
	return MARK_Y + 14 + LBL_ROWS * LBL_H + 8 + (int)members * (MEMBER_H + LBL_ROWS * LBL_H + 2) + 30 +
	       (int)p->nlanes * (2 * ROW_H + LBL_ROWS * LBL_H + 4) + ROW_H + 20;
}

int pic_svg(const struct tfk_picture *p, const struct tfk_report *r, const char *name, tfk_write_fn write, void *user)
{
	TFK_LINE(l);
	tfk_line_reset(&l);
	const uint64_t file_size = r->stats.file_size;
	struct band_scale s = scale_of(p, file_size);
	const int height = height_of(p, r);
	tfk_line_printf(&l,
			"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
			"font-family=\"sans-serif\" font-size=\"12\" shape-rendering=\"crispEdges\">\n<style>"
			".g{fill:#4caf50}.c{fill:#ffb300}.b{fill:#d32f2f}.e{fill:#c8e6c9}.m{fill:#1e88e5}.d{fill:#90a4ae}"
			".u{fill:#eeeeee}.p{fill:#7b1fa2;opacity:.6}.lost{fill:#e53935}.lb{fill:#f5f5f5}"
			".eof{stroke:#000;stroke-width:1.5}.s{font-size:10px}.tk{stroke:#888;stroke-width:.8}"
			".lbl{font-size:10px;font-family:monospace}.lerror{fill:#b71c1c;font-weight:bold}.lwarning{fill:#e65100}"
			".lnote{fill:#455a64}.na{fill:#999;font-style:italic}.cnt{fill:#333}"
			".ferror{fill:#b71c1c}.fwarning{fill:#ef6c00}.fnote{fill:#546e7a}"
			".d1{fill:#c6dbef}.d2{fill:#9ecae1}.d3{fill:#6baed6}.d4{fill:#4292c6}.d5{fill:#2171b5}"
			".d6{fill:#08519c}.d7{fill:#08306b}.d8{fill:#041f45}</style>\n"
			"<rect width=\"100%%\" height=\"100%%\" fill=\"#fff\"/>\n<title>",
			W, height, W, height);
	pic_xml_untrusted(&l, name);
	tfk_line_printf(&l, ": %s</title>\n<text x=\"4\" y=\"16\" font-weight=\"bold\">", tfk_verdict_name(tfk_report_verdict(r)));
	pic_xml_untrusted(&l, name);
	uint64_t parts = 0, lost = 0;
	for (size_t i = 0; i < p->nlanes; i++) {
		parts += p->lanes[i].parts;
		lost += p->lanes[i].parts_bad;
	}
	tfk_line_printf(&l, "</text><text x=\"4\" y=\"31\" class=\"s\" id=\"summary\">%s%s: %s, %" PRIu64 " errors, %" PRIu64
			    " warnings, %" PRIu64 " notes; %" PRIu64 " events; %zu units drawn, %" PRIu64
			    " of their %" PRIu64 " parts lost</text>\n",
			r->stats.format ? r->stats.format : "", r->stats.format ? "" : "unknown format",
			tfk_verdict_name(tfk_report_verdict(r)), r->by_severity[TFK_SEV_ERROR], r->by_severity[TFK_SEV_WARNING],
			r->by_severity[TFK_SEV_NOTE], r->stats.events, p->nlanes + p->lanes_dropped, lost, parts);
	legend(&l, 36);
	if (pic_flush(&l, write, user))
		return -1;
	draw_band(&l, p, &s, file_size);
	if (!p->extent && p->nlanes)
		tfk_line_printf(&l, "<text x=\"%d\" y=\"%d\" class=\"s na\">a directory: each member's bytes are in its unit's row "
				    "below, its findings under it or in the rows of members</text>\n",
				X0 + 6, BAND_Y + 19);
	if (pic_flush(&l, write, user) || draw_marks(&l, r, &s, write, user))
		return -1;
	int y = MARK_Y + 14;
	if (band_labels(&l, p, r, &s, &y, write, user))
		return -1;
	if (draw_members(&l, p, r, &y, write, user))
		return -1;
	y += 6;
	if (p->nlanes && draw_lanes(&l, p, r, &y, write, user))
		return -1;
	tfk_line_printf(&l, "</svg>\n");
	return pic_flush(&l, write, user);
}

int tfk_sink_picture(const struct tfk_picture *p, const struct tfk_report *r, const char *name, bool html,
		     tfk_write_fn write, void *user)
{
	if (html)
		return pic_html(p, r, name, write, user);
	TFK_LINE(l);
	tfk_line_reset(&l);
	tfk_line_printf(&l, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
	if (pic_flush(&l, write, user))
		return -1;
	return pic_svg(p, r, name, write, user);
}
