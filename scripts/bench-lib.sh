# bench-lib.sh [LADDER_BINARY], sourced by the bench scripts: sets root
# (the repository), tmp (a directory removed on exit) and bin (the ladder
# binary: the argument made absolute, or one built into tmp).
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

bin=${1:-}
if [ -z "$bin" ]; then
  bin=$tmp/ladder
  (cd "$root" && go build -o "$bin" ./cmd/ladder)
fi
bin=$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")
