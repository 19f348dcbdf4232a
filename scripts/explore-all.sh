#!/usr/bin/env bash
# explore-all.sh LADDER: explores every shipped automaton on small instances,
# checking all its invariants in every reachable state. Exits non-zero on the
# first violation or error.
set -euo pipefail
ladder=${1:-bin/ladder}
run() {
  echo "== ladder explore $*"
  "$ladder" explore "$@"
}
# The acceptance instance of TMS2, and the TMS2 family on a smaller one
# (T=2,L=2,V=2 takes minutes for each), with the serializability and
# opacity specifications. (TMS2 at T=3,L=2,V=2, explored exhaustively with
# both reductions, is in make bench: scripts/bench-spin.sh, its last line.)
run specs/TMS2.yaml --bound T=2,L=2,V=2
for f in specs/TxnOrdTMS2.yaml specs/TxnOrdTMS2WithFailures.yaml specs/ReservationTMS2.yaml \
  specs/CommitSer.yaml specs/StrictSerializability.yaml specs/Opacity.yaml; do
  run "$f" --bound T=2,L=1,V=2
done
for f in algorithms/*.yaml; do
  [ -e "$f" ] || continue
  grep -q '^automaton:' "$f" || continue
  run "$f" --bound T=2,L=1,V=2
done
# the concurrent objects: T threads, L memory locations (which bound the
# pushes and enqueues), V values
for f in algorithms/objects/*.yaml; do
  [ -e "$f" ] || continue
  case "$f" in
    # its clock orders every enqueue's steps: two enqueues (166,629 states)
    */HWQueueHist.yaml) run "$f" --bound T=2,L=2,V=2 ;;
    *) run "$f" --bound T=2,L=3,V=2 ;;
  esac
done
# POQueue's enqueues are unbounded: explored to a depth
run specs/objects/POQueue.yaml --bound T=2,L=1,V=2 --max-depth 12
run docs/examples/mutex/TicketLock.yaml --bound P=3
run docs/examples/mutex/Mutex.yaml --bound P=3
