#!/bin/sh
# SPDX-License-Identifier: MIT
# The plug-in boundary: a format's folder (validate/formats/<fmt>/, repair/<fmt>/, scrub/<fmt>/) includes its
# own headers, the core's and the shared machinery's (validate/shared/), never another format's:
# no "../<other>/..." that lands in another format's folder, no "formats/<other>/..." (its
# private model header included). The cores of repair/ and scrub/ (their top folders) include
# no format's folder at all. Prints every crossing as FILE:LINE: INCLUDE and fails when there is one.
set -u
cd "$(dirname "$0")/.."
root=$(pwd)
formats=$(grep -E '^[a-z0-9]+$' validate/formats/formats.list)
bad=0

# check FILE OWNER: OWNER is the format whose folder FILE is in ("" for repair's core).
check() {
	file=$1 owner=$2 dir=$(dirname "$1")
	grep -n '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' "$file" |
	while IFS= read -r line; do
		n=${line%%:*}
		inc=$(printf '%s\n' "$line" | sed 's/^[0-9]*:[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/')
		for other in $formats; do
			[ "$other" = "$owner" ] && continue
			hit=""
			case "$inc" in
			formats/"$other"/* | */formats/"$other"/*) hit=1 ;;
			"$other"/*) hit=1 ;; # repair/ and scrub/ put their own folder on the include path
			../*)
				target=$(realpath -m "$dir/$inc")
				case "$target" in
				"$root"/validate/formats/"$other"/* | "$root"/repair/"$other"/* | "$root"/scrub/"$other"/*) hit=1 ;;
				esac
				;;
			esac
			if [ -n "$hit" ]; then
				echo "$file:$n: #include \"$inc\" reaches into $other's folder"
				echo x
			fi
		done
	done
}

out=$(
	for f in $formats; do
		for d in validate/formats/"$f" repair/"$f" scrub/"$f"; do
			[ -d "$d" ] || continue
			find "$d" -name '*.[ch]' | sort | while read -r file; do check "$file" "$f"; done
		done
	done
	find repair scrub -maxdepth 1 -name '*.[ch]' | sort | while read -r file; do check "$file" ""; done
)
printf '%s\n' "$out" | grep -v '^x$' | grep -v '^$'
if printf '%s\n' "$out" | grep -q '^x$'; then
	echo "check-boundary: a format's code reaches into another format's folder (see above)" >&2
	exit 1
fi
echo "check-boundary: no format includes another's folder"
