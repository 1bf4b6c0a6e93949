#!/bin/sh
# SPDX-License-Identifier: MIT
# The entry of the pre-commit hook tracefsck-check (.pre-commit-hooks.yaml): tracefsck check over
# what pre-commit passes (the hook's args, then the staged files its pattern matched), with
# --whole-traces: a file inside a trace directory (uftrace, LTTng/CTF, LTTng 0.x, perf.data
# directories) stands for its directory, checked once, whole; a staged file that is no trace is a
# note, not a failure. TRACEFSCK names the tracefsck to run (default: the one on PATH). Exit
# status: check's.
set -u
bin=${TRACEFSCK:-tracefsck}
command -v "$bin" > /dev/null 2>&1 ||
	{ echo "tracefsck-check: '$bin' not found: install tracefsck (its README, \"Install\") or set TRACEFSCK" >&2; exit 1; }
exec "$bin" check --whole-traces "$@"
