#!/usr/bin/env bash
# Every row of scripts/bench.sh on every corpus shape (BENCH_SHAPE: the project's own, then the
# vocabulary, Zipf exponent, text length and id shapes), then one table of the worst shape
# beside the typical one (scripts/bench_shapes.py). Opt-in, not part of cargo test; at 1M each
# shape takes about an hour and its own corpus, store and peer database (~8 GB each).
#
#   bash scripts/bench_shapes.sh [SIZE] [SHAPE...]     SIZE as for bench.sh (1000000)
#
# The other BENCH_* variables of bench.sh apply to every shape.
set -euo pipefail
cd "$(dirname "$0")/.."
size=${1:-1000000}
shift || true
shapes=("$@")
if [ ${#shapes[@]} -eq 0 ]; then
  shapes=(default vocab1k vocab30k vocab300k zipf0.8 zipf1.4 words10 words50 words500
    ids-sequential ids-uuid ids-prefix)
fi
for shape in "${shapes[@]}"; do
  echo "# shape $shape"
  BENCH_SHAPE=$shape bash scripts/bench.sh "$size"
done
table=${BENCH_DIR:-/tmp/relay-bench}/shapes-$size.md
python3 scripts/bench_shapes.py "${BENCH_DIR:-/tmp/relay-bench}" "$size" "${shapes[@]}" | tee "$table"
echo "# table in $table"
