#!/usr/bin/env bash
# team-estimate.sh [options] REPORT.json: estimates the wall time of
# proving, through a remote-execution system, a hierarchy K times the one a
# `ladder prove --json` report describes, and prints one JSON line.
#
# Each obligation of the report is a job that takes its solver seconds
# (the report's solver_seconds: Z3's check alone; -f seconds takes the
# whole per-obligation time instead: printing, hashing, building the problem
# in Z3, solving, replaying). The hierarchy K times larger has K jobs of each
# duration. They run on M machines of C cores each, a job per core, placed
# by list scheduling longest first (each job, the longest first, on the core
# that frees up first), and the line gives, for each M:
#
#   cpu_seconds            the sum of the jobs (K times the report's sum)
#   critical_path_seconds  the longest job: the obligations are independent,
#                          so no schedule ends before it does
#   makespan_seconds       {"M": seconds} for each M: when the last job ends
#   lower_bound_seconds    {"M": seconds}: max(cpu / (M*C), critical path);
#                          longest-first is within 4/3 of the optimum
#
# Trivial obligations (decided without Z3) are not jobs. An obligation the
# report reused from the cache has no solver time: the estimate needs a cold
# report (`ladder prove --json --no-cache`), and counts the reused ones in
# "cached" (a report with nothing but reused obligations is an error).
#
# Options:
#   -k K         the hierarchy's size as a multiple of the report's (100)
#   -c C         cores per machine (8)
#   -m "M ..."   numbers of machines ("1 10 100")
#   -o SECONDS   overhead added to each job: scheduling, sending the
#                problem, starting the solver (0)
#   -f FIELD     solver_seconds (the default) or seconds
#   -g           one job per obligation group (an invariant, or an edge and
#                its kind: the report's "group"), lasting the sum of its
#                obligations, instead of one per obligation
#
# The JSON is read by a small tokenizer in awk (any layout, ladder's
# indented one or a compact one), so that only bash, awk and sort are
# needed. Example, the figures of docs/team.md:
#
#   ladder prove --json --no-cache > cold.json
#   scripts/team-estimate.sh cold.json
#   scripts/team-estimate.sh -o 0.1 cold.json
#   scripts/team-estimate.sh -g -o 0.1 cold.json
set -euo pipefail
export LC_ALL=C

usage() {
  echo "usage: $0 [-k K] [-c CORES] [-m \"M ...\"] [-o OVERHEAD] [-f solver_seconds|seconds] [-g] REPORT.json" >&2
  exit 2
}

k=100 cores=8 machines="1 10 100" overhead=0 field=solver_seconds group=0
while getopts "k:c:m:o:f:gh" opt; do
  case $opt in
    k) k=$OPTARG ;;
    c) cores=$OPTARG ;;
    m) machines=$OPTARG ;;
    o) overhead=$OPTARG ;;
    f) field=$OPTARG ;;
    g) group=1 ;;
    *) usage ;;
  esac
done
shift $((OPTIND - 1))
[ $# -eq 1 ] || usage
report=$1
posint='^[1-9][0-9]*$'
[[ $k =~ $posint ]] || { echo "$0: -k must be a positive integer, not '$k'" >&2; exit 2; }
[[ $cores =~ $posint ]] || { echo "$0: -c must be a positive integer, not '$cores'" >&2; exit 2; }
for m in $machines; do
  [[ $m =~ $posint ]] || { echo "$0: -m must list positive integers, not '$m'" >&2; exit 2; }
done
[ -n "${machines// /}" ] || { echo "$0: -m lists no number of machines" >&2; exit 2; }
[[ $overhead =~ ^[0-9]+(\.[0-9]+)?$ ]] || { echo "$0: -o must be a number of seconds, not '$overhead'" >&2; exit 2; }
case $field in solver_seconds | seconds) ;; *) echo "$0: -f must be solver_seconds or seconds" >&2; exit 2 ;; esac
[ -f "$report" ] && [ -r "$report" ] || { echo "$0: $report: not a readable file" >&2; exit 2; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# 1. The obligations: "duration<TAB>verdict<TAB>cached<TAB>group" per line.
awk -v FIELD="$field" '
function fail(msg) {
  if (i) printf "team-estimate: %s:%d:%d: %s\n", FILENAME, NR, i, msg > "/dev/stderr"
  else printf "team-estimate: %s: %s\n", FILENAME, msg > "/dev/stderr"
  failed = 1
  exit 1
}
# token handles a string or literal: a key where an object expects one,
# otherwise a value, kept when it is a field of an obligation.
function token(v) {
  if (type[depth] == "o" && expkey[depth]) {
    key[depth] = v
    expkey[depth] = 0
    return
  }
  if (inobl && depth == obldepth + 1) {
    if (key[depth] == FIELD) dur = v
    else if (key[depth] == "verdict") verdict = v
    else if (key[depth] == "cached") cached = v
    else if (key[depth] == "group") grp = v
  }
}
function open_(c) {
  if (depth == 1 && type[1] == "o" && key[1] == "obligations" && c == "[") {
    inobl = 1
    obldepth = 2
    seen = 1
  }
  depth++
  type[depth] = (c == "{") ? "o" : "a"
  expkey[depth] = (c == "{")
  key[depth] = ""
  if (inobl && depth == obldepth + 1) {
    if (c != "{") fail("an obligation is not an object")
    dur = ""; verdict = ""; cached = ""; grp = ""
  }
}
function close_(c) {
  if (depth == 0 || (c == "}") != (type[depth] == "o")) fail("unbalanced " c)
  if (inobl && depth == obldepth + 1) {
    if (dur == "") fail("an obligation without \"" FIELD "\"")
    print dur "\t" verdict "\t" cached "\t" grp
  }
  if (inobl && depth == obldepth) inobl = 0
  depth--
}
{
  n = length($0)
  i = 1
  while (i <= n) {
    c = substr($0, i, 1)
    if (c == " " || c == "\t" || c == "\r") { i++; continue }
    if (c == "\"") {
      j = i + 1
      while (j <= n) {
        d = substr($0, j, 1)
        if (d == "\\") { j += 2; continue }
        if (d == "\"") break
        j++
      }
      if (j > n) fail("unterminated string")
      token(substr($0, i + 1, j - i - 1))
      i = j + 1
      continue
    }
    if (c == "{" || c == "[") { open_(c); i++; continue }
    if (c == "}" || c == "]") { close_(c); i++; continue }
    if (c == ":") { i++; continue }
    if (c == ",") { if (type[depth] == "o") expkey[depth] = 1; i++; continue }
    j = i
    while (j <= n && index("-+.0123456789eEtrufalsn", substr($0, j, 1)) > 0) j++
    if (j == i) fail("unexpected character " c)
    token(substr($0, i, j - i))
    i = j
  }
}
END {
  if (failed) exit 1
  if (depth != 0) { i = 0; fail("truncated JSON") }
  if (!seen) { i = 0; fail("no \"obligations\" list: not a ladder prove --json report") }
}
' "$report" >"$tmp/obligations"

# 2. The jobs, one duration per line, longest first, and the counts.
awk -F '\t' -v GROUP="$group" -v OVERHEAD="$overhead" -v STATS="$tmp/stats" '
{
  n++
  if ($2 == "trivial") { trivial++; next }
  if ($3 == "true") cached++
  d = $1 + 0
  if (GROUP) {
    if (!($4 in sum)) order[++ngroups] = $4
    sum[$4] += d
  } else {
    printf "%.9f\n", d + OVERHEAD
  }
  jobs++
}
END {
  if (GROUP) for (g = 1; g <= ngroups; g++) printf "%.9f\n", sum[order[g]] + OVERHEAD
  printf "%d %d %d %d\n", n, trivial, cached, (GROUP ? ngroups : jobs) > STATS
}
' "$tmp/obligations" | sort -g -r >"$tmp/jobs"

read -r obligations trivial cached njobs <"$tmp/stats"
if [ "$njobs" -eq 0 ]; then
  echo "$0: $report: no obligation sent to the solver" >&2
  exit 1
fi
if [ "$cached" -eq "$((obligations - trivial))" ]; then
  echo "$0: $report: every obligation was reused from the cache, so no solver time is known; use a report of ladder prove --json --no-cache" >&2
  exit 1
fi
if [ "$cached" -gt 0 ]; then
  echo "$0: warning: $cached obligations of $report were reused from the cache and count as taking no time; use a report of ladder prove --json --no-cache" >&2
fi

# 3. List scheduling, longest first, on M*C cores for each M: each job goes
# to the core that is free first (the root of a min-heap of finishing
# times). The K copies of a duration are consecutive in that order.
awk -v K="$k" -v C="$cores" -v MS="$machines" -v REPORT="$report" -v FIELD="$field" \
  -v OVERHEAD="$overhead" -v GROUP="$group" -v OBL="$obligations" -v TRIVIAL="$trivial" \
  -v CACHED="$cached" '
function siftdown(i,   l, m, t) {
  while (1) {
    l = 2 * i
    m = i
    if (l <= P && h[l] < h[m]) m = l
    if (l + 1 <= P && h[l + 1] < h[m]) m = l + 1
    if (m == i) return
    t = h[i]; h[i] = h[m]; h[m] = t
    i = m
  }
}
function jsonstr(s) {
  gsub(/\\/, "\\\\", s)
  gsub(/"/, "\\\"", s)
  gsub(/\t/, "\\t", s)
  return "\"" s "\""
}
{ d[++n] = $1 + 0; total += $1; if ($1 + 0 > crit) crit = $1 + 0 }
END {
  cpu = total * K
  nm = split(MS, ms, " ")
  span = ""; lower = ""
  for (x = 1; x <= nm; x++) {
    P = ms[x] * C
    for (i = 1; i <= P; i++) h[i] = 0
    for (j = 1; j <= n; j++)
      for (r = 0; r < K; r++) {
        h[1] += d[j]
        siftdown(1)
      }
    mk = 0
    for (i = 1; i <= P; i++) if (h[i] > mk) mk = h[i]
    lb = cpu / P
    if (crit > lb) lb = crit
    span = span (x > 1 ? "," : "") sprintf("\"%d\":%.1f", ms[x], mk)
    lower = lower (x > 1 ? "," : "") sprintf("\"%d\":%.1f", ms[x], lb)
  }
  printf "{\"report\":%s,\"field\":\"%s\",\"jobs_per\":\"%s\",\"k\":%d,\"cores_per_machine\":%d,\"overhead_seconds\":%s,", \
    jsonstr(REPORT), FIELD, GROUP ? "group" : "obligation", K, C, OVERHEAD + 0
  printf "\"obligations\":%d,\"trivial\":%d,\"cached\":%d,\"jobs\":%d,", OBL, TRIVIAL, CACHED, n * K
  printf "\"cpu_seconds\":%.1f,\"critical_path_seconds\":%.3f,\"makespan_seconds\":{%s},\"lower_bound_seconds\":{%s}}\n", \
    cpu, crit, span, lower
}
' "$tmp/jobs"
