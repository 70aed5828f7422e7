#!/usr/bin/env python3
"""The worst corpus shape beside the typical one, for every operation of scripts/bench.sh:
python3 scripts/bench_shapes.py BENCH_DIR SIZE SHAPE...

Reads BENCH_DIR/results-SIZE[-SHAPE]/ (hf-*.json and meta.json; the default shape has no
suffix) and prints a Markdown table: for each operation, relay on the project's own corpus and
on the shape where it fares worst. A rate (import, export, verify, the cold cache) is relay's
MB/s of the store; anything else is relay's median and its ratio to the peer its target names
(sqlite3 FTS5 for a search, sqlite3 otherwise, else the first peer), taken within one run.
"""

import json
import sys
from pathlib import Path

from bench_report import MB, OPS, duration


def judged(results, kind, nbytes):
    """(how bad, the cell): a higher first value is a worse result."""
    relay = results[0]
    med = relay["median"]
    if kind == "rate":
        speed = nbytes / med / MB if med > 0 else 0.0
        return -speed, f"{duration(med)} = {speed:.0f} MB/s"
    want = "sqlite3 FTS5" if kind == "search" else "sqlite3"
    peers = [p for p in results[1:] if not p["command"].startswith("relay")]
    peer = next((p for p in peers if p["command"].startswith(want)), peers[0] if peers else None)
    if peer is None or peer["median"] <= 0:
        return med, duration(med)
    r = med / peer["median"]
    return r, f"{duration(med)} (×{r:.2f} {peer['command']})"


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    work, size, shapes = Path(sys.argv[1]), sys.argv[2], sys.argv[3:]
    dirs = {s: work / (f"results-{size}" + ("" if s == "default" else f"-{s}")) for s in shapes}
    print("| operation | the project's corpus | worst shape | on it |")
    print("|---|---|---|---|")
    for op, title, kind, check in OPS:
        seen = {}
        for shape, d in dirs.items():
            path = d / f"hf-{op}.json"
            if not path.is_file():
                continue
            nbytes = 0
            if kind == "rate":
                nbytes = json.loads((d / "meta.json").read_text())["bytes"][check]
            seen[shape] = judged(json.loads(path.read_text())["results"], kind, nbytes)
        if not seen:
            continue
        worst = max(seen, key=lambda s: seen[s][0])
        typical = seen["default"][1] if "default" in seen else "—"
        print(f"| {title} | {typical} | {worst} | {seen[worst][1]} |")


if __name__ == "__main__":
    main()
