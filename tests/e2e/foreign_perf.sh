#!/bin/sh
# SPDX-License-Identifier: MIT
# Every perf.data written elsewhere (../shared/foreign/perf, other machines, versions and writers)
# against the expectation its README row gives:
#   pristine: check exits 0 with no error, repair finds nothing to do, and the samples walked are
#             the lines `perf script -G --no-itrace` prints, where this perf reads the file;
#   broken:   reported (check exits 4 or 8), and neither check nor repair crashes or hangs;
#   dialect:  recognised (a perf.dialect.* note, no error; exit 0, or 8 when checked in part).
# Prints a table of the classes: files, and how many came out clean, reported, or as a dialect.
# usage: foreign_perf.sh TRACEFSCK FOREIGN_DIR WORK_DIR   (exit 77: no foreign folder)
set -u
wrap=${TFK_WRAP:-}
bin=$1 foreign=$2 work=$3
[ -d "$foreign/perf" ] && [ -f "$foreign/README.md" ] || { echo "skip: no $foreign/perf"; exit 77; }
command -v xz >/dev/null 2>&1 || { echo "skip: xz is not installed"; exit 77; }
rm -rf "$work" && mkdir -p "$work" || exit 1
fail=0 files=0
bad() { echo "FAIL: $*"; fail=1; }
have_perf=0
command -v perf >/dev/null 2>&1 && have_perf=1

# The README's perf table: | file | repo | commit | path | licence | size | what | expectation |
expectation() {
	awk -F'|' -v n="$1" '/^## perf\//{in_perf=1; next} /^## /{in_perf=0}
		in_perf { f=$2; gsub(/ /, "", f); if (f == n) { print $9; exit } }' "$foreign/README.md"
}

# counts per class: files, clean, reported, dialect, perf-compared
for c in pristine broken dialect; do eval "n_$c=0 clean_$c=0 reported_$c=0 dialect_$c=0"; done
compared=0

for f in "$foreign"/perf/*.xz; do
	[ -f "$f" ] || continue
	name=$(basename "$f" .xz)
	exp=$(expectation "$name.xz")
	case "$exp" in
	*broken*) class=broken ;;
	*dialect*) class=dialect ;;
	*pristine*) class=pristine ;;
	*) bad "$name: no expectation in the README"; continue ;;
	esac
	files=$((files + 1))
	eval "n_$class=\$((n_$class + 1))"
	in="$work/$name"
	xz -dc "$f" > "$in" || { bad "$name: cannot decompress"; continue; }
	out=$(timeout 60 $wrap "$bin" check --json "$in"); rc=$?
	if [ "$rc" -ge 124 ]; then
		bad "$name ($class): check exit $rc (a crash, a hang or an internal error)"; continue
	fi
	summary=$(printf '%s\n' "$out" | grep '"type":"summary"')
	errors=$(printf '%s' "$summary" | sed -n 's/.*"errors":\([0-9]*\).*/\1/p')
	events=$(printf '%s' "$summary" | sed -n 's/.*"events":\([0-9]*\).*/\1/p')
	dialect=$(printf '%s\n' "$out" | grep -c '"code":"perf\.dialect\.')
	if [ "$rc" = 0 ] && [ "$errors" = 0 ] && [ "$dialect" = 0 ]; then
		eval "clean_$class=\$((clean_$class + 1))"
	elif [ "$dialect" != 0 ] && [ "$errors" = 0 ]; then
		eval "dialect_$class=\$((dialect_$class + 1))"
	else
		eval "reported_$class=\$((reported_$class + 1))"
	fi
	timeout 60 $wrap "$bin" repair --dry-run "$in" > "$work/$name.repair" 2>&1; rrc=$?
	if [ "$rrc" -ge 16 ]; then
		bad "$name ($class): repair exit $rrc"; tail -3 "$work/$name.repair"; continue
	fi
	case $class in
	pristine)
		if [ "$rc" != 0 ] || [ "$errors" != 0 ] || [ "$dialect" != 0 ]; then
			bad "$name: pristine, but check exits $rc with $errors errors"; printf '%s\n' "$out" | head -5; continue
		fi
		if [ "$rrc" != 0 ] || ! grep -q "nothing to repair" "$work/$name.repair"; then
			bad "$name: pristine, but repair exits $rrc"; tail -3 "$work/$name.repair"; continue
		fi
		if [ $have_perf = 1 ] && perf script -G --no-itrace -i "$in" > "$work/$name.script" 2>/dev/null; then
			ps=$(grep -c . "$work/$name.script")
			compared=$((compared + 1))
			[ "$ps" = "$events" ] || bad "$name: $events samples walked, perf script prints $ps"
		fi
		echo "ok: $name: pristine, clean, $events samples" ;;
	broken)
		if [ "$rc" != 4 ] && [ "$rc" != 8 ]; then
			bad "$name: broken, but check exits $rc"; printf '%s\n' "$out" | head -5; continue
		fi
		echo "ok: $name: broken, reported (exit $rc, repair exit $rrc)" ;;
	dialect)
		if [ "$dialect" = 0 ] || [ "$errors" != 0 ] || { [ "$rc" != 0 ] && [ "$rc" != 8 ]; }; then
			bad "$name: a dialect, but check exits $rc with $errors errors and $dialect dialect notes"
			printf '%s\n' "$out" | head -5; continue
		fi
		[ "$rrc" = 0 ] || bad "$name: a dialect without error, but repair exits $rrc"
		echo "ok: $name: dialect recognised ($(printf '%s\n' "$out" | sed -n 's/.*"code":"\(perf\.dialect\.[a-z-]*\)".*/\1/p' | head -1), exit $rc)" ;;
	esac
	rm -f "$in" "$work/$name.script"
done

[ "$files" -gt 0 ] || { bad "no file in $foreign/perf"; exit 1; }
echo
echo "| class | files | clean | reported | dialect |"
echo "|---|---|---|---|---|"
for c in pristine broken dialect; do
	eval "echo \"| $c | \$n_$c | \$clean_$c | \$reported_$c | \$dialect_$c |\""
done
echo "$files files; $compared sample counts compared with perf script"
exit $fail
