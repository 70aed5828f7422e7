#!/usr/bin/env bash
# Relevant pull against `rg -i` on the same files, and orient on a young and an old store with
# the same recent activity. Opt-in (minutes, ~1 GB of disk): bash scripts/bench-search.sh [N]
# Needs rg and hyperfine (Debian: apt-get install ripgrep hyperfine).
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-1000000}
work=${BENCH_DIR:-/tmp/relay-bench}
cargo build --release --quiet --bin relay --example gen_corpus
relay=$PWD/target/release/relay
gen=$PWD/target/release/examples/gen_corpus
if [ ! -d "$work/old-$n/.relay" ]; then
  "$gen" --packages "$n" --months 36 --store "$work/old-$n/.relay"
fi
# The same density per month as the old store, but only one month old.
young=$(( n / 36 ))
if [ ! -d "$work/young-$young/.relay" ]; then
  "$gen" --packages "$young" --months 1 --store "$work/young-$young/.relay"
fi
cd "$work/old-$n"
logs=.relay/projects/bench/packages
cat "$logs"/*.ndjson > /dev/null   # warm the page cache
rm -rf .relay/cache
/usr/bin/time -f "## first search with no cache/ (builds the index): %e s, peak RSS %M KB" \
  "$relay" search memory leak --limit 5 --json > /dev/null
echo "   index size: $(du -sh .relay/cache | cut -f1)"
echo "## relevant pull vs rg -i, $n packages ($(du -sh "$logs" | cut -f1))"
for q in "vosexzuost" "renbragen latency" "dashboard" "memory leak"; do
  pat=$(echo "$q" | sed 's/ /|/g')
  # --output=pipe: rg goes quiet when it sees /dev/null, and relay must print too.
  hyperfine --style basic --output=pipe -w 2 -r 10 \
    -n "relay search $q" "$relay search $q --limit 5 --json" \
    -n "rg -i '$pat'" "rg -i '$pat' $logs --no-filename" 2>&1 | grep -E '^(Benchmark|  Time|  Range|    [0-9.]+ ±|Summary|  relay|  rg)' || true
  /usr/bin/time -f "  peak RSS of relay search: %M KB" "$relay" search $q --limit 5 --json > /dev/null
done
echo "## orient --window-days 40: a store 36 months old vs one month old, same recent activity"
for d in "$work/old-$n" "$work/young-$young"; do
  (cd "$d" && hyperfine --style basic --output=pipe -w 1 -r 5 -n "orient in $(basename "$d")" "$relay orient --window-days 40 --json" 2>&1 | grep -E '^(Benchmark|  Time|  Range)')
done
