/* SPDX-License-Identifier: MIT */
/*
 * The picture as a self-contained HTML page: the SVG, a table of the units drawn with what the
 * check counted of each, the findings as a table (sortable by any column with the small script
 * at the end; every code a link to its text further down) and the catalog's text of every code
 * found, as `tracefsck explain` prints it. Nothing is loaded from elsewhere: no external style,
 * script, font or image, and every link points inside the page.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "picture_draw.h"
#include "tracefsck/catalog.h"
#include "tracefsck/hazard.h"

/* Sorting: a click on a header sorts by that column (numbers by data-v), again reverses it. */
static const char script[] =
	"<script>\n"
	"document.querySelectorAll('table.sortable th').forEach(function (th, col) {\n"
	"  th.addEventListener('click', function () {\n"
	"    var body = th.closest('table').tBodies[0], rows = Array.from(body.rows);\n"
	"    var dir = th.dataset.dir === 'up' ? -1 : 1;\n"
	"    th.dataset.dir = dir === 1 ? 'up' : 'down';\n"
	"    rows.sort(function (a, b) {\n"
	"      var x = a.cells[col].dataset.v || a.cells[col].textContent, y = b.cells[col].dataset.v || b.cells[col].textContent;\n"
	"      var num = [x, y].every(function (s) { return s !== '' ? !isNaN(Number(s)) : false; });\n"
	"      if (num) return dir * (Number(x) - Number(y));\n"
	"      return dir * x.localeCompare(y);\n"
	"    });\n"
	"    rows.forEach(function (r) { body.appendChild(r); });\n"
	"  });\n"
	"});\n"
	"</script>\n";

static void cell_untrusted(struct tfk_line *l, const char *s)
{
	tfk_line_printf(l, "<td>");
	pic_xml_untrusted(l, s);
	tfk_line_printf(l, "</td>");
}

static int units_table(struct tfk_line *l, const struct tfk_picture *p, tfk_write_fn write, void *user)
{
	tfk_line_printf(l, "<h2>Units</h2>\n<table id=\"units\" class=\"sortable\"><thead><tr><th>kind</th><th>name</th>"
			   "<th>events kept</th><th>events lost</th><th>parts</th><th>parts lost</th><th>parts cut</th>"
			   "<th>bytes lost</th></tr></thead><tbody>\n");
	for (size_t i = 0; i < p->nlanes; i++) {
		const struct pic_lane *ln = &p->lanes[i];
		tfk_line_printf(l, "<tr><td>%s</td>", ln->kind);
		cell_untrusted(l, ln->member[0] ? ln->member : ln->name);
		tfk_line_printf(l, "<td>%" PRIu64 "</td><td data-v=\"%" PRIu64 "\">%" PRIu64 "%s</td><td>%" PRIu64 " %s</td><td>%" PRIu64
				   "</td><td>%" PRIu64 "</td><td>%" PRIu64 "</td></tr>\n",
				ln->total_events, ln->events_lost, ln->events_lost, ln->events_unknown ? " and more" : "", ln->parts,
				ln->part ? ln->part : "parts", ln->parts_bad, ln->parts_clipped, ln->bytes_lost);
		if (pic_flush(l, write, user))
			return -1;
	}
	tfk_line_printf(l, "</tbody></table>\n");
	if (p->lanes_dropped)
		tfk_line_printf(l, "<p>and %zu more units, not drawn.</p>\n", p->lanes_dropped);
	return pic_flush(l, write, user);
}

static int findings_table(struct tfk_line *l, const struct tfk_picture *p, const struct tfk_report *r, tfk_write_fn write,
			  void *user)
{
	tfk_line_printf(l, "<h2>Findings</h2>\n<p>%zu shown of %" PRIu64 "; click a column to sort by it.</p>\n"
			   "<table id=\"findings\" class=\"sortable\"><thead><tr><th>#</th><th>severity</th><th>code</th><th>unit</th>"
			   "<th>member</th><th>offset</th><th>length</th><th>where</th><th>expected</th><th>found</th></tr></thead><tbody>\n",
			r->count, r->total);
	for (size_t i = 0; i < r->count; i++) {
		const struct tfk_finding *f = &r->findings[i];
		const int lane = pic_lane_of(p, f);
		tfk_line_printf(l, "<tr class=\"%s\" data-code=\"%s\"><td>%zu</td><td data-v=\"%d\">%s</td><td><a href=\"#explain-%s\">%s</a></td>",
				tfk_severity_name(f->severity), f->fault->id, i + 1, 2 - (int)f->severity,
				tfk_severity_name(f->severity), f->fault->id, f->fault->id);
		if (lane >= 0) {
			tfk_line_printf(l, "<td>%s ", p->lanes[lane].kind);
			pic_xml_untrusted(l, p->lanes[lane].name);
			tfk_line_printf(l, "</td>");
		} else {
			tfk_line_printf(l, "<td></td>");
		}
		cell_untrusted(l, f->member);
		if (f->has_offset)
			tfk_line_printf(l, "<td data-v=\"%" PRIu64 "\">0x%" PRIx64 "</td>", f->offset, f->offset);
		else
			tfk_line_printf(l, "<td data-v=\"-1\"></td>");
		tfk_line_printf(l, "<td>%" PRIu64 "</td>", f->length);
		cell_untrusted(l, f->path);
		cell_untrusted(l, f->expected);
		cell_untrusted(l, f->found);
		tfk_line_printf(l, "</tr>\n");
		if (pic_flush(l, write, user))
			return -1;
	}
	tfk_line_printf(l, "</tbody></table>\n");
	return pic_flush(l, write, user);
}

/* The text of every code found, once, in the catalog's order (as `tracefsck explain` says it). */
static int explanations(struct tfk_line *l, const struct tfk_report *r, tfk_write_fn write, void *user)
{
	size_t n;
	const struct tfk_fault *cat = tfk_catalog(&n);
	tfk_line_printf(l, "<h2>Codes</h2>\n");
	for (size_t c = 0; c < n; c++) {
		bool found = false;
		for (size_t i = 0; i < r->count && !found; i++)
			found = r->findings[i].fault == &cat[c];
		if (!found)
			continue;
		const struct tfk_fault *f = &cat[c];
		tfk_line_printf(l, "<div class=\"explain\" id=\"explain-%s\"><h3>%s (%s)</h3><p><b>", f->id, f->id,
				tfk_severity_name(f->severity));
		pic_xml(l, f->summary);
		tfk_line_printf(l, "</b></p><p>");
		pic_xml(l, f->help);
		tfk_line_printf(l, "</p><p>Repair: %s</p>", tfk_repair_action_name(f->repair));
		size_t nh;
		const struct tfk_hazard *h = tfk_fault_hazards(f, &nh);
		if (nh) {
			tfk_line_printf(l, "<p>Reader hazards (each reproduced by an oracle test):</p><ul>");
			for (size_t k = 0; k < nh; k++) {
				tfk_line_printf(l, "<li>%s %s", h[k].reader, h[k].min_version);
				if (strcmp(h[k].min_version, h[k].max_version) != 0)
					tfk_line_printf(l, "..%s", h[k].max_version);
				tfk_line_printf(l, ": %s", tfk_hazard_effect_name(h[k].effect));
				if (h[k].signal_name)
					tfk_line_printf(l, " (%s)", h[k].signal_name);
				if (h[k].condition) {
					tfk_line_printf(l, ", when ");
					pic_xml(l, h[k].condition);
				}
				tfk_line_printf(l, "</li>");
			}
			tfk_line_printf(l, "</ul>");
		}
		tfk_line_printf(l, "</div>\n");
		if (pic_flush(l, write, user))
			return -1;
	}
	return 0;
}

int pic_html(const struct tfk_picture *p, const struct tfk_report *r, const char *name, tfk_write_fn write, void *user)
{
	TFK_LINE(l);
	tfk_line_reset(&l);
	tfk_line_printf(&l, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"/><title>");
	pic_xml_untrusted(&l, name);
	tfk_line_printf(&l, " - tracefsck</title><style>body{font-family:sans-serif;margin:16px}"
			    "table{border-collapse:collapse;font-size:13px}td,th{border:1px solid #ccc;padding:2px 6px;text-align:left}"
			    "th{background:#eee;cursor:pointer}tr.error td{background:#fdecea}tr.warning td{background:#fff4e5}"
			    ".explain{border-left:3px solid #1e88e5;padding-left:8px;margin:8px 0}"
			    ".explain:target{background:#fff8c4}</style></head><body>\n<h1>");
	pic_xml_untrusted(&l, name);
	tfk_line_printf(&l, "</h1>\n<p>%s%s: %s, %" PRIu64 " errors, %" PRIu64 " warnings, %" PRIu64 " notes, %" PRIu64
			    " events.</p>\n",
			r->stats.format ? r->stats.format : "", r->stats.format ? "" : "unknown format",
			tfk_verdict_name(tfk_report_verdict(r)), r->by_severity[TFK_SEV_ERROR], r->by_severity[TFK_SEV_WARNING],
			r->by_severity[TFK_SEV_NOTE], r->stats.events);
	if (pic_flush(&l, write, user) || pic_svg(p, r, name, write, user))
		return -1;
	if (units_table(&l, p, write, user) || findings_table(&l, p, r, write, user) || explanations(&l, r, write, user))
		return -1;
	tfk_line_printf(&l, "%s</body></html>\n", script);
	return pic_flush(&l, write, user);
}
