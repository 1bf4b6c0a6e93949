/* SPDX-License-Identifier: MIT */
/*
 * A picture of a trace and its damage (tracefsck describe --svg / --html): the file's bytes as
 * a band coloured by what the check made of them, the findings marked where they lie, and per
 * CPU a timeline of event density with the stretches where data was lost. It is drawn from the
 * observer stream and the report alone, so it works for every format; its size does not grow
 * with the file (fixed numbers of pixel buckets, marks grouped per bucket).
 */
#ifndef TRACEFSCK_PICTURE_H
#define TRACEFSCK_PICTURE_H

#include <stdbool.h>

#include "tracefsck/check.h"
#include "tracefsck/observer.h"
#include "tracefsck/sink.h"

#ifdef __cplusplus
extern "C" {
#endif

struct tfk_picture;

/* A picture to fill; NULL when out of memory. Its memory is bounded, whatever the file. */
struct tfk_picture *tfk_picture_new(void);
void tfk_picture_free(struct tfk_picture *picture);

/* The observer that fills picture while a check runs (pass it to tfk_check_*_observed). */
struct tfk_observer tfk_picture_observer(struct tfk_picture *picture);

/* The picture of the checked file: an SVG document, or a self-contained HTML page holding it. */
int tfk_sink_picture(const struct tfk_picture *picture, const struct tfk_report *report, const char *name, bool html,
		     tfk_write_fn write, void *user);

#ifdef __cplusplus
}
#endif
#endif
