#!/bin/sh
# SPDX-License-Identifier: MIT
# tracefsck(1) against the program it documents: it renders without groff warnings; it has the
# sections a manual page needs (EXAMPLES, ENVIRONMENT, FILES, EXIT STATUS per command among
# them); every command and every long option the program's own help lists is documented; every
# environment variable the sources read is in ENVIRONMENT.
# usage: manpage.sh TRACEFSCK SOURCE_DIR WORK_DIR
set -u
bin=$1 src=$2 work=$3
man=$src/docs/tracefsck.1
rm -rf "$work" && mkdir -p "$work" || exit 1
fail=0
if command -v groff >/dev/null 2>&1; then
	LC_ALL=C groff -man -ww -z "$man" 2> "$work/groff.err"
	if [ -s "$work/groff.err" ]; then echo "FAIL: groff warns:"; head -n 5 "$work/groff.err"; fail=1; else echo "ok: renders without warnings"; fi
fi
# The text of one section: from its .SH line to the next.
section() { awk -v s=".SH $1" '$0 == s || $0 == s "\"" { on = 1; next } /^\.SH / { on = 0 } on' "$man"; }
for s in NAME SYNOPSIS DESCRIPTION COMMANDS OPTIONS "EXIT STATUS" EXAMPLES ENVIRONMENT FILES "SEE ALSO"; do
	if grep -qx "\.SH \"*$s\"*" "$man"; then echo "ok: section $s"; else echo "FAIL: no section $s"; fail=1; fi
done
# man's own escapes undone: \- is -, \fB..\fR go.
plain() { sed -e 's/\\-/-/g' -e 's/\\f[BIRP]//g' -e 's/\\(em/--/g'; }
commands=$("$bin" help | sed -n 's/^\(usage:\)\{0,1\} *tracefsck \([a-z][a-z]*\).*/\2/p' | sort -u)
[ -n "$commands" ] || { echo "FAIL: tracefsck help lists no command"; exit 1; }
section "EXIT STATUS" | plain > "$work/exit"
for c in $commands; do
	grep -qw -- "$c" "$work/exit" && echo "ok: exit status of $c" || { echo "FAIL: EXIT STATUS says nothing of $c"; fail=1; }
	"$bin" help "$c" | grep -o -- '--[a-z][a-z-]*' | sort -u > "$work/opts.$c"
	while read -r o; do
		plain < "$man" | grep -q -- "$o" || { echo "FAIL: $c $o is not in the manual page"; fail=1; }
	done < "$work/opts.$c"
done
section ENVIRONMENT | plain > "$work/env"
for v in $(grep -rho 'getenv("[A-Z_]*")' "$src/cli" "$src/validate" "$src/repair" | sed 's/getenv("\(.*\)")/\1/' | sort -u); do
	grep -qw "$v" "$work/env" && echo "ok: ENVIRONMENT names $v" || { echo "FAIL: $v is read but not in ENVIRONMENT"; fail=1; }
done
exit $fail
