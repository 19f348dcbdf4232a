#!/usr/bin/env bash
# bench-watch.sh measures `ladder watch` from a save to the verdicts on
# screen: in the current directory (a repository whose cache is warm), it
# starts `ladder watch PATHS`, waits for its first report, then makes each
# scripted edit in turn (replace the first line of FILE equal to FROM by TO)
# and times the interval from the write to the summary line of the run it
# triggers. That interval includes the watcher's wait for the file to
# stop changing (20 ms after the system's report of the change on Linux,
# one 100 ms polling interval elsewhere).
# Between two edits it waits WATCH_PAUSE seconds (default 5), the pause of
# a user between two saves, in which the watcher looks for the cores of
# the obligations it proved again (docs/cli.md, ladder watch).
#
# Usage: scripts/bench-watch.sh LADDER CACHE_DIR JOBS PATHS -- FILE FROM TO [FILE FROM TO ...]
# It prints one JSON line: {"watch_edits":[{"file":…,"seconds":…,"rechecked":…},…]}.
set -euo pipefail
bin=$1 cache=$2 jobs=$3
shift 3
paths=()
while [ "$#" -gt 0 ] && [ "$1" != "--" ]; do
  paths+=("$1")
  shift
done
shift

out=$(mktemp)
"$bin" watch "${paths[@]}" -j "$jobs" --cache-dir "$cache" >"$out" 2>&1 &
pid=$!
trap 'kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; rm -f "$out"' EXIT

# summaries prints how many summary lines the watcher has printed.
summaries() { grep -c '^[0-9]* obligations: ' "$out" || true; }

# wait_for N waits (at most 10 minutes) until the watcher has printed N
# summary lines.
wait_for() {
  local i
  for ((i = 0; i < 60000; i++)); do
    [ "$(summaries)" -ge "$1" ] && return 0
    kill -0 "$pid" 2>/dev/null || { echo "bench-watch: ladder watch exited:" >&2; cat "$out" >&2; exit 1; }
    sleep 0.01
  done
  echo "bench-watch: no report after 10 minutes" >&2
  exit 1
}

wait_for 1
n=1
sep=""
printf '{"watch_edits":['
while [ "$#" -ge 3 ]; do
  file=$1 from=$2 to=$3
  shift 3
  if ! grep -qxF -- "$from" "$file"; then
    echo "bench-watch: $file has no line '$from'" >&2
    exit 1
  fi
  awk -v from="$from" -v to="$to" '!done && $0 == from { print to; done = 1; next } { print }' "$file" >"$file.new"
  start=$(date +%s.%N)
  mv "$file.new" "$file"
  n=$((n + 1))
  wait_for "$n"
  end=$(date +%s.%N)
  rechecked=$(grep '^[0-9]* obligations: ' "$out" | tail -1 | sed -E 's/.*re-checked ([0-9]+).*/\1/')
  printf '%s{"file":"%s","seconds":%s,"rechecked":%s}' "$sep" "$file" \
    "$(awk -v s="$start" -v e="$end" 'BEGIN { printf "%.3f", e - s }')" "$rechecked"
  sep=","
  # the time between two saves, in which the watcher looks for the cores
  # of the obligations it proved again (WATCH_PAUSE seconds, default 5)
  sleep "${WATCH_PAUSE:-5}"
done
printf ']}\n'
