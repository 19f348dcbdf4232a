#!/usr/bin/env bash
# ghs08.sh [LADDER]: the trace-inclusion checks of GHS08's specifications
# (specs/StrictSerializability.yaml, Σ_ss; specs/Opacity.yaml, Σ_op) with
# `ladder crosscheck --implements`, each bounded by TIMEOUT seconds (default
# 600) and MEMORY KiB of virtual memory (ulimit -v, default 8000000), with
# ladder's own --max-memory MAX_MEMORY (default 4GiB) and --timeout (10s
# less) below them, so that a search stopped by a bound says how far it
# got. For
# each check it prints the instance, the expected and the actual verdict
# (holds: every trace is included; refuted: a trace is not; INCOMPLETE,
# TIMEOUT, OUT OF MEMORY or ERROR otherwise), the wall-clock time, the peak
# resident memory and ladder's summary line; for a refutation, the trace
# that is not included; first, the number of states of Σ_ss and Σ_op.
# ONLY=REGEXP runs the checks whose name matches.
# Exits 1 when a verdict differs from the expected one, else 2 when a bound
# stopped a check, else 0.
set -uo pipefail
ladder=${1:-bin/ladder}
limit=${TIMEOUT:-600}
mem=${MEMORY:-8000000}
maxmem=${MAX_MEMORY:-4GiB}
only=${ONLY:-.}
ss=specs/StrictSerializability.yaml
op=specs/Opacity.yaml
tms2=specs/TMS2.yaml
td=algorithms/testdata
status=0
printf 'ladder crosscheck --implements, each check bounded by timeout %ss, ulimit -v %s KiB and --max-memory %s\n' "$limit" "$mem" "$maxmem"

# check NAME EXPECTED ABSTRACT CONCRETE BOUND
check() {
  local name=$1 want=$2 abs=$3 conc=$4 bound=$5
  [[ $name =~ $only ]] || return 0
  local out tf code secs kb verdict
  tf=$(mktemp)
  local t0 t1
  t0=$(date +%s.%N)
  out=$( (ulimit -v "$mem"; exec /usr/bin/time -f '%M' -o "$tf" timeout "$limit" \
    "$ladder" crosscheck --implements "$abs" "$conc" --bound "$bound" --symmetry none --max-memory "$maxmem" --timeout "$((limit - 10))s") 2>&1 )
  code=$?
  t1=$(date +%s.%N)
  secs=$(echo "$t1 - $t0" | bc)
  kb=$(tail -n 1 "$tf" 2>/dev/null)
  rm -f "$tf"
  if [[ $code -eq 0 && $out == *"OK: every trace"* ]]; then verdict=holds
  elif [[ $code -eq 1 && $out == *"FAILED: "* ]]; then verdict=refuted
  elif [[ $out == *INCOMPLETE* ]]; then verdict=INCOMPLETE
  elif [[ $code -eq 124 ]]; then verdict=TIMEOUT
  elif [[ $out == *"out of memory"* || $out == *"cannot allocate"* ]]; then verdict="OUT OF MEMORY"
  else verdict="ERROR (exit $code)"
  fi
  local mark=""
  if [[ $verdict == holds || $verdict == refuted ]]; then
    if [[ $verdict != "$want" ]]; then mark="   UNEXPECTED"; status=1; fi
  else
    mark="   STOPPED BY A BOUND"
    if [[ $status -eq 0 ]]; then status=2; fi
  fi
  printf '\n== %s ⊆ %s? (%s) %s\n' "$(basename "$conc" .yaml)" "$(basename "$abs" .yaml)" "$bound" "$name"
  printf '   expected %s, %s in %.1fs, peak RSS %s MiB%s\n' "$want" "$verdict" "$secs" "$(( ${kb:-0} / 1024 ))" "$mark"
  echo "$out" | grep -E '^explored |^INCOMPLETE' | sed 's/^/   /'
  if [[ $verdict == refuted ]]; then
    echo "$out" | grep -A1 '^FAILED: ' | tail -n 1 | sed 's/^ */   trace: /'
  elif [[ $verdict == ERROR* || $verdict == "OUT OF MEMORY" ]]; then
    echo "$out" | tail -n 3 | sed 's/^/   /'
  fi
}

# states NAME FILE BOUND: the reachable states of FILE's automaton.
states() {
  local name=$1 file=$2 bound=$3
  [[ $name =~ $only ]] || return 0
  local out code
  out=$( (ulimit -v "$mem"; timeout "$limit" "$ladder" explore "$file" --bound "$bound" --symmetry none) 2>&1 )
  code=$?
  printf '\n== ladder explore %s --bound %s (%s)\n' "$file" "$bound" "$name"
  echo "$out" | head -n 2 | sed 's/^/   /'
  if [[ $code -ne 0 ]]; then echo "   exit $code   UNEXPECTED"; status=1; fi
}

# The size of the specifications.
states states-ss-V1 $ss T=2,L=2,V=1
states states-ss    $ss T=2,L=2,V=2
states states-op-V1 $op T=2,L=2,V=1
states states-op    $op T=2,L=2,V=2

# The specifications among themselves and against TMS2.
check spec-op-ss        holds   $ss   $op   T=2,L=1,V=2
check spec-op-ss-L2     holds   $ss   $op   T=2,L=2,V=2
check spec-ss-op        refuted $op   $ss   T=2,L=1,V=2
check spec-op-tms2      holds   $tms2 $op   T=2,L=1,V=2
check spec-op-tms2-L2   refuted $tms2 $op   T=2,L=2,V=2
check spec-tms2-op      refuted $op   $tms2 T=2,L=1,V=2
check spec-tms2-op-V1   refuted $op   $tms2 T=2,L=1,V=1
check spec-tms2-ss      refuted $ss   $tms2 T=2,L=1,V=2
check spec-tms2-ss-V1   refuted $ss   $tms2 T=2,L=1,V=1
check spec-ss-tms2      refuted $tms2 $ss   T=2,L=1,V=2

# occ: strictly serializable, not opaque (GHS08's word w_1).
check occ-tms2          refuted $tms2 $td/OCC.yaml T=2,L=1,V=2
check occ-op            refuted $op   $td/OCC.yaml T=2,L=1,V=2
check occ-op-V1         refuted $op   $td/OCC.yaml T=2,L=1,V=1
check occ-ss            holds   $ss   $td/OCC.yaml T=2,L=1,V=2
check occ-ss-L2V1       holds   $ss   $td/OCC.yaml T=2,L=2,V=1
check occ-ss-L2         holds   $ss   $td/OCC.yaml T=2,L=2,V=2

# TL2 mod.: neither (GHS08's word w_2, and a lost update on one location).
check tl2mod-op         refuted $op   $td/TL2Mod.yaml T=2,L=1,V=2
check tl2mod-ss         refuted $ss   $td/TL2Mod.yaml T=2,L=1,V=2
check tl2mod-op-L2V1    refuted $op   $td/TL2Mod.yaml T=2,L=2,V=1
check tl2mod-op-L2      refuted $op   $td/TL2Mod.yaml T=2,L=2,V=2
check tl2modw2-op       refuted $op   $td/TL2ModW2.yaml T=2,L=2,V=2,v0=0
check tl2modw2-ss       refuted $ss   $td/TL2ModW2.yaml T=2,L=2,V=2,v0=0

# The algorithms against Σ_op, 2 transactions and 2 locations.
check tml-op-L1         holds   $op   algorithms/TML.yaml T=2,L=1,V=2
check tml-op-V1         holds   $op   algorithms/TML.yaml T=2,L=2,V=1
check tml-op            holds   $op   algorithms/TML.yaml T=2,L=2,V=2
check norec-op-L1V1     refuted $op   algorithms/NOrec.yaml T=2,L=1,V=1
check norec-ss-L1V1     refuted $ss   algorithms/NOrec.yaml T=2,L=1,V=1
check norec-op-V1       refuted $op   algorithms/NOrec.yaml T=2,L=2,V=1
check dstm-op-L1        holds   $op   algorithms/DSTM.yaml T=2,L=1,V=2
check dstm-op-V1        holds   $op   algorithms/DSTM.yaml T=2,L=2,V=1
check dstm-op           holds   $op   algorithms/DSTM.yaml T=2,L=2,V=2
check tl2-op-L1         holds   $op   algorithms/TL2.yaml T=2,L=1,V=2
check tl2-op-V1         holds   $op   algorithms/TL2.yaml T=2,L=2,V=1
check tl2-op            holds   $op   algorithms/TL2.yaml T=2,L=2,V=2
check tl2-ss-V1         holds   $ss   algorithms/TL2.yaml T=2,L=2,V=1

# Three transactions, one location, one value.
check spec-op-ss-T3     holds   $ss   $op   T=3,L=1,V=1
check occ-ss-T3         holds   $ss   $td/OCC.yaml T=3,L=1,V=1
check tml-op-T3         holds   $op   algorithms/TML.yaml T=3,L=1,V=1
check dstm-op-T3        holds   $op   algorithms/DSTM.yaml T=3,L=1,V=1
check tl2-op-T3         holds   $op   algorithms/TL2.yaml T=3,L=1,V=1
exit $status
