# SPDX-License-Identifier: MIT
# Shared by shard.sh and container.sh (sourced): a folder of uploads made from the samples, and
# the merge of shards' outputs as docs/ci.md ("Fleets") tells users to do it.

# make_uploads SAMPLES DIR COUNT: COUNT entries in DIR, each a copy of a sample trace (files and
# trace directories of every format, in turn), every third one cut short, every third after it
# with 64 bytes overwritten in its middle; names NNN-SAMPLE, so the folder's order is the sort.
make_uploads() {
	_s=$1 _d=$2 _n=$3 _i=0
	mkdir -p "$_d" || return 1
	set -- "$_s"/*/*
	[ $# -gt 1 ] || { echo "no samples in $_s"; return 1; }
	while [ $_i -lt "$_n" ]; do
		for _f in "$_s"/*/*; do
			[ $_i -lt "$_n" ] || break
			case $_f in */README.md) continue ;; esac
			_t=$_d/$(printf %03d $_i)-$(basename "$_f")
			cp -R "$_f" "$_t" || return 1
			# the largest file of the copy (itself when it is a file) is the one damaged
			_v=$(find "$_t" -type f -printf '%s %p\n' | sort -n | tail -n 1 | cut -d' ' -f2-)
			_z=$(stat -c %s "$_v")
			case $((_i % 3)) in
			1) truncate -s $((_z * 2 / 3)) "$_v" ;;
			2) printf '%064d' 0 | tr 0 '\377' | dd of="$_v" bs=1 seek=$((_z / 2)) conv=notrunc status=none ;;
			esac
			_i=$((_i + 1))
		done
	done
}

# merge_jsonl SHARD...: the shards' JSON Lines as one run writes them: concatenated, then each
# file's lines (kept in their order) sorted by file name, as a folder's units are.
merge_jsonl() { cat "$@" | jq -c -s 'sort_by(.file)[]'; }

# merge_status STATUS...: the whole's exit status: the shards' ORed (each bit is a kind of outcome).
merge_status() { _m=0; for _c in "$@"; do _m=$((_m | _c)); done; echo $_m; }
