# SPDX-License-Identifier: MIT
# Shared by shard.sh and container.sh (sourced): a folder of uploads made from the samples, and
# the merge of shards' outputs as docs/ci.md ("Fleets") tells users to do it.

# make_uploads SAMPLES DIR COUNT: COUNT entries in DIR, each a copy of a sample trace (files and
# trace directories of every format, in turn), every third one cut short, every third after it
# with 64 bytes overwritten in its middle (of its largest file); names NNN-SAMPLE, so the
# folder's order is the sort. One python3 for all: a process per step costs more than the copies.
make_uploads() {
	python3 - "$@" <<-'PY'
		import os, shutil, sys
		src, dst, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
		samples = sorted(os.path.join(src, f, e) for f in os.listdir(src) if os.path.isdir(os.path.join(src, f))
		                 for e in os.listdir(os.path.join(src, f)) if e != "README.md")
		if len(samples) < 2:
		    sys.exit("no samples in " + src)
		os.makedirs(dst, exist_ok=True)
		for i in range(n):
		    s = samples[i % len(samples)]
		    t = os.path.join(dst, "%03d-%s" % (i, os.path.basename(s)))
		    if os.path.isdir(s):
		        shutil.copytree(s, t, symlinks=True)
		        files = [os.path.join(d, f) for d, _, fs in os.walk(t) for f in fs]
		        v = max(sorted(files), key=os.path.getsize)
		    else:
		        shutil.copyfile(s, t)
		        v = t
		    size = os.path.getsize(v)
		    if i % 3 == 1:
		        os.truncate(v, size * 2 // 3)
		    elif i % 3 == 2:
		        with open(v, "r+b") as f:
		            f.seek(size // 2)
		            f.write(b"\xff" * 64)
	PY
}

# merge_jsonl SHARD...: the shards' JSON Lines as one run writes them: concatenated, then each
# file's lines (kept in their order) sorted by file name, as a folder's units are.
merge_jsonl() { cat "$@" | jq -c -s 'sort_by(.file)[]'; }

# merge_status STATUS...: the whole's exit status: the shards' ORed (each bit is a kind of outcome).
merge_status() { _m=0; for _c in "$@"; do _m=$((_m | _c)); done; echo $_m; }
