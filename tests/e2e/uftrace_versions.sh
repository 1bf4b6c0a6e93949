#!/bin/sh
# SPDX-License-Identifier: MIT
# uftrace data directories recorded with uftrace 0.14, 0.16, 0.17 and 0.19 (tests/data/uftrace,
# one README row each: the command, that version's `uftrace replay | wc -l` and its task
# records). Each checks clean (exit 0, no finding at all) and walks exactly the records the
# README gives. Then a real uftrace is the oracle:
#   - ORACLE given (the newest uftrace built, from TFK_UFTRACE_NEW: see tests/CMakeLists.txt):
#     its `uftrace dump` prints as many task records as tracefsck walks on every directory, its
#     replay as many lines as the README for the rows of its own version; and damaged copies of
#     the 0.19 recordings (a bad record magic right after a record with arguments, max_stack
#     lowered below the recorded depth, a flipped endian byte, the symbol file cut in a line)
#     are repaired into copies it replays (exit 0) with exactly the records repair kept.
#     Skipped (77) when that uftrace is not installed.
#   - no ORACLE: `uftrace` on PATH (Debian 12's 0.13) dumps as many records as tracefsck walks
#     on every directory it can read; the ones it refuses (argument format 'o' of 0.16, the
#     variable watch point event of 0.17: features it does not know) are listed, not compared.
# usage: uftrace_versions.sh TRACEFSCK DATA_DIR WORK_DIR [newest:[ORACLE]]
# ("newest:" alone takes ORACLE from the environment variable TFK_UFTRACE_NEW)
set -u
wrap=${TFK_WRAP:-}
bin=$1 data=$2 work=$3 oracle=
case "${4:-}" in
newest:*)
	oracle=${4#newest:}
	[ -n "$oracle" ] || oracle=${TFK_UFTRACE_NEW:-}
	[ -n "$oracle" ] || { echo "no newest uftrace given (TFK_UFTRACE_NEW): skipped"; exit 77; } ;;
esac
readme=$data/README.md
[ -f "$readme" ] || { echo "no $readme"; exit 1; }
if [ -n "$oracle" ]; then
	[ -x "$oracle" ] || { echo "the newest uftrace ($oracle) is not installed: skipped"; exit 77; }
	U=$oracle
else
	U=$(command -v uftrace) || { echo "uftrace is not installed: skipped"; exit 77; }
fi
over=$("$U" --version 2>/dev/null | sed -n 's/^uftrace v\([0-9][0-9.]*\).*/\1/p')
echo "oracle: $U (uftrace $over)"
rm -rf "$work" && mkdir -p "$work" || exit 1
fail=0 ran=0

dump_records() { "$U" dump -d "$1" 2>/dev/null | grep -c ' depth: '; }
events_of() { printf '%s\n' "$1" | grep '"type":"summary"' | sed 's/.*"events":\([0-9]*\).*/\1/'; }

# | vV/NAME.uftrace.data | uftrace V | `command` | replay lines | dump records |
rows=$(grep '^| v[0-9]' "$readme")
[ -n "$rows" ] || { echo "FAIL: no rows in $readme"; exit 1; }
while IFS='|' read -r _ dir writer _ replay records _; do
	dir=$(echo $dir) writer=$(echo $writer) replay=$(echo $replay) records=$(echo $records)
	d=$data/$dir
	[ -d "$d" ] || { echo "FAIL: $dir: not in $data"; fail=1; continue; }
	ran=$((ran + 1))
	out=$($wrap "$bin" check --json "$d"); rc=$?
	events=$(events_of "$out")
	findings=$(printf '%s\n' "$out" | grep -c '"type":"finding"')
	if [ "$rc" != 0 ] || [ "$findings" != 0 ] || [ "$events" != "$records" ]; then
		echo "FAIL: $dir ($writer): exit $rc, $findings findings, $events records walked, README says $records"
		printf '%s\n' "$out" | grep '"type":"finding"' | head -n 3; fail=1; continue
	fi
	"$U" replay -d "$d" >/dev/null 2>&1; urc=$?
	theirs=$(dump_records "$d")
	if [ "$records" -gt 0 ] && [ "$urc" != 0 ] && [ -z "$oracle" ]; then
		echo "ok: $dir ($writer): clean, $events records; uftrace $over refuses it (exit $urc)"
		continue
	fi
	if [ "$theirs" != "$events" ]; then
		echo "FAIL: $dir: $events records walked, uftrace $over dump prints $theirs"; fail=1; continue
	fi
	if [ -n "$oracle" ] && [ "$writer" = "uftrace $over" ]; then
		lines=$("$U" replay -d "$d" 2>/dev/null | wc -l)
		if [ "$lines" != "$replay" ]; then
			echo "FAIL: $dir: uftrace $over replay prints $lines lines, README says $replay"; fail=1; continue
		fi
	fi
	echo "ok: $dir ($writer): clean, $events records, as uftrace $over dump"
done <<ROWS
$rows
ROWS
[ "$ran" -gt 0 ] || { echo "FAIL: no directory checked"; exit 1; }
[ -n "$oracle" ] || exit $fail

# Damaged copies of the newest recordings, repaired for the newest reader.
# damage NAME DIR: apply the damage NAME to the copy DIR of a recording
damage() {
	case "$1" in
	after-args)
		# the record right after the first one with arguments (its magic set to 0)
		python3 - "$2" <<'PY' || return 1
import os, struct, sys
d = sys.argv[1]
for n in sorted(os.listdir(d)):
    if not n[:-4].isdigit() or not n.endswith('.dat'):
        continue
    b = bytearray(open(os.path.join(d, n), 'rb').read())
    pos = 0
    while pos + 16 <= len(b):
        t, w = struct.unpack_from('<QQ', b, pos)
        if (w >> 2) & 1 and w & 3 in (0, 1):
            q = pos + 16
            while q + 16 <= len(b):
                t2, w2 = struct.unpack_from('<QQ', b, q)
                if (w2 >> 3) & 7 == 5 and t <= t2 < t + (1 << 40):
                    break
                q += 8
            if q + 16 > len(b):
                break
            b[q + 8] &= 0xc7
            open(os.path.join(d, n), 'wb').write(b)
            sys.exit(0)
        pos += 16
sys.exit(1)
PY
		;;
	max-stack) printf '\002\000' | dd of="$2/info" bs=1 seek=32 conv=notrunc status=none ;;
	endian) printf '\002' | dd of="$2/info" bs=1 seek=14 conv=notrunc status=none ;;
	sym-cut)
		f="$2/prog.sym"; n=$(grep -b -a ' T add$' "$f" | cut -d: -f1)
		[ -n "$n" ] && truncate -s $((n + 21)) "$f" ;;
	esac
}
for name in args plain trigger; do
	src=$data/v$over/$name.uftrace.data
	[ -d "$src" ] || continue
	for dmg in after-args max-stack endian sym-cut; do
		[ "$dmg" = after-args ] && [ "$name" != args ] && continue
		[ "$dmg" = sym-cut ] && [ "$name" != args ] && continue
		c="$work/$name.$dmg" o="$work/$name.$dmg.out"
		rm -rf "$c" "$o" && mkdir -p "$c" && cp -R "$src/." "$c/" && chmod -R u+w "$c"
		damage "$dmg" "$c" || { echo "FAIL: $name $dmg: could not damage"; fail=1; continue; }
		rep=$($wrap "$bin" repair --json "$c" -o "$o"); rrc=$?
		if [ "$rrc" != 1 ]; then
			echo "FAIL: $name $dmg: repair exit $rrc"; printf '%s\n' "$rep" | tail -n 3; fail=1; continue
		fi
		kept=$(printf '%s\n' "$rep" | grep '"type":"salvage_member"' | grep '"member":"[0-9]*\.dat"' |
			sed 's/.*"kept":\([0-9]*\).*/\1/' | awk '{ s += $1 } END { print s + 0 }')
		"$U" replay -d "$o" >/dev/null 2>"$o.err"; urc=$?
		theirs=$(dump_records "$o")
		if [ "$urc" != 0 ] || grep -q 'ERROR\|missing argument' "$o.err" || [ "$theirs" != "$kept" ]; then
			echo "FAIL: $name $dmg: uftrace $over replay exit $urc, dump $theirs records, repair kept $kept"
			head -n 3 "$o.err"; fail=1; continue
		fi
		echo "ok: $name $dmg: repaired, uftrace $over replays it, $kept records as its dump"
	done
done
exit $fail
