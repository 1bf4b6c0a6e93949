#!/bin/sh
# SPDX-License-Identifier: MIT
# Shell completion (tracefsck completion bash|zsh) offers every command and every option the
# usage text lists, every option the parsers in cli/ accept, the values they take (gates,
# shells, fault codes and families, CODE=LEVEL) and files where files go; what the build
# generated for cmake --install is what the command prints. zsh is driven in a pseudo-terminal
# through its own completion system when it is installed.
# usage: completion.sh TRACEFSCK SOURCE_DIR BUILD_DIR WORK_DIR
set -u
# TFK_WRAP (e.g. valgrind) runs in front of every tracefsck invocation.
wrap=${TFK_WRAP:-}
bin=$1 src=$2 build=$3 work=$4
rm -rf "$work" && mkdir -p "$work/files/traces" || exit 1
fail=0
ok() { echo "ok: $*"; }
bad() { echo "FAIL: $*"; fail=1; }

$wrap "$bin" completion bash > "$work/tracefsck.bash" || { bad "tracefsck completion bash"; exit 1; }
$wrap "$bin" completion zsh > "$work/_tracefsck" || { bad "tracefsck completion zsh"; exit 1; }
$wrap "$bin" completion fish > /dev/null 2>&1
[ $? = 16 ] && ok "an unknown shell is a usage error" || bad "completion fish did not exit 16"
for f in tracefsck _tracefsck; do
	mine=$work/tracefsck.bash; [ "$f" = _tracefsck ] && mine=$work/_tracefsck
	cmp -s "$build/completion/$f" "$mine" && ok "build/completion/$f is what the command prints" ||
		bad "build/completion/$f differs from the command's output"
	grep -q 'SPDX-License-Identifier: MIT' "$mine" || bad "$f lacks its SPDX line"
done
bash -n "$work/tracefsck.bash" || bad "the bash script does not parse"

# What the usage text lists: "command C", "C option O", "C value O V" (O=V1|V2), "C operand V" (V1|V2).
"$bin" --help 2>&1 | awk '
/^$/ { exit }
{
	line = $0
	if (match(line, /tracefsck [-a-z]+/)) {
		cmd = substr(line, RSTART + 10, RLENGTH - 10); line = substr(line, RSTART + RLENGTH)
		if (cmd ~ /^-/) { print "tracefsck option " cmd; next }
		print "command " cmd
	}
	rest = ""
	while (match(line, /--?[a-zA-Z][-a-zA-Z]*(=[a-z]+(\|[a-z]+)*)?/)) {
		tok = substr(line, RSTART, RLENGTH); rest = rest substr(line, 1, RSTART - 1) " "; line = substr(line, RSTART + RLENGTH)
		n = index(tok, "=")
		if (n) { k = split(substr(tok, n + 1), vals, "|"); tok = substr(tok, 1, n - 1); for (i = 1; i <= k; i++) print cmd " value " tok " " vals[i] }
		print cmd " option " tok
	}
	rest = rest line
	while (match(rest, /[a-z]+(\|[a-z]+)+/)) {
		k = split(substr(rest, RSTART, RLENGTH), vals, "|"); rest = substr(rest, RSTART + RLENGTH)
		for (i = 1; i <= k; i++) print cmd " operand " vals[i]
	}
}' > "$work/usage.txt"
[ "$(grep -c '^command ' "$work/usage.txt")" -ge 6 ] || { bad "only $(grep -c '^command ' "$work/usage.txt") commands in the usage text"; cat "$work/usage.txt"; }
[ "$(grep -c ' option ' "$work/usage.txt")" -ge 15 ] || bad "only $(grep -c ' option ' "$work/usage.txt") options in the usage text"

# The parsers: every option literal in cli/<file>.c, for the command that file parses.
for pair in main.c:tracefsck cmd_check.c:check cmd_repair.c:repair cmd_describe.c:describe cmd_catalog.c:problems; do
	file=${pair%%:*} cmd=${pair#*:}
	grep -oE '"--?[a-zA-Z][-a-zA-Z]*"' "$src/cli/$file" | tr -d '"' | sort -u | sed "s/^/$cmd option /"
done > "$work/parsers.txt"
grep -q '^check option --jobs$' "$work/parsers.txt" && grep -q '^repair option -o$' "$work/parsers.txt" ||
	bad "the scan of cli/*.c found no --jobs for check or no -o for repair"

# Every expectation as a query: "offers|lacks<TAB>LINE<TAB>WORD" (complete LINE, cursor at its end).
cat "$work/usage.txt" "$work/parsers.txt" | sort -u | awk -v OFS='\t' '
$1 == "command" { print "offers", "tracefsck ", $2; print "offers", "tracefsck " substr($2, 1, 3), $2; next }
$2 == "option" && $1 == "tracefsck" { print "offers", "tracefsck ", $3; next }
$2 == "option" { print "offers", "tracefsck " $1 " -", $3; next }
$2 == "value" { print "offers", "tracefsck " $1 " " $3 "=", $4; print "offers", "tracefsck " $1 " " $3 " ", $4; next }
$2 == "operand" { print "offers", "tracefsck " $1 " ", $3 }' > "$work/queries"
echo "$(wc -l < "$work/queries") queries from the usage text and the parsers"
"$bin" problems | awk '{ print $1 }' > "$work/codes.txt"
grep -q '^tracedat\.page\.bad-commit$' "$work/codes.txt" || bad "tracefsck problems does not list tracedat.page.bad-commit"
# explain offers exactly the catalog's codes (not families); the gates take families too.
grep '^core\.input\.' "$work/codes.txt" | sed 's/^/offers\ttracefsck explain core.input.\t/' >> "$work/queries"
printf '%s\t%s\t%s\n' \
	lacks "tracefsck explain tracedat.page." "tracedat.page.*" \
	offers "tracefsck check --disable tracedat.page." "tracedat.page.*" \
	offers "tracefsck check --disable tracedat.page." "tracedat.page.bad-commit" \
	offers "tracefsck check --disable core." "core.*" \
	lacks "tracefsck check --disable core." "core.1234" \
	offers "tracefsck check --severity tracedat.page.bad-commit=" "warning" \
	offers "tracefsck check --severity tracedat.page.bad-commit=" "note" \
	offers "tracefsck check --policy gat" "gate.policy" \
	offers "tracefsck check --json traces/" "traces/run 1.dat" \
	offers "tracefsck repair traces/run\\ 1.dat -o rep" "repaired.dat" \
	lacks "tracefsck problems -" "--sarif" \
	lacks "tracefsck repair -" "--sarif" \
	lacks "tracefsck check --threads " "gate.policy" \
	lacks "tracefsck " "--json" >> "$work/queries"
: > "$work/files/core.1234" && : > "$work/files/gate.policy" && : > "$work/files/traces/run 1.dat" && : > "$work/files/repaired.dat"
cut -f2 "$work/queries" | sort -u > "$work/lines"

# judge SHELL: the queries against SHELL's answers ("LINE<TAB>MATCH" rows in $work/SHELL.out).
judge() {
	awk -F'\t' -v sh="$1" '
	FNR == NR { m = $2; gsub(/\\/, "", m); got[$1 "\t" m] = 1; base = m; sub(/.*\//, "", base); got[$1 "\t" base] = 1
		all[$1] = all[$1] " " m; next }
	{
		w = $3; b = w; sub(/.*\//, "", b)
		hit = (($2 "\t" w) in got) || (($2 "\t" b) in got)
		if ($1 == "offers" && !hit) { printf "FAIL: %s: \"%s\" does not offer \"%s\" (offers:%s)\n", sh, $2, w, all[$2]; bad++ }
		if ($1 == "lacks" && hit) { printf "FAIL: %s: \"%s\" offers \"%s\"\n", sh, $2, w; bad++ }
		n++
	}
	END { if (!bad) printf "ok: %s: %d expectations met\n", sh, n; exit bad > 0 }' "$work/$1.out" "$work/queries" || fail=1
}

# bash: the function completes each line as bash would call it (COMP_LINE, COMP_POINT).
(cd "$work/files" && bash -c '. "$1"; while IFS= read -r l; do COMP_LINE=$l COMP_POINT=${#l}; COMPREPLY=(); _tracefsck
	for m in "${COMPREPLY[@]}"; do printf "%s\t%s\n" "$l" "$m"; done; done' sh "$work/tracefsck.bash") < "$work/lines" > "$work/bash.out" 2>&1
judge bash
# with '=' breaking words (bash's default), only what follows the '=' is inserted
printf 'tracefsck check --fail-on=w\n' | (cd "$work/files" && COMP_WORDBREAKS='"'"'"'><=;|&(:' bash -c '. "$1"; read -r l; COMP_LINE=$l COMP_POINT=${#l}
	COMPREPLY=(); _tracefsck; printf "%s\n" "${COMPREPLY[@]}"' sh "$work/tracefsck.bash") > "$work/wb.out"
[ "$(cat "$work/wb.out")" = warning ] && ok "bash: --fail-on=w completes to warning after the '='" || bad "bash: --fail-on=w offered: $(cat "$work/wb.out")"

# zsh: its completion system, driven in a pseudo-terminal, one line after another.
if command -v zsh > /dev/null 2>&1; then
	zsh -n "$work/_tracefsck" || bad "the zsh script does not parse"
	mkdir -p "$work/fpath" && cp "$work/_tracefsck" "$work/fpath/"
	cat > "$work/capture.zsh" <<'EOF'
# capture.zsh FPATH_DIR DIR < LINES: "LINE<TAB>MATCH" for every match zsh's completion offers.
# Every compadd call prints its matches between markers (quoted apart in what is typed, so that
# the terminal's echo of the setup never matches them).
zmodload zsh/zpty
zpty z zsh -f -i
zpty -w z "PS1=''; fpath=($1 \$fpath); autoload -Uz compinit; compinit -u -D; cd ${(q)2}"
zpty -w z 'compadd () { local -a m; builtin compadd -O m "$@"; local x; for x in $m; do print -rn -- "@@""M@@$x"; done; builtin compadd "$@" }'
zpty -w z '_c_wrap () { print -rn -- "@@""BEGIN@@"; zle _c; print -rn -- "@@""DONE@@"; }; zle -C _c complete-word _main_complete; zle -N _c_wrap'
zpty -w z 'bindkey "^X" _c_wrap; bindkey "^U" kill-whole-line; print @@""READY@@'
local out line m
zpty -r z out '*@@READY@@*'
while IFS= read -r line; do
	zpty -n -w z "$line"$'\C-X'
	zpty -r z out '*@@DONE@@*'
	out=${${out#*@@BEGIN@@}%%@@DONE@@*}
	for m in ${(s:@@M@@:)out}; do print -r -- "$line"$'\t'"${m//$'\r'/}"; done
	zpty -n -w z $'\C-U'
done
zpty -d z
EOF
	timeout 120 zsh -f "$work/capture.zsh" "$work/fpath" "$work/files" < "$work/lines" > "$work/zsh.out" 2>&1 ||
		bad "zsh's completion did not answer every line (exit $?)"
	judge zsh
else
	echo "zsh not installed: its completion was not exercised"
fi
[ $fail = 0 ] && echo "ok: completion offers every command, option and value"
exit $fail
