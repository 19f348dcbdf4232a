#!/usr/bin/env bash
# bench-repair.sh measures `ladder infer --proof P` (relation repair): for
# each CLAUSE of the forward simulations below, on a temporary copy of the
# repository with that relation clause removed and an empty cache, it
# prints one JSON line: the obligations that failed, the candidates after
# each phase, the proofs of the edge, the clauses printed (and whether the
# removed one is among them, after merging), the time and the peak memory.
#
# Usage: scripts/bench-repair.sh [LADDER_BINARY]
# Environment: JOBS (-j, default 2), CASES (PROOF:CLAUSE ...; default
# TL2's valRead, argL and pos, DSTM's argV, rd and wrNone).
set -euo pipefail

# shellcheck source=scripts/bench-lib.sh
. "$(dirname "$0")/bench-lib.sh" "${1:-}"
jobs=${JOBS:-2}
cases=${CASES:-proofs/TL2-ReservationTMS2.yaml:valRead proofs/TL2-ReservationTMS2.yaml:argL proofs/TL2-ReservationTMS2.yaml:pos proofs/DSTM-ReservationTMS2.yaml:argV proofs/DSTM-ReservationTMS2.yaml:rd proofs/DSTM-ReservationTMS2.yaml:wrNone}

# unclause FILE NAME: FILE without the relation clause NAME (its line
# and the more indented lines below it).
unclause() {
  awk -v name="$2" '
    /^[^ \t#]/ { rel = ($0 ~ /^relation[ \t]*:/) }
    skip && /^    / { next }
    { skip = 0 }
    rel && $0 ~ "^  " name ":" { skip = 1; next }
    { print }' "$1"
}

for c in $cases; do
  proof=${c%%:*}
  clause=${c##*:}
  dir=$tmp/repo-$clause-$(basename "$proof" .yaml)
  mkdir -p "$dir/specs" "$dir/algorithms" "$dir/proofs"
  cp "$root"/specs/*.yaml "$dir/specs/"
  cp "$root"/algorithms/*.yaml "$dir/algorithms/"
  unclause "$root/$proof" "$clause" >"$dir/$proof"
  removed=$(awk -v name="$clause" '
    /^[^ \t#]/ { rel = ($0 ~ /^relation[ \t]*:/) }
    rel && $0 ~ "^  " name ":" { on = 1; sub("^  " name ": *[|]?", ""); if ($0 != "") print; next }
    on && /^    / { sub(/^ +/, ""); print; next }
    { on = 0 }' "$root/$proof" | paste -sd' ' -)
  code=0
  (cd "$dir" && /usr/bin/time -f "%M" -o "$tmp/mem" "$bin" infer --proof "$proof" --json -j "$jobs" \
    --cache-dir "$tmp/cache-$clause" >"$tmp/out.json" 2>"$tmp/err") || code=$?
  if [ "$code" -gt 1 ]; then
    echo "bench-repair: ladder infer --proof $proof ($clause removed) exited with $code:" >&2
    cat "$tmp/err" >&2
    exit 1
  fi
  python3 - "$tmp/out.json" "$proof" "$clause" "$removed" "$(cat "$tmp/mem")" <<'PY'
import json, re, sys
res = json.load(open(sys.argv[1]))
proof, clause, removed, mem = sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5])
norm = lambda s: re.sub(r"\s+", " ", s).strip()
def canon(s):
    # the bound variable's name and the order of a guard's constants do not matter
    s = norm(s)
    m = re.match(r"forall (\w+): ", s)
    if m:
        s = re.sub(r"\b%s\b" % m.group(1), "_", s)
    return re.sub(r"\{([^}]*)\}", lambda g: "{" + ", ".join(sorted(x.strip() for x in g.group(1).split(","))) + "}", s)
clauses = [c["body"] for c in res.get("clauses") or []]
print(json.dumps({
    "repair": proof, "removed": clause, "status": res["status"],
    "failed": len(res["failed"]), "generated": res["generated"], "survived": res["survived"],
    "excluding": res["excluding"], "counterexamples": res["counterexamples"],
    "proofs": len(res["rounds"]), "clauses": clauses,
    "restored": any(canon(c) == canon(removed) for c in clauses),
    "seconds": round(res["seconds"], 1), "peak_rss_mb": mem // 1024,
}))
PY
done
