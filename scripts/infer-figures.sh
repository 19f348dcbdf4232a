#!/usr/bin/env bash
# infer-figures.sh LADDER: regenerates docs/infer-figures.md, what `ladder
# infer --compare` finds on every automaton of specs/ and algorithms/ and
# which of the invariants written in each file it recovers (see
# scripts/inferfigures). Run from anywhere; it works in the repository
# root. Environment: MAX_TIME (ladder infer --max-time per automaton,
# default 10m), JOBS (-j, default 2), ONLY (a regular expression over the
# files: infer only those, without writing the page), RESULTS (a directory
# keeping each file's JSON, so that an interrupted run resumes).
set -euo pipefail
if [ $# -ne 1 ]; then
  echo "usage: scripts/infer-figures.sh LADDER   (e.g. scripts/infer-figures.sh bin/ladder)" >&2
  exit 2
fi
ladder=$1
case "$ladder" in
  /*) ;;
  */*) ladder="$(cd "$(dirname "$ladder")" && pwd)/$(basename "$ladder")" ;;
  *) ladder="$(command -v "$ladder")" ;;
esac
cd "$(dirname "$0")/.."
go run ./scripts/inferfigures -ladder "$ladder" -max-time "${MAX_TIME:-10m}" -j "${JOBS:-2}" -only "${ONLY:-}" -results "${RESULTS:-}"
[ -n "${ONLY:-}" ] || echo "wrote docs/infer-figures.md"
