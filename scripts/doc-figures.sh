#!/usr/bin/env bash
# doc-figures.sh LADDER: regenerates docs/figures.md, the obligation counts
# and times (ladder prove --json) per edge and per automaton and the state
# counts (ladder explore --json) per automaton and instance, that the other
# pages link to instead of quoting numbers. Run from anywhere; it works in
# the repository root. Needs only Go and LADDER (e.g. bin/ladder).
set -euo pipefail
if [ $# -ne 1 ]; then
  echo "usage: scripts/doc-figures.sh LADDER   (e.g. scripts/doc-figures.sh bin/ladder)" >&2
  exit 2
fi
ladder=$1
case "$ladder" in
  /*) ;;
  */*) ladder="$(cd "$(dirname "$ladder")" && pwd)/$(basename "$ladder")" ;;
  *) ladder="$(command -v "$ladder")" ;;
esac
cd "$(dirname "$0")/.."
go run ./scripts/docfigures -ladder "$ladder" -out docs/figures.md
echo "wrote docs/figures.md"
