/* SPDX-License-Identifier: MIT */
/*
 * Drawing a picture as SVG (or an HTML page holding it): the byte band with the findings
 * marked under it, then a timeline per CPU. Every text from the file (names, found texts) is
 * sanitised and XML-escaped; hover texts are <title> elements, so no script is needed. The
 * number of shapes is bounded by the buckets, not by the file: marks falling in one bucket
 * are one mark with a count.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "picture.h"
#include "sanitize.h"
#include "sinks/sink_common.h"
#include "tracefsck/catalog.h"

#define W 1100         /* picture width */
#define X0 110         /* left edge of the band and timelines */
#define BW 960         /* their width */
#define BAND_Y 60
#define BAND_H 36
#define MARK_Y (BAND_Y + BAND_H + 2)
#define LANE_H 16
#define COLS 320       /* timeline columns */
#define MAX_MARK_CODES 6

static const char *const state_class[PIC_STATES] = { "u", "d", "m", "e", "g", "c", "b" };

/* Append s XML-escaped (s already sanitised: printable ASCII). */
static void xml(struct tfk_line *l, const char *s)
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

/* Untrusted text (a name, a found text): sanitised, then escaped. */
static void xml_untrusted(struct tfk_line *l, const char *s)
{
	TFK_OWNED_STRING(safe, tfk_sanitize_dup(s, strlen(s)));
	if (!safe) {
		l->truncated = 1;
		return;
	}
	xml(l, safe);
}

static int flush(struct tfk_line *l, tfk_write_fn write, void *user)
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
			X0, BW, s->total, BAND_Y + 22);
	/* Runs of buckets of one colour are one rectangle: fewer shapes, no seams between them. */
	size_t run_from = 0;
	enum pic_state run_state = PIC_UNCLAIMED;
	for (size_t i = 0; i <= s->n; i++) {
		enum pic_state st = PIC_UNCLAIMED;
		const uint64_t lo = i * s->width;
		const bool end = i == s->n || lo >= file_size; /* past the end: drawn apart */
		if (!end) {
			uint64_t bytes[PIC_STATES] = { 0 };
			for (size_t k = i * s->merge; k < (i + 1) * s->merge && k < PIC_BAND; k++)
				for (int c = 0; c < PIC_STATES; c++)
					bytes[c] += p->bytes[k][c];
			st = worst(bytes);
		}
		if (i > 0 && (end || st != run_state)) {
			uint64_t hi = i * s->width;
			double x = x_of(s, run_from * s->width), x2 = x_of(s, hi < file_size ? hi : file_size);
			tfk_line_printf(l, "<rect class=\"%s\" x=\"%.1f\" y=\"%d\" width=\"%.2f\" height=\"%d\"/>\n", state_class[run_state],
					x, BAND_Y, x2 - x > 0.05 ? x2 - x : 0.05, BAND_H);
			run_from = i;
		}
		if (end)
			break;
		run_state = st;
	}
	/* the end of the file, and what CPUs declare beyond it */
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
				xml_untrusted(l, f->path);
				tfk_line_printf(l, "]");
			}
			shown++;
		}
		if (count[k] > shown)
			tfk_line_printf(l, "\nand %zu more", count[k] - shown);
		tfk_line_printf(l, "</title></path>\n");
		rc = flush(l, write, user);
	}
	tfk_line_printf(l, "</g>\n");
	free(first);
	free(count);
	return rc;
}

/* Findings of a trace directory's members: a row per member, at their offsets in it. */
static int draw_members(struct tfk_line *l, const struct tfk_report *r, int *y, tfk_write_fn write, void *user)
{
	int rows = 0, rc = 0;
	for (size_t i = 0; i < r->count && rc == 0; i++) {
		const struct tfk_finding *f = &r->findings[i];
		if (!f->member[0])
			continue;
		bool seen = false;
		for (size_t j = 0; j < i && !seen; j++)
			seen = strcmp(r->findings[j].member, f->member) == 0;
		if (seen)
			continue;
		if (rows == 16) {
			tfk_line_printf(l, "<text x=\"4\" y=\"%d\" class=\"s\">more members with findings</text>\n", *y + 12);
			*y += LANE_H;
			break;
		}
		uint64_t extent = 1;
		for (size_t j = i; j < r->count; j++)
			if (strcmp(r->findings[j].member, f->member) == 0 && r->findings[j].has_offset &&
			    r->findings[j].offset + r->findings[j].length > extent)
				extent = r->findings[j].offset + r->findings[j].length;
		tfk_line_printf(l, "<g class=\"member\"><text x=\"4\" y=\"%d\" class=\"s\">", *y + 11);
		xml_untrusted(l, f->member);
		tfk_line_printf(l, "</text><rect class=\"m\" x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\"/>\n", X0, *y, BW, LANE_H - 4);
		for (size_t j = i; j < r->count; j++) {
			const struct tfk_finding *g = &r->findings[j];
			if (strcmp(g->member, f->member) != 0)
				continue;
			double x = X0 + (double)BW * (double)(g->has_offset ? g->offset : 0) / (double)extent;
			tfk_line_printf(l, "<path class=\"f%s\" data-offset=\"%" PRIu64 "\" data-code=\"%s\" d=\"M%.1f %d l-4 8 h8 z\"><title>",
					tfk_severity_name(g->severity), g->has_offset ? g->offset : 0, g->fault->id, x, *y + 2);
			xml_untrusted(l, g->member);
			tfk_line_printf(l, ": 0x%" PRIx64 " %s %s</title></path>\n", g->has_offset ? g->offset : 0,
					tfk_severity_name(g->severity), g->fault->id);
			if ((rc = flush(l, write, user)) != 0)
				break;
		}
		tfk_line_printf(l, "</g>\n");
		*y += LANE_H;
		rows++;
	}
	return rc;
}

/* Each CPU's events over the common time range: darker where denser, red where pages were lost. */
static int draw_lanes(struct tfk_line *l, const struct tfk_picture *p, int *y, tfk_write_fn write, void *user)
{
	uint64_t t0 = UINT64_MAX, t1 = 0;
	for (size_t i = 0; i < p->nlanes; i++)
		if (p->lanes[i].total_events) {
			if (p->lanes[i].first_ts < t0)
				t0 = p->lanes[i].first_ts;
			if (p->lanes[i].last_ts > t1)
				t1 = p->lanes[i].last_ts;
		}
	if (t0 > t1)
		t0 = t1 = 0;
	const double span = (double)(t1 - t0) + 1.0;
	tfk_line_printf(l, "<g id=\"timelines\"><text x=\"4\" y=\"%d\">time</text><text x=\"%d\" y=\"%d\" class=\"s\">%" PRIu64
			   "</text><text x=\"%d\" y=\"%d\" class=\"s\" text-anchor=\"end\">+%.6f s</text>\n",
			*y + 8, X0, *y + 8, t0, X0 + BW, *y + 8, (double)(t1 - t0) / 1e9);
	*y += 14;
	int rc = flush(l, write, user);
	for (size_t i = 0; i < p->nlanes && rc == 0; i++) {
		const struct pic_lane *ln = &p->lanes[i];
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
		if (ln->loss_pending && ln->total_events) /* lost after its last whole page */
			for (size_t k = (size_t)(((double)ln->last_good_ts - (double)t0) * COLS / span); k < COLS; k++)
				lost[k]++;
		for (size_t k = 0; k < COLS; k++)
			max = cols[k] > max ? cols[k] : max;
		tfk_line_printf(l, "<g class=\"lane\" data-cpu=\"%" PRIu32 "\" data-events=\"%" PRIu64 "\"><text x=\"4\" y=\"%d\" class=\"s\">",
				ln->cpu, ln->total_events, *y + 11);
		if (ln->buffer[0]) {
			xml_untrusted(l, ln->buffer);
			tfk_line_printf(l, " ");
		}
		tfk_line_printf(l, "cpu %" PRIu32 "</text><rect class=\"lb\" x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\"><title>%" PRIu64
				   " events, %" PRIu64 " pages dropped</title></rect>\n",
				ln->cpu, X0, *y, BW, LANE_H - 3, ln->total_events, ln->pages_bad);
		const double cw = (double)BW / COLS;
		for (size_t k = 0; k < COLS; k++) {
			if (lost[k] || (!ln->total_events && ln->pages_bad))
				tfk_line_printf(l, "<rect class=\"lost\" x=\"%.1f\" y=\"%d\" width=\"%.2f\" height=\"%d\"/>\n", X0 + k * cw, *y,
						cw, LANE_H - 3);
			else if (cols[k]) {
				/* density in 8 steps: the picture's size does not depend on the counts */
				unsigned level = (unsigned)(1 + (7 * cols[k]) / (max ? max : 1));
				tfk_line_printf(l, "<rect class=\"d%u\" x=\"%.1f\" y=\"%d\" width=\"%.2f\" height=\"%d\"/>\n", level > 8 ? 8 : level,
						X0 + k * cw, *y, cw, LANE_H - 3);
			}
			if (l->len > 6000 && (rc = flush(l, write, user)) != 0)
				break;
		}
		tfk_line_printf(l, "</g>\n");
		*y += LANE_H;
		if (rc == 0)
			rc = flush(l, write, user);
	}
	if (p->lanes_dropped) {
		tfk_line_printf(l, "<text x=\"4\" y=\"%d\" class=\"s\">and %zu more CPUs</text>\n", *y + 11, p->lanes_dropped);
		*y += LANE_H;
	}
	tfk_line_printf(l, "</g>\n");
	return rc ? rc : flush(l, write, user);
}

static void legend(struct tfk_line *l, int y)
{
	static const struct {
		const char *cls, *text;
	} keys[] = { { "g", "valid" }, { "c", "clipped" }, { "b", "dropped" }, { "e", "empty" }, { "m", "metadata" },
		     { "d", "data" }, { "u", "unclaimed" }, { "p", "past the end" }, { "lost", "time lost" } };
	int x = X0;
	tfk_line_printf(l, "<g id=\"legend\">");
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		tfk_line_printf(l, "<rect class=\"%s\" x=\"%d\" y=\"%d\" width=\"10\" height=\"10\"/><text x=\"%d\" y=\"%d\" class=\"s\">%s</text>",
				keys[i].cls, x, y, x + 13, y + 9, keys[i].text);
		x += 20 + 7 * (int)strlen(keys[i].text);
	}
	tfk_line_printf(l, "</g>\n");
}

int tfk_sink_picture(const struct tfk_picture *p, const struct tfk_report *r, const char *name, bool html,
		     tfk_write_fn write, void *user)
{
	TFK_LINE(l);
	tfk_line_reset(&l);
	const uint64_t file_size = r->stats.file_size;
	struct band_scale s = scale_of(p, file_size);
	/* The height depends on the lanes and members drawn: the document is written in two parts
	 * around a height known only at the end, so the body goes first into a group translated
	 * under the header, and the height is an upper bound computed here. */
	size_t members = 0;
	for (size_t i = 0; i < r->count; i++)
		members += r->findings[i].member[0] != 0;
	const int height = MARK_Y + 40 + (int)(p->nlanes + (members > 16 ? 17 : members) + 3) * LANE_H + 40;
	if (html) {
		tfk_line_printf(&l, "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>");
		xml_untrusted(&l, name);
		tfk_line_printf(&l, " - tracefsck</title><style>body{font-family:sans-serif;margin:16px}</style></head><body>\n");
	} else {
		tfk_line_printf(&l, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
	}
	tfk_line_printf(&l,
			"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
			"font-family=\"sans-serif\" font-size=\"12\" shape-rendering=\"crispEdges\">\n<style>"
			".g{fill:#4caf50}.c{fill:#ffb300}.b{fill:#d32f2f}.e{fill:#c8e6c9}.m{fill:#1e88e5}.d{fill:#90a4ae}"
			".u{fill:#eeeeee}.p{fill:#7b1fa2;opacity:.6}.lost{fill:#e53935}.lb{fill:#f5f5f5}"
			".eof{stroke:#000;stroke-width:1.5}.s{font-size:10px}"
			".ferror{fill:#b71c1c}.fwarning{fill:#ef6c00}.fnote{fill:#546e7a}"
			".d1{fill:#c6dbef}.d2{fill:#9ecae1}.d3{fill:#6baed6}.d4{fill:#4292c6}.d5{fill:#2171b5}"
			".d6{fill:#08519c}.d7{fill:#08306b}.d8{fill:#041f45}</style>\n<title>",
			W, height, W, height);
	xml_untrusted(&l, name);
	tfk_line_printf(&l, ": %s</title>\n<text x=\"4\" y=\"16\" font-weight=\"bold\">", tfk_verdict_name(tfk_report_verdict(r)));
	xml_untrusted(&l, name);
	tfk_line_printf(&l, "</text><text x=\"4\" y=\"31\" class=\"s\">%s%s: %s, %" PRIu64 " errors, %" PRIu64
			    " warnings, %" PRIu64 " notes, %" PRIu64 " events</text>\n",
			r->stats.format ? r->stats.format : "", r->stats.format ? "" : "unknown format",
			tfk_verdict_name(tfk_report_verdict(r)), r->by_severity[TFK_SEV_ERROR], r->by_severity[TFK_SEV_WARNING],
			r->by_severity[TFK_SEV_NOTE], r->stats.events);
	legend(&l, 34);
	if (flush(&l, write, user))
		return -1;
	draw_band(&l, p, &s, file_size);
	if (flush(&l, write, user) || draw_marks(&l, r, &s, write, user))
		return -1;
	int y = MARK_Y + 22;
	if (members && draw_members(&l, r, &y, write, user))
		return -1;
	if (p->nlanes && draw_lanes(&l, p, &y, write, user))
		return -1;
	tfk_line_printf(&l, "</svg>\n%s", html ? "</body></html>\n" : "");
	return flush(&l, write, user);
}
