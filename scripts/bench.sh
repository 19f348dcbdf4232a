#!/usr/bin/env bash
# bench.sh measures `ladder prove` over the repository's proofs on a
# temporary copy: a cold run of Figure 3 of LLM12 alone (the TMS2 family and
# the NOrec chain down to NOrecPaperPseudocode), a cold run (empty cache)
# of the repository without the
# refactored NOrec pseudocode and its edge, a warm run (no change), a run
# after adding them back (LLM12 §4.2: a refactored pseudocode is proved with
# one new edge, nothing above it re-checked) and runs after one scripted
# edit of an action's effect (three texts of it, each proving the same way:
# edit_seconds is their median, edit_samples the three), then after an edit
# of one relation clause of
# the DSTM proof, and again with nothing changed; then `ladder watch` after
# a further edit of each (scripts/bench-watch.sh); then cold, warm and after
# the same two edits and again nothing changed on a synthetic hierarchy
# SCALE times the repository (default 10; scripts/scale-repo.sh), each
# time over the 1x one's (the action edit again three times), and ladder
# watch there after the same edits. It
# prints one JSON line with the wall-clock times, the re-checked and reused
# counts and the ratios cold/warm and cold/edit, one for the synthetic
# hierarchy and one for ladder watch on it (with watch_over_1x, each
# edit's time over the same edit's at 1x). Then, when SPIN is installed, scripts/bench-spin.sh compares the
# explorer with SPIN on TMS2 and prints one JSON line per instance. Then
# scripts/bench-infer.sh measures `ladder infer` (one JSON line per automaton),
# scripts/bench-repair.sh its relation repair (one JSON line per clause removed).
# Last, scripts/bench-crosscheck.sh measures `ladder crosscheck` on every
# proof edge, with and without symmetry reduction (one JSON line per edge and
# run).
#
# Usage: scripts/bench.sh [LADDER_BINARY]
# Environment: JOBS (-j, default: the number of CPUs), REFACTOR (the files
# added for the refactoring run; default: algorithms/NOrecDoWhileRead.yaml and
# proofs/NOrecDoWhileRead-NOrec.yaml, those that exist), EDIT_FILE, EDIT_FROM,
# EDIT_TO (the scripted edit: replace the first line of EDIT_FILE equal to
# EDIT_FROM by EDIT_TO; default: a semantics-preserving change of TMS2's
# BeginInv effect).
set -euo pipefail

# shellcheck source=scripts/bench-lib.sh
. "$(dirname "$0")/bench-lib.sh" "${1:-}"

jobs=${JOBS:-$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)}
edit_file=${EDIT_FILE:-specs/TMS2.yaml}
edit_from=${EDIT_FROM:-      beginIdx[t] := len(mems) - 1}
edit_to=${EDIT_TO:-      beginIdx[t] := len(mems) - 1 + 0}

mkdir "$tmp/repo"
for d in specs algorithms proofs; do
  [ -d "$root/$d" ] && cp -R "$root/$d" "$tmp/repo/$d"
done
cd "$tmp/repo"
refactor=${REFACTOR:-algorithms/NOrecDoWhileRead.yaml proofs/NOrecDoWhileRead-NOrec.yaml}
mkdir "$tmp/refactor"
for f in $refactor; do
  if [ -e "$f" ]; then
    mkdir -p "$tmp/refactor/$(dirname "$f")"
    mv "$f" "$tmp/refactor/$f"
  fi
done
paths=$(for d in specs algorithms proofs; do [ -d "$d" ] && echo "$d"; done)

now() { date +%s.%N; }

# run NAME: prove with the shared cache, keep the JSON report in NAME.json and
# the wall-clock time in NAME.time. Exit codes 0 and 1 (all proved, or some
# refuted or unknown) are results; anything else is a failure.
run() {
  local start end code=0
  start=$(now)
  "$bin" prove $paths --json -j "$jobs" --cache-dir "${cache_dir:-$tmp/cache}" >"$1.json" 2>"$1.err" || code=$?
  end=$(now)
  if [ "$code" -gt 1 ]; then
    echo "bench: ladder prove ($1) exited with $code:" >&2
    cat "$1.err" >&2
    exit 1
  fi
  awk -v s="$start" -v e="$end" 'BEGIN { printf "%.3f", e - s }' >"$1.time"
}

# units NAME prints the resource units (millions, one decimal) that Z3
# used for the obligations of NAME's report: the solver's work, which,
# unlike its time, does not depend on the machine or its load.
units() {
  awk '/^ *"rlimit_used": / { gsub(/,/, "", $2); n += $2 } END { printf "%.1f", n / 1e6 }' "$1.json"
}

# field NAME KEY prints a number from the report's summary object.
field() {
  awk -v key="\"$2\":" '
    /^  "summary": \{/ { in_summary = 1; next }
    in_summary && /^  \}/ { in_summary = 0 }
    in_summary && $1 == key { gsub(/,/, "", $2); print $2 }' "$1.json"
}

# apply_edit FILE FROM TO replaces the first line of FILE equal to FROM by
# TO, and fails when FILE has no such line.
apply_edit() {
  if ! grep -qxF -- "$2" "$1"; then
    echo "bench: $1 has no line '$2'; set EDIT_FILE, EDIT_FROM and EDIT_TO (EDIT2_… for the second edit)" >&2
    exit 1
  fi
  awk -v from="$2" -v to="$3" '!done && $0 == from { print to; done = 1; next } { print }' "$1" >"$tmp/edited" &&
    cp "$tmp/edited" "$1"
}

# run_edit NAME FILE FROM TO: the scripted edit three times, each a new
# text that proves as TO does (TO + 0 + 0, TO + 0 + 0 + 0, then TO), each
# timed like run NAME; NAME.time is the median of the three and NAME.json
# the report of the last, and NAME.samples lists the three times.
run_edit() {
  local name=$1 file=$2 prev=$3 to=$4 text t1= t2= t3=
  for text in "$to + 0 + 0" "$to + 0 + 0 + 0" "$to"; do
    apply_edit "$file" "$prev" "$text"
    run "$name"
    prev=$text
    t1=$t2
    t2=$t3
    t3=$(cat "$name.time")
  done
  printf '[%s,%s,%s]' "$t1" "$t2" "$t3" >"$name.samples"
  printf '%s\n%s\n%s\n' "$t1" "$t2" "$t3" | sort -g | sed -n 2p | tr -d '\n' >"$name.time"
}

# Figure 3 of LLM12 alone, cold: the TMS2 family and the NOrec chain.
fig3=$(ls specs/*.yaml algorithms/NOrec*.yaml proofs/NOrec*.yaml proofs/TMS2-*.yaml proofs/TxnOrd*.yaml proofs/ReservationTMS2-*.yaml 2>/dev/null | tr '\n' ' ')
start=$(now)
code=0
"$bin" prove $fig3 --json -j "$jobs" --cache-dir "$tmp/cache-fig3" >fig3.json 2>fig3.err || code=$?
end=$(now)
if [ "$code" -gt 1 ]; then
  echo "bench: ladder prove (figure 3) exited with $code:" >&2
  cat fig3.err >&2
  exit 1
fi
awk -v s="$start" -v e="$end" 'BEGIN { printf "%.3f", e - s }' >fig3.time

run cold
run warm
(cd "$tmp/refactor" && find . -type f) | while read -r f; do
  mkdir -p "$(dirname "$f")" && cp "$tmp/refactor/$f" "$f"
done
run refactor
run_edit edit "$edit_file" "$edit_from" "$edit_to"
# a second scripted edit: one relation clause of the DSTM proof
edit2_file=${EDIT2_FILE:-proofs/DSTM-ReservationTMS2.yaml}
edit2_from=${EDIT2_FROM:-  len: len(a.order) = c.nres}
edit2_to=${EDIT2_TO:-  len: len(a.order) = c.nres + 0}
apply_edit "$edit2_file" "$edit2_from" "$edit2_to"
run edit2
# nothing changed since the last edit: every unit restored from its record
run again

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "null" }'; }
cold=$(cat cold.time) warm=$(cat warm.time) edit=$(cat edit.time) refactor=$(cat refactor.time)
printf '{"obligations":%s,"jobs":%s,"cold_seconds":%s,"warm_seconds":%s,"edit_seconds":%s,' \
  "$(field cold obligations)" "$jobs" "$cold" "$warm" "$edit"
printf '"cold_solver_seconds":%s,"cold_z3_seconds":%s,"cold_rlimit_millions":%s,"cold_proved":%s,"cold_trivial":%s,"cold_unknown":%s,"cold_refuted":%s,' \
  "$(field cold solver_seconds)" "$(field cold z3_seconds)" "$(units cold)" "$(field cold proved)" "$(field cold trivial)" "$(field cold unknown)" "$(field cold refuted)"
printf '"cold_rechecked":%s,"warm_rechecked":%s,"warm_reused":%s,"edit_rechecked":%s,"edit_reused":%s,' \
  "$(field cold rechecked)" "$(field warm rechecked)" "$(field warm reused)" "$(field edit rechecked)" "$(field edit reused)"
printf '"figure3_obligations":%s,"figure3_proved":%s,"figure3_trivial":%s,"figure3_cold_seconds":%s,' \
  "$(field fig3 obligations)" "$(field fig3 proved)" "$(field fig3 trivial)" "$(cat fig3.time)"
printf '"refactor_seconds":%s,"refactor_rechecked":%s,"refactor_reused":%s,' \
  "$refactor" "$(field refactor rechecked)" "$(field refactor reused)"
printf '"edit_built":%s,"edit2":"%s","edit2_seconds":%s,"edit2_rechecked":%s,"edit2_built":%s,"again_seconds":%s,' \
  "$(field edit built)" "$edit2_file" "$(cat edit2.time)" "$(field edit2 rechecked)" "$(field edit2 built)" "$(cat again.time)"
printf '"edit":"%s","edit_samples":%s,"cold_over_warm":%s,"cold_over_edit":%s}\n' \
  "$edit_file" "$(cat edit.samples)" "$(ratio "$cold" "$warm")" "$(ratio "$cold" "$edit")"

# ladder watch, from a save to the verdicts on screen, for a new text of
# each scripted edit: one JSON line (scripts/bench-watch.sh)
watched1=$("$root/scripts/bench-watch.sh" "$bin" "$tmp/cache" "$jobs" $paths -- \
  "$edit_file" "$edit_to" "$edit_to + 0" "$edit2_file" "$edit2_to" "$edit2_to + 0")
echo "$watched1"

# the same edits on a synthetic hierarchy SCALE times the repository
# (scripts/scale-repo.sh; SCALE=0 skips it): cold, warm and the two edits,
# with each edit's time over the 1x edit's in the same run.
scale=${SCALE:-10}
if [ "$scale" -gt 0 ]; then
  "$root/scripts/scale-repo.sh" "$tmp/scaled" "$scale"
  cd "$tmp/scaled"
  cache_dir=$tmp/cache-scaled
  paths=$(ls -d copy*/specs copy*/algorithms copy*/proofs)
  run scold
  run swarm
  # the same edit of copy 1, whose files are named NAME_1
  sfile=copy1/$(dirname "$edit_file")/$(basename "$edit_file" .yaml)_1.yaml
  run_edit sedit "$sfile" "$edit_from" "$edit_to"
  # and the same clause of the DSTM proof (proof files keep their names)
  apply_edit "copy1/$edit2_file" "$edit2_from" "$edit2_to"
  run sedit2
  # nothing changed since: the run record's report (docs/prove.md)
  run sagain
  printf '{"scale":%s,"obligations":%s,"cold_seconds":%s,"warm_seconds":%s,"edit_seconds":%s,"edit_rechecked":%s,"edit_built":%s,"edit_over_1x_edit":%s,' \
    "$scale" "$(field scold obligations)" "$(cat scold.time)" "$(cat swarm.time)" "$(cat sedit.time)" \
    "$(field sedit rechecked)" "$(field sedit built)" "$(ratio "$(cat sedit.time)" "$edit")"
  printf '"edit_samples":%s,' "$(cat sedit.samples)"
  printf '"edit2_seconds":%s,"edit2_rechecked":%s,"edit2_over_1x_edit2":%s,"again_seconds":%s,"again_over_1x_again":%s}\n' \
    "$(cat sedit2.time)" "$(field sedit2 rechecked)" "$(ratio "$(cat sedit2.time)" "$(cat "$tmp/repo/edit2.time")")" \
    "$(cat sagain.time)" "$(ratio "$(cat sagain.time)" "$(cat "$tmp/repo/again.time")")"
  # ladder watch on the synthetic hierarchy, for a new text of each edit:
  # the line of scripts/bench-watch.sh with the scale first
  watched=$("$root/scripts/bench-watch.sh" "$bin" "$cache_dir" "$jobs" $paths -- \
    "$sfile" "$edit_to" "$edit_to + 0" "copy1/$edit2_file" "$edit2_to" "$edit2_to + 0")
  # each watched edit's time over the same edit's at 1x
  # shellcheck disable=SC2046 # the seconds of each edit, in order, as arguments
  set -- $(printf '%s\n' "$watched1" | grep -o '"seconds":[0-9.]*' | cut -d: -f2)
  over=$(printf '%s\n' "$watched" | grep -o '"seconds":[0-9.]*' | cut -d: -f2 | {
    sep=""
    for a in "$@"; do
      read -r b || break
      printf '%s%s' "$sep" "$(ratio "$b" "$a")"
      sep=","
    done
  })
  printf '{"scale":%s,"watch_over_1x":[%s],%s\n' "$scale" "$over" "${watched#\{}"
  cd "$tmp/repo"
fi

# the explorer against SPIN on TMS2: one JSON line per instance
if command -v spin >/dev/null 2>&1; then
  "$root/scripts/bench-spin.sh" "$bin"
else
  echo "bench: spin is not installed: no comparison with SPIN (make bench installs it)" >&2
fi

# invariant inference with the hand-written invariants removed: one JSON
# line per automaton
"$root/scripts/bench-infer.sh" "$bin"

# relation repair with one clause of the TL2 and DSTM proofs removed: one
# JSON line per case
"$root/scripts/bench-repair.sh" "$bin"

# the bounded cross-checks of every proof edge: one JSON line per edge and run
"$root/scripts/bench-crosscheck.sh" "$bin"
