# SPDX-License-Identifier: MIT
# The SARIF documents of the shards of one check (tracefsck check --sarif --shard I/N, the same
# options and working directory in every shard) merged into the document one run over all of
# them writes:
#   jq -s -f scripts/sarif-merge.jq shard-*.sarif > tracefsck.sarif
# The first shard's document is the frame (tool, %SRCROOT%). What depends on the whole run is
# made again from the shards': the artifacts of all shards sorted by URI (a folder's order, for
# names of letters, digits, '.', '-' and '_'), each shard's results and tool notifications after
# their artifact there, re-indexed; a rule's "security" tag when any shard's findings of it
# trigger a reader hazard, its security-severity the highest; the exit code the shards' ORed
# (as the whole's exit status is; jq has no bitwise or: bit by bit), and executionSuccessful
# from it as tracefsck decides it (no 8, 16 or 128 bit).
def bits: [range(0; 8) as $i | ((. / pow(2; $i)) | floor) % 2];
def bor($a; $b): [$a, $b] | map(bits) | transpose | to_entries
	| map(if (.value | max) == 1 then pow(2; .key) else 0 end) | add;
# The artifact (its index in $uris) a result is about: the one it names by index or, for a file
# inside a trace directory, the artifact whose URI is the longest leading part of its own.
def owner($uris): .locations[0].physicalLocation.artifactLocation as $a
	| if $a.index != null then $a.index
	  else ($a.uri | split("/")) as $p
	  | first(range($p | length; 0; -1) as $k | ($p[:$k] | join("/")) as $u | $uris | index($u) // empty)
	  end;
# Items (results or notifications) of every shard, each after its artifact's new place, in order.
def placed($docs; $newk; items):
	[ $docs | to_entries[] | .key as $d | .value.runs[0] as $r | ($r.artifacts | map(.location.uri)) as $uris
	  | [$r | items] | to_entries[] | { k: $newk["\($d)/\(.value | owner($uris))"], n: .key, item: .value } ]
	| sort_by([.k, .n])
	| map(.k as $k | .item | if .locations[0].physicalLocation.artifactLocation.index != null
		then .locations[0].physicalLocation.artifactLocation.index = $k else . end);
. as $docs
| [ $docs | to_entries[] | .key as $d | .value.runs[0].artifacts | to_entries[]
    | { d: $d, i: .key, uri: .value.location.uri, artifact: .value } ]
| sort_by(.uri) | to_entries | map(.value + { k: .key }) as $units
| (reduce $units[] as $u ({}; .["\($u.d)/\($u.i)"] = $u.k)) as $newk
| (reduce ($docs[] | .runs[0].invocations[0].exitCode) as $c (0; bor(.; $c))) as $exit
| $docs[0]
| .runs[0].tool.driver.rules |= (to_entries | map(.key as $i | [ $docs[] | .runs[0].tool.driver.rules[$i] ] as $r | .value
	| .properties.tags = ([ .properties.tags[] | select(. != "security") ]
		+ (if any($r[]; .properties.tags | index("security") != null) then ["security"] else [] end))
	| ([ $r[] | .properties["security-severity"] // empty ] | max) as $sev
	| if $sev then .properties["security-severity"] = $sev else . end))
| .runs[0].artifacts = [ $units[].artifact ]
| .runs[0].results = placed($docs; $newk; .results[])
| .runs[0].invocations[0].exitCode = $exit
| .runs[0].invocations[0].executionSuccessful = (bor($exit; 0) as $e | [8, 16, 128] | all(. as $b | (($e / $b) | floor) % 2 == 0))
| .runs[0].invocations[0].toolExecutionNotifications = placed($docs; $newk; .invocations[0].toolExecutionNotifications[]?)
