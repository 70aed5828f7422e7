#!/usr/bin/env bash
# The web console's pages on a large store: the median time of each page over RUNS requests,
# through `relay serve` on a free loopback port, with curl. Use a store made by bench.sh or
# bench-semantic.sh (e.g. /tmp/relay-bench/semantic-1000000), and a release build:
#
#   cargo build --release --bin relay
#   bash scripts/bench-console.sh /tmp/relay-bench/semantic-1000000 [PROJECT] [RUNS]
set -euo pipefail
store=${1:?usage: bench-console.sh STORE_DIR [PROJECT] [RUNS]}
project=${2:-bench}
runs=${3:-5}
relay=${RELAY:-$(cd "$(dirname "$0")/.." && pwd)/target/release/relay}
out=$(mktemp)
(cd "$store" && exec "$relay" serve --listen 127.0.0.1:0 >"$out" 2>/dev/null) &
server=$!
trap 'kill $server 2>/dev/null; rm -f "$out"' EXIT
for _ in $(seq 50); do grep -q listening "$out" && break; sleep 0.1; done
base=$(sed -n 's/^listening on //p' "$out")
median() {
  for _ in $(seq "$runs"); do curl -s -o /dev/null -w '%{time_total}\n' "$base$1"; done |
    sort -n | awk '{v[NR]=$1} END {printf "%.0f ms\n", v[int((NR+1)/2)] * 1000}'
}
first=$(curl -s "$base/?project=$project" | grep -o '/packages/pkg_[0-9a-f]*' | head -1)
printf '%-48s %s\n' "page" "median of $runs"
for page in "/?project=$project" "/?project=$project&until=2025-01-01T00:00:00Z" \
  "/?project=$project&type=decision" "/?project=$project&tag=no-such-tag" \
  "/?project=$project&created_by=nobody" "/?project=$project&since=7d" "$first" \
  "/search?project=$project&q=database+leak" "/facts?project=$project" \
  "/orient?project=$project" "/review?project=$project"; do
  printf '%-48s %s\n' "${page/\/packages\/pkg_*/\/packages\/ID}" "$(median "$page")"
done
