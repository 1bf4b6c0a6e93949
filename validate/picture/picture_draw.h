/* SPDX-License-Identifier: MIT */
/* Drawing helpers the SVG (picture_svg.c) and the HTML page around it (picture_html.c) share. */
#ifndef TFK_PICTURE_DRAW_H
#define TFK_PICTURE_DRAW_H

#include "picture.h"
#include "sinks/sink_common.h"
#include "tracefsck/check.h"

/* Append s XML-escaped (s already sanitised: printable ASCII). */
void pic_xml(struct tfk_line *l, const char *s);
/* Untrusted text (a name, a found text): sanitised, then escaped. */
void pic_xml_untrusted(struct tfk_line *l, const char *s);
int pic_flush(struct tfk_line *l, tfk_write_fn write, void *user);
/* The SVG element of the picture (no XML declaration): what both documents hold. */
int pic_svg(const struct tfk_picture *p, const struct tfk_report *r, const char *name, tfk_write_fn write, void *user);
/* The lane whose unit finding f lies in, or -1. */
int pic_lane_of(const struct tfk_picture *p, const struct tfk_finding *f);
/* The HTML page: the picture, the units' counts, the findings table and the codes' texts. */
int pic_html(const struct tfk_picture *p, const struct tfk_report *r, const char *name, tfk_write_fn write, void *user);

#endif
