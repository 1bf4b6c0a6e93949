/* SPDX-License-Identifier: MIT */
/* Umbrella header for the tracefsck library. */
#ifndef TRACEFSCK_H
#define TRACEFSCK_H

#include "tracefsck/catalog.h"
#include "tracefsck/check.h"
#include "tracefsck/finding.h"
#include "tracefsck/formats/perf.h"
#include "tracefsck/limits.h"
#include "tracefsck/observer.h"
#include "tracefsck/policy.h"
#include "tracefsck/repair.h"
#include "tracefsck/sink.h"

#define TRACEFSCK_VERSION "0.1.0"

#endif
