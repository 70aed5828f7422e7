#!/usr/bin/env python3
"""Turns one run of scripts/bench.sh into Markdown: python3 scripts/bench_report.py RESULTS_DIR

Reads RESULTS_DIR/hf-*.json (hyperfine --export-json, relay's command first, then its peers),
RESULTS_DIR/rss/*.txt (peak RSS in KB from /usr/bin/time, one line per run) and
RESULTS_DIR/meta.json (machine, sizes, queries). MB are 10^6 bytes; times are medians.
"""

import json
import re
import sys
from pathlib import Path

MB = 1_000_000
RSS_TARGET_MB = 100
# (operation file, title, kind, what is checked): kinds are
#   latency  -- median <= limit seconds
#   search   -- median <= 1x sqlite3 FTS5, <= 1.5x rg -i and <= 1 s
#   startup  -- median within `limit` seconds of sqlite3's start
#   rate     -- bytes (a key of meta.bytes) / median >= 150 MB/s
#   deposit  -- median <= 10 ms, and <= 1.5x the same deposit into an empty store
#   none     -- no target
OPS = [
    ("import", "import", "rate", "stream"),
    ("deposit", "deposit", "deposit", None),
    ("pull_latest", "pull latest 20", "latency", 0.030),
    ("pull_specific", "pull specific", "latency", 0.030),
    ("search_rare", "relevant pull: rare word", "search", None),
    ("search_mid", "relevant pull: mid word", "search", None),
    ("search_common", "relevant pull: common word", "search", None),
    ("search_two_terms", "relevant pull: two terms", "search", None),
    ("search_three_terms", "relevant pull: three terms", "search", None),
    ("search_phrase", "relevant pull: a phrase", "search", None),
    ("search_prefix", "relevant pull: a prefix", "search", None),
    ("orient", "orient", "latency", 0.030),
    ("orient_budget", "orient --max-chars 9000 (500 packages, 200 questions, 300 facts)", "latency", 0.050),
    ("facts_get_busiest", "facts get: longest history", "latency", 0.030),
    ("facts_get_quiet", "facts get: short history", "latency", 0.030),
    ("facts_list", "facts list", "none", None),
    ("facts_history", "facts list --include-ended (every fact)", "latency", 1.0),
    ("status", "status", "latency", 0.050),
    ("startup", "process start (--version)", "startup", 0.0005),
    ("export", "export", "rate", "export"),
    ("verify", "verify", "rate", "store"),
    ("cold_search", "cold cache: first search", "rate", "store"),
    ("cold_pull_latest", "cold cache: first pull --latest 20", "rate", "store"),
    ("cold_status", "cold cache: first status (every month and the fact index)", "rate", "store"),
    ("cold_orient", "cold cache: first orient (the fact index, the lessons' types)", "rate", "store"),
    ("checkout_same", "after a checkout replaced the newest month's log, same bytes: first search", "none", None),
    ("checkout_reordered", "after a checkout reordered the newest month's log: first search", "none", None),
]
PEER_COLUMNS = ["rg", "jq", "sqlite3"]
RATE_TARGET = 150 * MB


def slug(label):
    return re.sub(r"[^A-Za-z0-9._-]", "_", label)


def duration(s):
    if s < 1e-3:
        return f"{s * 1e6:.0f} µs"
    if s < 1:
        return f"{s * 1e3:.3g} ms" if s < 0.1 else f"{s * 1e3:.0f} ms"
    return f"{s:.3g} s" if s < 100 else f"{s:.0f} s"


def rate(nbytes, s):
    return f"{nbytes / MB / s:.0f} MB/s" if s > 0 else "?"


def peak_rss_kb(res, op, label):
    path = res / "rss" / f"{op}--{slug(label)}.txt"
    if not path.is_file():
        return None
    values = [int(x) for x in path.read_text().split() if x.isdigit()]
    return max(values) if values else None


def mb(kb):
    return f"{kb / 1024:.0f} MB" if kb is not None else "—"


def column(label):
    for c in PEER_COLUMNS:
        if label.startswith(c):
            return c
    return "other"


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    res = Path(sys.argv[1])
    meta = json.loads((res / "meta.json").read_text())
    nbytes = meta["bytes"]
    rows = []
    misses = []
    for op, title, kind, check in OPS:
        path = res / f"hf-{op}.json"
        if not path.is_file():
            continue
        results = json.loads(path.read_text())["results"]
        relay, peers = results[0], results[1:]
        med = relay["median"]
        rss = peak_rss_kb(res, op, relay["command"])
        cells = {c: [] for c in PEER_COLUMNS + ["other"]}
        for p in peers:
            text = f"{p['command'].replace('|', chr(92) + '|')}: {duration(p['median'])}"
            if kind == "rate":
                text += f" = {rate(nbytes[check], p['median'])}"
            text += f" (relay ×{med / p['median']:.2f})" if p["median"] > 0 else ""
            cells[column(p["command"])].append(text)
        relay_cell = f"{duration(med)} ({duration(relay['min'])}–{duration(relay['max'])})"
        met = []
        if kind == "latency":
            target = f"≤ {check * 1e3:.0f} ms"
            met.append(med <= check)
        elif kind == "search":
            rg = next((p for p in peers if p["command"].startswith("rg")), None)
            fts = next((p for p in peers if p["command"].startswith("sqlite3 FTS5")), None)
            target = "≤ 1× FTS5, ≤ 1.5× rg -i and ≤ 1 s"
            met.append(med <= 1.0 and rg is not None and med <= 1.5 * rg["median"])
            met.append(fts is not None and med <= fts["median"])
        elif kind == "startup":
            sq = next((p for p in peers if p["command"].startswith("sqlite3")), None)
            target = f"within {check * 1e3:.1f} ms of sqlite3"
            met.append(sq is not None and med <= sq["median"] + check)
        elif kind == "rate":
            relay_cell += f" = {rate(nbytes[check], med)}"
            target = "≥ 150 MB/s"
            met.append(nbytes[check] / med >= RATE_TARGET)
        elif kind == "deposit":
            empty = next((p for p in peers if "empty" in p["command"]), None)
            ratio = med / empty["median"] if empty else float("inf")
            target = "≤ 10 ms; ≤ 1.5× empty store"
            relay_cell += f"; ×{ratio:.2f} the empty store"
            met.append(med <= 0.010 and ratio <= 1.5)
        else:
            target = "—"
        target += f"; RSS ≤ {RSS_TARGET_MB} MB"
        met.append(rss is not None and rss <= RSS_TARGET_MB * 1024)
        ok = all(met)
        if not ok:
            misses.append(title)
        rows.append(
            [title, relay_cell]
            + ["<br>".join(cells[c]) or "—" for c in PEER_COLUMNS + ["other"]]
            + [mb(rss), target, "met" if ok else "**missed**"]
        )

    m = meta["machine"]
    c = meta["corpus"]
    print(f"### {meta['size']:,} packages — {meta['date'][:10]} (relay {meta['commit']})")
    print()
    print(
        f"Machine: {m['nproc']} cores ({m['cpu']}), {m['ram_gib']} GiB RAM, {m['kernel']}, "
        f"{m['filesystem']} under `{meta['work']}`; {m['rustc']}; {m['tools']}."
    )
    print()
    print(
        f"Corpus: seed {meta['seed']}, {c['packages']:,} packages from {c['first'][:10]} to "
        f"{c['end'][:10]}, {c['facts']:,} facts over {c['fact_keys']:,} keys, "
        f"{c['sessions']:,} sessions. Stream {nbytes['stream'] / MB:,.0f} MB; store "
        f"{nbytes['store'] / MB:,.0f} MB (+ cache/ {nbytes['cache'] / MB:,.0f} MB); "
        f"export {nbytes['export'] / MB:,.0f} MB; sqlite3 database "
        f"{nbytes['sqlite'] / MB:,.0f} MB."
        + (f" Generation: {meta['generate'].split()[0]} s." if meta.get("generate") else "")
    )
    q = meta["queries"]
    print()
    print(
        "Queries: "
        + ", ".join(f"{k.replace('_', ' ')} `{v}`" for k, v in q.items())
        + f"; pull specific `{meta['package']}`; facts get `{meta['fact_key']}` "
        "(the key with the longest history, and one with a short one)."
    )
    print()
    header = ["operation", "relay median (min–max)", "rg", "jq", "sqlite3", "other",
              "relay peak RSS", "target", "met?"]
    print("| " + " | ".join(header) + " |")
    print("|" + "---|" * len(header))
    for r in rows:
        print("| " + " | ".join(r) + " |")
    print()
    print(
        "Peer cells: median, and relay's median divided by the peer's (below 1: relay is "
        "faster). Targets are the issue's, set for the 1M store; RSS is relay's peak, "
        "from /usr/bin/time."
    )
    print()
    print(f"Missed: {', '.join(misses)}." if misses else "Every target met.")
    for name, title in [("watch-start.md", "relay watch start-up (target ≤ 200 ms)"),
                        ("http-load.md", "relay serve, 16 writers and 4 readers for 60 s "
                                         "(target p99 ≤ 100 ms, rate flat)")]:
        extra = res / name
        if extra.is_file():
            print()
            print(f"#### {title}")
            print()
            print(extra.read_text().rstrip())


if __name__ == "__main__":
    main()
