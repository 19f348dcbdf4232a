#!/usr/bin/env bash
# scale-repo.sh writes a synthetic hierarchy N times the repository's into
# DEST: N copies of specs/, algorithms/ and proofs/ with their objects/
# subdirectories (their YAML files, not their testdata), copy k in DEST/copyk/ with every automaton and interface
# renamed NAME_k, so that the copies are independent automata and edges of
# the same shapes. `make bench` proves it to measure how the cost of a run
# after an edit grows with the repository.
#
# Usage: scripts/scale-repo.sh DEST N
set -euo pipefail
dest=${1:?usage: scale-repo.sh DEST N}
n=${2:?usage: scale-repo.sh DEST N}
root=$(cd "$(dirname "$0")/.." && pwd)

# The names to rename: every automaton and interface of the repository.
names=$(cd "$root" && grep -h -E '^(automaton|interface): *[A-Za-z_][A-Za-z0-9_]*$' specs/*.yaml algorithms/*.yaml \
  specs/objects/*.yaml algorithms/objects/*.yaml |
  sed -E 's/^[a-z]+: *//' | sort -u | paste -sd'|' -)

for k in $(seq 1 "$n"); do
  # the concurrent objects live one directory down and name their files
  # by relative paths (../../specs/objects/…), which the copy keeps
  for d in specs algorithms proofs specs/objects algorithms/objects proofs/objects; do
    mkdir -p "$dest/copy$k/$d"
    for f in "$root/$d"/*.yaml; do
      # a file named after an automaton is renamed with it: proofs name
      # their automata's files
      out=$(basename "$f" | perl -pe "s/^($names)\\.yaml\$/\${1}_$k.yaml/")
      perl -pe "s/\\b($names)\\b/\${1}_$k/g" "$f" >"$dest/copy$k/$d/$out"
    done
  done
done
