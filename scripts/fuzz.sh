#!/usr/bin/env bash
# fuzz.sh DURATION: runs every fuzz target of the module for DURATION each.
set -euo pipefail
dur=${1:-10s}
go test -list '^Fuzz' ./... 2>/dev/null | awk '
  /^Fuzz/ { names[n++] = $1; next }
  /^ok/   { for (i = 0; i < n; i++) print $2, names[i]; n = 0 }
' | while read -r pkg name; do
  echo "fuzz $pkg $name ($dur)"
  log=$(mktemp)
  if ! go test -run='^$' -fuzz="^${name}\$" -fuzztime="$dur" -fuzzminimizetime=1s "$pkg" >"$log" 2>&1; then
    cat "$log"; rm -f "$log"; exit 1
  fi
  rm -f "$log"
done
