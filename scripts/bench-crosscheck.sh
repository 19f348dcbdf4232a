#!/usr/bin/env bash
# bench-crosscheck.sh measures `ladder crosscheck` on every proof edge of
# proofs/ (the edges scripts/crosscheck-all.sh checks) and on trace
# inclusion of NOrecAtomicCommitValidate in TMS2. Each edge is checked
# without symmetry reduction and with --symmetry S for each S of SYMMETRY
# (trace inclusion with --symmetry ISYMMETRY, and each of its two runs
# again with --reduce-dead, labelled "+dead"); it prints one JSON line per edge and run: the pairs (or
# states) explored, whether the search was complete, the verdict, the
# seconds, the peak memory the search counted and the process's peak
# resident memory.
#
# A forward simulation is also checked with --reduce-dead (its pairs up to
# dead abstract registers), with the last --symmetry of SYMMETRY; the
# label then ends in +dead.
#
# Usage: scripts/bench-crosscheck.sh [LADDER_BINARY]
# Environment: BOUND (default T=3,L=1,V=2), IMPLEMENTS_BOUND (default
# T=2,L=2,V=2; empty: skip the trace inclusion run), MAXABS (its
# --max-abstract-states, default none: the memory budget), SYMMETRY (space-separated
# --symmetry values, e.g. "T T,L"; default "T"; "-" alone: no reduced
# runs), ISYMMETRY (the --symmetry of the second trace-inclusion run,
# default T,L; empty: none), TIMEOUT (the --timeout of each run, default 60s), MAXMEM (its
# --max-memory, default 2GB), WORKERS (--workers, default -1), MEMLIMIT (ulimit
# -v of each run in KiB, default 8000000), PROOFS (the proof files, default
# proofs/*.yaml).
set -euo pipefail

# shellcheck source=scripts/bench-lib.sh
. "$(dirname "$0")/bench-lib.sh" "${1:-}"

bound=${BOUND:-T=3,L=1,V=2}
ibound=${IMPLEMENTS_BOUND-T=2,L=2,V=2}
symmetry=${SYMMETRY:-T}
isymmetry=${ISYMMETRY-T,L}
timeout=${TIMEOUT:-60s}
maxmem=${MAXMEM:-2GB}
workers=${WORKERS:--1}
maxabs=${MAXABS:-}
memlimit=${MEMLIMIT:-8000000}

cd "$root"
proofs=${PROOFS:-$(ls proofs/*.yaml)}

# measure OUT CMD...: run CMD bounded in memory, its stdout in OUT, stderr in
# OUT.err, its peak resident memory in KiB in OUT.rss (empty without
# /usr/bin/time) and its wall-clock seconds in OUT.time; returns its exit code.
measure() {
  local out=$1 code=0 start end
  shift
  start=$(date +%s.%N)
  if [ -x /usr/bin/time ]; then
    (ulimit -v "$memlimit"; /usr/bin/time -f '%M' -o "$out.rss" "$@") >"$out" 2>"$out.err" || code=$?
  else
    : >"$out.rss"
    (ulimit -v "$memlimit"; "$@") >"$out" 2>"$out.err" || code=$?
  fi
  end=$(date +%s.%N)
  awk -v s="$start" -v e="$end" 'BEGIN { printf "%.3f", e - s }' >"$out.time"
  return $code
}

# jfield FILE KEY prints the first number, boolean or string value of KEY in
# ladder's JSON (indented, one key per line).
jfield() {
  awk -v key="\"$2\":" '$1 == key { v = $2; gsub(/[,"]/, "", v); print v; exit }' "$1"
}

# jstring FILE KEY prints the first string value of KEY, with its spaces.
jstring() {
  awk -v key="\"$2\":" '$1 == key { sub(/^[^:]*: *"/, ""); sub(/",?$/, ""); print; exit }' "$1"
}

rss_bytes() { # KiB in FILE.rss → bytes, or null
  local k
  k=$(tail -n 1 "$1.rss" 2>/dev/null | tr -dc '0-9')
  if [ -n "$k" ]; then echo $((k * 1024)); else echo null; fi
}

orNull() { if [ -n "$1" ]; then echo "$1"; else echo null; fi; }

# report NAME SYM FILE CODE: one JSON line for the run in FILE.
report() {
  local name=$1 sym=$2 f=$3 code=$4 verdict
  if grep -q '"failure"' "$f"; then
    verdict=failed
  elif [ "$(jfield "$f" complete)" = true ]; then
    verdict=holds
  elif [ "$code" -le 1 ] && [ -s "$f" ]; then
    verdict=incomplete
  else
    verdict=error
  fi
  printf '{"edge":"%s","kind":"%s","bound":"%s","symmetry":"%s","explored":%s,"complete":%s,"verdict":"%s","limit":"%s","seconds":%s,"peak_memory_bytes":%s,"max_rss_bytes":%s}\n' \
    "$name" "$(jstring "$f" kind)$(jfield "$f" concrete | sed 's/.*/implements/')" "$(jstring "$f" instance)" "$sym" "$(orNull "$(jfield "$f" states)$(jfield "$f" pairs)")" \
    "$(orNull "$(jfield "$f" complete)")" "$verdict" "$(jstring "$f" limit)" "$(cat "$f.time")" \
    "$(orNull "$(jfield "$f" peakMemoryBytes)")" "$(rss_bytes "$f")"
}

runs() {
  local syms=("")
  if [ "$symmetry" != - ]; then
    # shellcheck disable=SC2206
    syms+=($symmetry)
  fi
  printf '%s\n' "${syms[@]}"
}

for p in $proofs; do
  name=$(basename "$p" .yaml)
  while IFS= read -r variant; do
    sym=${variant%+dead}
    # the unreduced run says so: an interface may declare a symmetry
    args=(--symmetry none)
    if [ -n "$sym" ]; then args=(--symmetry "$sym"); fi
    if [ "$sym" != "$variant" ]; then args+=(--reduce-dead); else args+=(--reduce-dead=false); fi
    code=0
    measure "$tmp/out.json" "$bin" crosscheck "$p" specs/ algorithms/ proofs/ --bound "$bound" \
      --timeout "$timeout" --max-memory "$maxmem" --workers "$workers" --json "${args[@]}" || code=$?
    report "$name" "$variant" "$tmp/out.json" "$code"
  done < <(runs; if grep -q '^kind: forward' "$p"; then runs | tail -n 1 | sed 's/$/+dead/'; fi)
done

if [ -n "$ibound" ]; then
  # trace inclusion, without symmetry and with --symmetry ISYMMETRY, each
  # also with --reduce-dead (the label then ends in +dead)
  for variant in "" "$isymmetry" "+dead" "$isymmetry+dead"; do
    sym=${variant%+dead}
    if [ -z "$isymmetry" ] && [ -n "$sym" ]; then continue; fi
    args=(--symmetry none)
    if [ -n "$sym" ]; then args=(--symmetry "$sym"); fi
    if [ "$sym" != "$variant" ]; then args+=(--reduce-dead); else args+=(--reduce-dead=false); fi
    code=0
    measure "$tmp/out.json" "$bin" crosscheck --implements TMS2 algorithms/NOrecAtomicCommitValidate.yaml specs/ \
      --bound "$ibound" --timeout "$timeout" --max-memory "$maxmem" ${maxabs:+--max-abstract-states "$maxabs"} --json "${args[@]}" || code=$?
    report "NOrecAtomicCommitValidate-implements-TMS2" "$variant" "$tmp/out.json" "$code"
  done
fi
