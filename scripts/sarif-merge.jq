# SPDX-License-Identifier: MIT
# The SARIF documents of the shards of one check (tracefsck check --sarif --shard I/N, the same
# options and working directory in every shard) merged into the document one run over all of
# them writes:
#   jq -s -f scripts/sarif-merge.jq shard-*.sarif > tracefsck.sarif
# The first shard's document is the frame (tool, rules, %SRCROOT%); the artifacts of all shards
# are sorted by URI (a folder's order, for names of letters, digits, '.', '-' and '_') and each
# shard's results follow their artifact there, re-indexed; the invocation's exit code is the
# shards' ORed, as the whole's exit status is (jq has no bitwise or: bit by bit).
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
. as $docs
| [ $docs[] | .runs[0] as $r | ($r.artifacts | map(.location.uri)) as $uris
    | ($r.results | map({ owner: owner($uris), result: . })) as $owned
    | range(0; $r.artifacts | length) as $i
    | { artifact: $r.artifacts[$i], results: [ $owned[] | select(.owner == $i) | .result ] } ]
| sort_by(.artifact.location.uri) as $units
| $docs[0]
| .runs[0].artifacts = [ $units[].artifact ]
| .runs[0].results = [ $units | to_entries[] | .key as $k | .value.results[]
	| if .locations[0].physicalLocation.artifactLocation.index != null
	  then .locations[0].physicalLocation.artifactLocation.index = $k else . end ]
| .runs[0].invocations[0].exitCode = reduce ($docs[] | .runs[0].invocations[0].exitCode) as $c (0; bor(.; $c))
| .runs[0].invocations[0].executionSuccessful = all($docs[] | .runs[0].invocations[0].executionSuccessful; .)
| .runs[0].invocations[0].toolExecutionNotifications = [ $docs[] | .runs[0].invocations[0].toolExecutionNotifications[]? ]
