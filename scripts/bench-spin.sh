#!/usr/bin/env bash
# bench-spin.sh compares ladder's explorer with SPIN on TMS2: for each
# instance it explores specs/TMS2.yaml with ladder, without and with
# symmetry reduction, and bench/TMS2.pml (the same state space in Promela)
# with SPIN's pan, and prints one JSON line per instance with the states,
# the time, the states per second and the peak memory of each run, and
# whether ladder and SPIN found the same number of states.
#
# ladder runs with --workers 1, as pan is sequential, and once more with its
# default, a worker per core ("ladder_all_cores"). pan is compiled with
#   -DSAFETY    a safety search (assertions and end states): no cycle
#               detection, so no nested search and a smaller stack frame;
#   -DNOREDUCE  no partial-order reduction, so that pan stores every
#               reachable state (the model has one process, so there is
#               nothing to reduce, and the count must equal ladder's);
# and neither -DCOLLAPSE nor hash compaction or bitstate hashing: the search
# is exhaustive and exact. (-DCOLLAPSE is off because the state vector is
# 36 bytes or less: its component tables cost more than they save, and it
# is slower; -DHC4 and -DBITSTATE may lose states.) pan's hash table gets
# 2^w slots with w = ceil(log2(states)) + 1, from ladder's count, and its
# depth bound is raised (-m) until the search is not truncated.
#
# With symmetry reduction ladder stores one state per orbit; when the start
# state is closed under the permutations it also counts the states the
# orbits hold, which equal the states of the search without reduction. The
# runs "ladder_symmetry_counted" (one worker) and
# "ladder_symmetry_counted_all_cores" use the sorts COUNTED (default T,V:
# TMS2's start state sets every argL[t] to L#0, so it is not closed under
# permutations of L when L has two elements or more), and give
# "represented_per_second", the reachable states covered per second, with
# "same_states_represented" comparing that count with SPIN's. "ratios"
# divides each of ladder's rates by SPIN's.
#
# "flat" says whether ladder ran the automaton on encoded states (without
# reduction, docs/cli.md "How the explorer runs an automaton").
#
# The machine's speed varies from minute to minute (other virtual machines
# share its cores: a run of pan can take nearly twice as long as the one
# before it), so the three runs the ratios compare (ladder on one
# worker, ladder on every core, pan) are made REPEAT times, interleaved,
# and each is reported by its median run, with the seconds of all its runs
# in "runs_seconds": the ratios compare medians of runs made side by side.
#
# Each instance also gets a ladder run with both reductions, symmetry and
# dead registers (--reduce-dead), whose count is of states up to dead
# entries and so not comparable with SPIN's. Then the large instance
# (LARGE, default T=3,L=2,V=2) is explored by ladder with both reductions
# only, in one more JSON line: without them its state space does not fit.
#
# Usage: scripts/bench-spin.sh [LADDER_BINARY]
# Environment: INSTANCES (default "T=2,L=2,V=2 T=3,L=1,V=2"), REPEAT (the
# runs of each compared configuration, default 5), SYMMETRY (the
# sorts of ladder's reduced run, default T,L,V), COUNTED (the sorts of the
# runs whose orbits are counted, default T,V), LARGE (the instance of the
# last line; empty: none), TIMEOUT (seconds per run, default 600), MEMLIMIT
# (ulimit -v of each run in KiB, default 8000000).
set -euo pipefail

# shellcheck source=scripts/bench-lib.sh
. "$(dirname "$0")/bench-lib.sh" "${1:-}"

instances=${INSTANCES:-T=2,L=2,V=2 T=3,L=1,V=2}
symmetry=${SYMMETRY:-T,L,V}
counted=${COUNTED:-T,V}
large=${LARGE-T=3,L=2,V=2}
timeout=${TIMEOUT:-600}
repeat=${REPEAT:-5}
memlimit=${MEMLIMIT:-8000000}

for tool in spin cc; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "bench-spin: $tool is not installed (make bench installs spin)" >&2
    exit 1
  fi
done

# measure OUT CMD...: run CMD bounded in time and memory, stdout and stderr
# in OUT, its peak resident memory in KiB in OUT.rss (empty without
# /usr/bin/time) and its wall-clock seconds in OUT.time; returns its exit code.
measure() {
  local out=$1 code=0 start end
  shift
  start=$(date +%s.%N)
  if [ -x /usr/bin/time ]; then
    (ulimit -v "$memlimit"; /usr/bin/time -f '%M' -o "$out.rss" timeout "$timeout" "$@") >"$out" 2>&1 || code=$?
  else
    : >"$out.rss"
    (ulimit -v "$memlimit"; timeout "$timeout" "$@") >"$out" 2>&1 || code=$?
  fi
  end=$(date +%s.%N)
  awk -v s="$start" -v e="$end" 'BEGIN { printf "%.3f", e - s }' >"$out.time"
  return $code
}

# jfield FILE KEY prints a top-level number or boolean of ladder's JSON.
jfield() {
  awk -v key="\"$2\":" '$1 == key { v = $2; gsub(/,/, "", v); print v; exit }' "$1"
}

rss_bytes() { # KiB in FILE.rss → bytes, or null
  local k
  k=$(tail -n 1 "$1.rss" 2>/dev/null | tr -dc '0-9')
  if [ -n "$k" ]; then echo $((k * 1024)); else echo null; fi
}

orNull() { if [ -n "$1" ]; then echo "$1"; else echo null; fi; }

# ratio A B prints A/B to two decimals, or null when either is missing or B
# is zero.
ratio() {
  if [ -z "$1" ] || [ -z "$2" ]; then echo null; return; fi
  awk -v a="$1" -v b="$2" 'BEGIN { if (b + 0 == 0) print "null"; else printf "%.2f", a / b }'
}

# ladder_json NAME FILE: the JSON object of a ladder run.
ladder_json() {
  local f=$2 complete
  complete=$(jfield "$f" complete)
  printf '{"states":%s,"complete":%s,"workers":%s,"seconds":%s,"states_per_second":%s,"peak_memory_bytes":%s,"max_rss_bytes":%s,"flat":%s' \
    "$(orNull "$(jfield "$f" states)")" "$(orNull "$complete")" "$(orNull "$(jfield "$f" workers)")" "$(orNull "$(jfield "$f" elapsedSeconds)")" \
    "$(orNull "$(jfield "$f" statesPerSecond)")" "$(orNull "$(jfield "$f" peakMemoryBytes)")" "$(rss_bytes "$f")" "$( [ "$(jfield "$f" flat)" = true ] && echo true || echo false)"
  if [ -f "${f%.json}.runs" ]; then
    printf ',"runs_seconds":%s' "$(cat "${f%.json}.runs")"
  fi
  if [ "$1" = sym ] || [ "$1" = dead ]; then
    printf ',"sorts":"%s","permutations":%s' "$symmetry" "$(orNull "$(jfield "$f" permutations)")"
  fi
  if [ "$1" = counted ]; then
    printf ',"sorts":"%s","permutations":%s,"represented":%s,"represented_per_second":%s' "$counted" \
      "$(orNull "$(jfield "$f" permutations)")" "$(orNull "$(jfield "$f" represented)")" "$(orNull "$(jfield "$f" representedPerSecond)")"
  fi
  if [ "$1" = dead ]; then
    printf ',"dead_registers":%s' "$(grep -c '"var":' "$f" || true)"
  fi
  printf '}'
}

ladder_seconds() { jfield "$1" elapsedSeconds; }
pan_seconds() { awk '$1 == "pan:" && $2 == "elapsed" { print $4; exit }' "$1"; }

# median NAME EXT SECONDS: of the runs NAME.1.EXT … NAME.REPEAT.EXT, copies
# the median one (by the seconds the function SECONDS reads off a run;
# with an even number, the faster of the middle two) to NAME.EXT, with its
# .rss, writes its number to NAME.median and the seconds of every run, as
# a JSON array, to NAME.runs.
median() {
  local name=$1 ext=$2 get=$3 r secs sorted="" runs=""
  for r in $(seq 1 "$repeat"); do
    secs=$("$get" "$name.$r.$ext")
    sorted="$sorted${secs:-999999} $r"$'\n'
    runs="$runs${runs:+,}$(orNull "$secs")"
  done
  r=$(printf '%s' "$sorted" | sort -n | sed -n "$(((repeat + 1) / 2))p" | awk '{ print $2 }')
  cp "$name.$r.$ext" "$name.$ext"
  cp "$name.$r.$ext.rss" "$name.$ext.rss"
  echo "$r" >"$name.median"
  echo "[$runs]" >"$name.runs"
}

# explore OUT ARGS...: ladder explore specs/TMS2.yaml ARGS --json, measured
# into OUT; a usage or input error (exit code above 1) stops the script.
explore() {
  local out=$1 code=0
  shift
  measure "$out" "$bin" explore "$root/specs/TMS2.yaml" --reduce-dead=false "$@" --json || code=$?
  if [ "$code" -gt 1 ]; then
    echo "bench-spin: ladder explore $* exited with $code:" >&2
    cat "$out" >&2
    exit 1
  fi
}

cp "$root/bench/TMS2.pml" "$tmp/TMS2.pml"
cd "$tmp"
for inst in $instances; do
  nt=$(echo "$inst" | tr ',' '\n' | awk -F= '$1 == "T" { print $2 }')
  nl=$(echo "$inst" | tr ',' '\n' | awk -F= '$1 == "L" { print $2 }')
  nv=$(echo "$inst" | tr ',' '\n' | awk -F= '$1 == "V" { print $2 }')
  if [ -z "$nt" ] || [ -z "$nl" ] || [ -z "$nv" ]; then
    echo "bench-spin: instance $inst: give T, L and V" >&2
    exit 1
  fi

  # (the unreduced runs say so: an interface may declare a symmetry)
  explore full.1.json --bound "$inst" --symmetry none --workers 1
  explore sym.json --bound "$inst" --symmetry "$symmetry" --workers 1
  explore dead.json --bound "$inst" --symmetry "$symmetry" --reduce-dead
  # and ladder on every core (its default), for the figure a user sees
  explore par.1.json --bound "$inst" --symmetry none
  explore counted1.json --bound "$inst" --symmetry "$counted" --workers 1
  explore counted.json --bound "$inst" --symmetry "$counted"
  states=$(jfield full.1.json states)

  # pan: a hash table of about twice the states, and a depth bound raised
  # until the search is complete
  w=$(awk -v n="${states:-1}" 'BEGIN { w = 1; while (2 ^ w < n) w++; w++; if (w < 18) w = 18; if (w > 32) w = 32; print w }')
  spin -DNT="$nt" -DNL="$nl" -DNV="$nv" -a TMS2.pml >spin.out 2>&1 || { cat spin.out >&2; exit 1; }
  cc -O2 -DNOREDUCE -DSAFETY -o pan pan.c >cc.out 2>&1 || { cat cc.out >&2; exit 1; }
  depth=100000
  while :; do
    code=0
    measure pan.1.out ./pan -m"$depth" -w"$w" || code=$?
    if grep -q 'max search depth too small' pan.1.out && [ "$depth" -lt 100000000 ]; then
      depth=$((depth * 10))
      continue
    fi
    break
  done
  codes=$code
  for r in $(seq 2 "$repeat"); do
    explore "full.$r.json" --bound "$inst" --symmetry none --workers 1
    explore "par.$r.json" --bound "$inst" --symmetry none
    code=0
    measure "pan.$r.out" ./pan -m"$depth" -w"$w" || code=$?
    codes="$codes $code"
  done
  median full json ladder_seconds
  median par json ladder_seconds
  median pan out pan_seconds
  code=$(echo "$codes" | tr ' ' '\n' | sed -n "$(cat pan.median)p")
  pstates=$(awk '$2 == "states," && $3 == "stored" { print $1; exit }' pan.out)
  perrors=$(sed -n 's/.*errors: \([0-9]*\).*/\1/p' pan.out | head -n 1)
  prate=$(awk '$1 == "pan:" && $2 == "rate" { print $3; exit }' pan.out)
  psecs=$(awk '$1 == "pan:" && $2 == "elapsed" { print $4; exit }' pan.out)
  pmem=$(awk '$2 == "total" && $3 == "actual" { printf "%.0f", $1 * 1048576; exit }' pan.out)
  pcomplete=false
  if [ "$code" -eq 0 ] && [ "${perrors:-1}" = 0 ] && ! grep -q 'max search depth too small' pan.out; then
    pcomplete=true
  fi
  same=false
  if [ -n "$pstates" ] && [ "$pstates" = "$states" ]; then same=true; fi
  samerep=false
  rep=$(jfield counted.json represented)
  if [ -n "$pstates" ] && [ "$pstates" = "$rep" ] && [ "$rep" = "$(jfield counted1.json represented)" ]; then samerep=true; fi

  printf '{"instance":"%s","repeat":%s,"ladder":%s,"ladder_symmetry":%s,"ladder_all_cores":%s,"ladder_symmetry_dead":%s,' "$inst" "$repeat" "$(ladder_json full full.json)" "$(ladder_json sym sym.json)" "$(ladder_json par par.json)" "$(ladder_json dead dead.json)"
  printf '"ladder_symmetry_counted":%s,"ladder_symmetry_counted_all_cores":%s,' "$(ladder_json counted counted1.json)" "$(ladder_json counted counted.json)"
  printf '"spin":{"states":%s,"complete":%s,"errors":%s,"seconds":%s,"runs_seconds":%s,"states_per_second":%s,"memory_bytes":%s,"max_rss_bytes":%s,"flags":"-DNOREDUCE -DSAFETY -m%s -w%s"},' \
    "$(orNull "$pstates")" "$pcomplete" "$(orNull "$perrors")" "$(orNull "$psecs")" "$(cat pan.runs)" "$(orNull "$prate")" "$(orNull "$pmem")" "$(rss_bytes pan.out)" "$depth" "$w"
  printf '"same_states":%s,"same_states_represented":%s,' "$same" "$samerep"
  printf '"ratios":{"ladder":%s,"ladder_all_cores":%s,"represented":%s,"represented_all_cores":%s}}\n' \
    "$(ratio "$(jfield full.json statesPerSecond)" "$prate")" "$(ratio "$(jfield par.json statesPerSecond)" "$prate")" \
    "$(ratio "$(jfield counted1.json representedPerSecond)" "$prate")" "$(ratio "$(jfield counted.json representedPerSecond)" "$prate")"
done

# the large instance, with both reductions (SPIN without them does not
# finish it in this machine's memory)
if [ -n "$large" ]; then
  explore large.json --bound "$large" --symmetry "$symmetry" --reduce-dead
  printf '{"instance":"%s","ladder_symmetry_dead":%s}\n' "$large" "$(ladder_json dead large.json)"
fi
