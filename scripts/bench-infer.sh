#!/usr/bin/env bash
# bench-infer.sh measures `ladder infer` on automata whose hand-written
# invariants are removed (on a temporary copy, with an empty cache): the
# ticket lock of docs/examples/mutex, TMS2, NOrecAtomicCommitValidate,
# TPL, DSTM and TL2. It prints one JSON line per automaton with the candidates
# after each phase (generated, survived the instances, non-redundant,
# inductive, printed), each phase's seconds, the Houdini rounds, the
# obligations checked and the total time; then, for scale, the published
# figures of EMM10 (Table 1, the <2,1> instances of TPL, DSTM and TL2, each in
# product with their strict serializability specification, checked with
# SPASS): a different tool, template language and problem.
#
# Usage: scripts/bench-infer.sh [LADDER_BINARY]
# Environment: JOBS (-j, default: the number of CPUs, as ladder infer's
# own default), AUTOMATA (repository-relative files; default: the six
# above).
set -euo pipefail

# shellcheck source=scripts/bench-lib.sh
. "$(dirname "$0")/bench-lib.sh" "${1:-}"
jobs=${JOBS:-$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)}
automata=${AUTOMATA:-docs/examples/mutex/TicketLock.yaml specs/TMS2.yaml algorithms/NOrecAtomicCommitValidate.yaml algorithms/TPL.yaml algorithms/DSTM.yaml algorithms/TL2.yaml}

# strip FILE: the file without its top-level invariants: section.
strip() {
  awk '/^[^ \t#]/ { skip = ($0 ~ /^invariants[ \t]*:/) } !skip' "$1"
}

mkdir -p "$tmp/repo"
for d in specs algorithms docs/examples/mutex; do
  mkdir -p "$tmp/repo/$d"
  cp "$root/$d"/*.yaml "$tmp/repo/$d/"
done
cd "$tmp/repo"
for f in $automata; do
  strip "$root/$f" >"$f"
done

for f in $automata; do
  code=0
  "$bin" infer "$f" --json -j "$jobs" --cache-dir "$tmp/cache-$(basename "$f" .yaml)" >"$tmp/out.json" 2>"$tmp/err" || code=$?
  if [ "$code" -gt 1 ]; then
    echo "bench-infer: ladder infer $f exited with $code:" >&2
    cat "$tmp/err" >&2
    exit 1
  fi
  awk -v file="$f" '
    /^  "automaton":/ { gsub(/[",]/, "", $2); auto = $2 }
    /^  "phases": \[/ { in_phases = 1; next }
    in_phases && /^  \]/ { in_phases = 0 }
    in_phases && /"name":/ { sub(/^[^:]*: "/, ""); sub(/",$/, ""); name = $0; gsub(/ /, "_", name) }
    in_phases && /"candidates":/ { gsub(/,/, "", $2); cands[name] = $2; order[++n] = name }
    in_phases && /"seconds":/ { gsub(/,/, "", $2); secs[name] = $2 }
    /^  "houdiniRounds": \[/ { in_rounds = 1; next }
    in_rounds && /^  \]/ { in_rounds = 0 }
    in_rounds && /"candidates":/ { rounds++ }
    /^    "checked":/ { gsub(/,/, "", $2); checked = $2 }
    /^  "seconds":/ { gsub(/,/, "", $2); total = $2 }
    /^  "stopped":/ { sub(/^[^:]*: "/, ""); sub(/",?$/, ""); stopped = $0 }
    END {
      printf "{\"infer\":\"%s\",\"automaton\":\"%s\"", file, auto
      for (i = 1; i <= n; i++) printf ",\"%s\":%s,\"%s_seconds\":%s", order[i], cands[order[i]], order[i], secs[order[i]]
      printf ",\"houdini_rounds\":%d,\"obligations\":%s,\"seconds\":%s", rounds, checked, total
      if (stopped != "") printf ",\"stopped\":\"%s\"", stopped
      printf "}\n"
    }' "$tmp/out.json"
done

# EMM10, Table 1: total, invariants of the instance, non-redundant,
# validated, weakening iterations, total time.
echo '{"published":"EMM10","automaton":"TPL x SS","instance":"<2,1>","generated":4924,"survived_the_instances":3330,"non-redundant":430,"inductive":430,"iterations":1,"seconds":245}'
echo '{"published":"EMM10","automaton":"DSTM x SS","instance":"<2,1>","generated":14724,"survived_the_instances":4512,"non-redundant":525,"inductive":341,"iterations":3,"seconds":2290}'
echo '{"published":"EMM10","automaton":"TL2 x SS","instance":"<2,1>","generated":14706,"survived_the_instances":4695,"non-redundant":556,"inductive":416,"iterations":2,"seconds":6004}'
