#!/usr/bin/env python3
"""The LoCoMo retrieval benchmark against relay: session-level recall of each mode, and BM25.

Driven by scripts/bench-locomo.sh, which builds relay and says what this needs. Python 3 standard
library only; rank_bm25 (PyPI `rank-bm25`) is used for the baseline when it imports, otherwise a
plain Okapi BM25 written here (k1 = 1.5, b = 0.75, the same lowercase word tokens).

For each of the ten conversations of locomo10.json: a fresh store (`relay init`), each session
imported as one package (title "<conversation> session N (<date_time>)", its turns as
"Speaker: text" lines in the description, created_at the session's date in UTC); then each
question with at least one evidence session is asked with one `relay search QUESTION --json
--limit 10 --mode M` process per mode, timed from outside. A question is a hit at k when the
package of any of its evidence sessions ("D<n>:<turn>" names session n) is in the top k.
"""

import argparse
import datetime
import hashlib
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import time

LIMIT = 10
KS = (1, 5, 10)
CATEGORIES = (1, 2, 3, 4, 5)
# How the LoCoMo paper's categories are commonly read (the data names them only by number).
CATEGORY_NAMES = {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop", 5: "adversarial"}
SPLITS = (("all ten", range(0, 10)), ("1–5 (dev)", range(0, 5)), ("6–10", range(5, 10)))
EVIDENCE = re.compile(r"D:?(\d+):\d+")
TOKEN = re.compile(r"\w+")


def sessions_of(conversation):
    """The conversation's sessions as (number, date_time, turns), in order."""
    out = []
    for key, turns in conversation.items():
        m = re.fullmatch(r"session_(\d+)", key)
        if m and isinstance(turns, list):
            n = int(m.group(1))
            out.append((n, conversation.get(f"session_{n}_date_time", ""), turns))
    return sorted(out)


def utc(date_time):
    """'1:56 pm on 8 May, 2023' as 2023-05-08T13:56:00Z (the data gives no zone: taken as UTC)."""
    t = datetime.datetime.strptime(date_time.strip(), "%I:%M %p on %d %B, %Y")
    return t.strftime("%Y-%m-%dT%H:%M:%SZ")


def session_text(turns):
    return "\n".join(f"{t['speaker']}: {t['text']}" for t in turns)


def package(sample_id, n, date_time, turns):
    digest = hashlib.sha256(f"locomo/{sample_id}/session_{n}".encode()).hexdigest()[:32]
    return {
        "package_id": f"pkg_{digest}",
        "project_id": "locomo",
        "relay_version": "0.1",
        "title": f"{sample_id} session {n} ({date_time})",
        "description": session_text(turns),
        "status": "complete",
        "package_type": "standard",
        "review_type": "none",
        "created_at": utc(date_time),
        "created_by": {"id": "locomo-bench", "type": "script"},
    }


def evidence_sessions(qa, present):
    """The session numbers a question's evidence names, among those the conversation has."""
    found = set()
    for ref in qa.get("evidence") or []:
        found.update(int(m.group(1)) for m in EVIDENCE.finditer(str(ref)))
    return found & present


def run(cmd, **kw):
    p = subprocess.run(cmd, capture_output=True, text=True, **kw)
    if p.returncode != 0:
        sys.exit(f"failed ({p.returncode}): {' '.join(cmd)}\n{p.stderr.strip()}")
    return p.stdout


class Bm25:
    """rank_bm25's BM25Okapi when it imports, else plain Okapi BM25; same tokens either way."""

    def __init__(self, docs):
        tokenized = [TOKEN.findall(d.lower()) for d in docs]
        try:
            from rank_bm25 import BM25Okapi

            self.impl = "rank_bm25 BM25Okapi (k1 = 1.5, b = 0.75, epsilon = 0.25)"
            model = BM25Okapi(tokenized, k1=1.5, b=0.75)
            self.scores = lambda q: [float(s) for s in model.get_scores(q)]
        except ImportError:
            import math

            self.impl = "plain Okapi BM25 in run.py (k1 = 1.5, b = 0.75; rank_bm25 not installed)"
            n = len(tokenized)
            avgdl = sum(map(len, tokenized)) / n
            df = {}
            for doc in tokenized:
                for w in set(doc):
                    df[w] = df.get(w, 0) + 1
            idf = {w: math.log((n - f + 0.5) / (f + 0.5) + 1) for w, f in df.items()}
            tfs = []
            for doc in tokenized:
                tf = {}
                for w in doc:
                    tf[w] = tf.get(w, 0) + 1
                tfs.append((tf, len(doc)))

            def scores(q):
                out = []
                for tf, dl in tfs:
                    s = 0.0
                    for w in q:
                        f = tf.get(w, 0)
                        if f:
                            s += idf[w] * f * 2.5 / (f + 1.5 * (0.25 + 0.75 * dl / avgdl))
                    out.append(s)
                return out

            self.scores = scores

    def search(self, query, limit):
        """Indexes of the best `limit` documents holding at least one query word."""
        scores = self.scores(TOKEN.findall(query.lower()))
        order = sorted((i for i, s in enumerate(scores) if s > 0), key=lambda i: (-scores[i], i))
        return order[:limit]


class Mcp:
    """One `relay mcp` process per store: the model loads once, as in an agent's session."""

    def __init__(self, relay, cwd, env):
        self.p = subprocess.Popen([relay, "mcp"], cwd=cwd, env=env, stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, text=True, encoding="utf-8")
        self.next_id = 0
        self.call("initialize", {"protocolVersion": "2025-06-18", "capabilities": {},
                                 "clientInfo": {"name": "bench-locomo", "version": "1"}})
        self.send({"jsonrpc": "2.0", "method": "notifications/initialized"})

    def send(self, msg):
        self.p.stdin.write(json.dumps(msg) + "\n")
        self.p.stdin.flush()

    def call(self, method, params):
        self.next_id += 1
        self.send({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params})
        while True:
            line = self.p.stdout.readline()
            if not line:
                sys.exit(f"relay mcp ended during {method}")
            msg = json.loads(line)
            if msg.get("id") == self.next_id:
                if "error" in msg:
                    sys.exit(f"relay mcp: {msg['error']}")
                return msg["result"]

    def search(self, query, mode, limit):
        result = self.call("tools/call", {"name": "pull", "arguments": {
            "mode": "relevant", "query": query, "limit": limit, "search": mode}})
        if result.get("isError"):
            sys.exit(f"relay mcp search failed: {result['content'][0]['text']}")
        return [p["package"]["package_id"]
                for p in json.loads(result["content"][0]["text"])["packages"]]

    def close(self):
        self.p.stdin.close()
        self.p.wait(timeout=30)


def summarize(rows):
    """n, R@1, R@5, R@10, MRR@10 and median latency (ms) of result rows."""
    n = len(rows)
    if n == 0:
        return None
    recall = {k: sum(1 for r in rows if r["rank"] is not None and r["rank"] <= k) / n for k in KS}
    mrr = sum(1 / r["rank"] for r in rows if r["rank"] is not None) / n
    lat = statistics.median(r["ms"] for r in rows)
    cli = [r["cli_ms"] for r in rows if r.get("cli_ms") is not None]
    return {"n": n, "recall": recall, "mrr": mrr, "ms": lat,
            "cli_ms": statistics.median(cli) if cli else None, "cli_n": len(cli)}


def pct(x):
    return f"{100 * x:.1f}%"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("data", help="locomo10.json")
    ap.add_argument("--relay", required=True, help="the relay binary")
    ap.add_argument("--work", required=True, help="a folder for the stores and the results")
    ap.add_argument("--modes", default="keyword,semantic,hybrid")
    ap.add_argument("--model", help="the model folder (semantic, hybrid), given as RELAY_MODEL")
    ap.add_argument("--commit", default="?", help="relay's commit, for the report")
    ap.add_argument("--command", default="", help="the command that ran this, for the report")
    ap.add_argument("--note", default="", help="a line about the machine, for the report")
    ap.add_argument("--door", choices=("mcp", "cli"), default="mcp",
                    help="ask through one `relay mcp` per store (mcp), or one `relay search` "
                         "process per question (cli)")
    ap.add_argument("--cli-sample", type=int, default=20,
                    help="with --door mcp, also time this many questions per store and mode as "
                         "one-shot `relay search` processes")
    args = ap.parse_args()

    modes = [m for m in args.modes.split(",") if m]
    with open(args.data, encoding="utf-8") as f:
        data = json.load(f)
    if not isinstance(data, list) or not data or "conversation" not in data[0]:
        sys.exit(f"{args.data} is not LoCoMo's locomo10.json (a list of conversations)")

    env = dict(os.environ, NO_COLOR="1", RELAY_ACTOR="locomo-bench", RELAY_ACTOR_TYPE="script")
    for var in ("RELAY_SESSION", "RELAY_PROJECT", "RELAY_DIR", "RELAY_STORE", "RELAY_MODEL"):
        env.pop(var, None)
    if args.model:
        env["RELAY_MODEL"] = args.model

    work = os.path.abspath(args.work)
    stores = os.path.join(work, "stores")
    shutil.rmtree(stores, ignore_errors=True)
    os.makedirs(stores)
    results = []  # one row per question and mode
    notes = {"skipped": [], "multi": 0, "no_answer": 0, "quoted": 0, "empty": {}, "empty_quoted": {},
             "odd_refs": [], "bm25": None}
    started = time.time()

    for ci, conv in enumerate(data):
        sid = conv.get("sample_id", f"conv-{ci + 1}")
        sessions = sessions_of(conv["conversation"])
        pkgs = [package(sid, n, dt, turns) for n, dt, turns in sessions]
        session_of = {p["package_id"]: n for p, (n, _, _) in zip(pkgs, sessions)}
        present = {n for n, _, _ in sessions}

        store = os.path.join(stores, sid)
        os.makedirs(store)
        run([args.relay, "init", "--project", "locomo", "--quiet"], cwd=store, env=env)
        stream = "".join(json.dumps(p, ensure_ascii=False) + "\n" for p in pkgs)
        run([args.relay, "import", "-", "--quiet"], cwd=store, env=env, input=stream)
        # Every vector built before the first question (else the first questions are ranked
        # by the model's static table while the transformer's are built in the background).
        if args.model:
            run([args.relay, "index", "--quiet"], cwd=store, env=env)

        questions = []
        for qi, qa in enumerate(conv["qa"]):
            ev = evidence_sessions(qa, present)
            for ref in qa.get("evidence") or []:
                if not re.fullmatch(r"D\d+:\d+", str(ref)):
                    notes["odd_refs"].append(f"{sid} #{qi + 1} {ref!r}")
            if not ev:
                notes["skipped"].append(f"{sid} #{qi + 1} {qa['question']!r} evidence {qa.get('evidence')!r}")
                continue
            notes["multi"] += len(ev) > 1
            notes["no_answer"] += qa.get("answer") in (None, "")
            notes["quoted"] += '"' in qa["question"]
            questions.append((qi, qa, ev))

        bm25 = Bm25([p["title"] + "\n" + p["description"] for p in pkgs])
        notes["bm25"] = bm25.impl
        for qi, qa, ev in questions:
            t0 = time.perf_counter()
            top = bm25.search(qa["question"], LIMIT)
            ms = 1000 * (time.perf_counter() - t0)
            ranked = [sessions[i][0] for i in top]
            rank = next((r for r, n in enumerate(ranked, 1) if n in ev), None)
            results.append({"conv": ci, "sample_id": sid, "q": qi, "category": qa["category"],
                            "mode": "bm25", "rank": rank, "ms": ms, "cli_ms": None,
                            "sessions": ranked, "evidence": sorted(ev)})

        mcp = Mcp(args.relay, store, env) if args.door == "mcp" else None
        for mode in modes:
            base = [args.relay, "search", "--json", "--limit", str(LIMIT), "--mode", mode, "--quiet"]
            # One search first, untimed: it builds the store's index (and vectors) from cold.
            run(base + ["--", "warm up"], cwd=store, env=env)
            for n, (qi, qa, ev) in enumerate(questions):
                t0 = time.perf_counter()
                if mcp:
                    ids = mcp.search(qa["question"], mode, LIMIT)
                else:
                    out = run(base + ["--", qa["question"]], cwd=store, env=env)
                    ids = [json.loads(line)["package"]["package_id"]
                           for line in out.splitlines() if line.strip()]
                ms = 1000 * (time.perf_counter() - t0)
                cli_ms = ms if not mcp else None
                if mcp and n < args.cli_sample:
                    t0 = time.perf_counter()
                    run(base + ["--", qa["question"]], cwd=store, env=env)
                    cli_ms = 1000 * (time.perf_counter() - t0)
                ranked = [session_of[i] for i in ids]
                if not ranked:
                    notes["empty"][mode] = notes["empty"].get(mode, 0) + 1
                    if '"' in qa["question"]:
                        notes["empty_quoted"][mode] = notes["empty_quoted"].get(mode, 0) + 1
                rank = next((r for r, n in enumerate(ranked, 1) if n in ev), None)
                results.append({"conv": ci, "sample_id": sid, "q": qi, "category": qa["category"],
                                "mode": mode, "rank": rank, "ms": ms, "cli_ms": cli_ms,
                                "sessions": ranked, "evidence": sorted(ev)})
        if mcp:
            mcp.close()
        print(f"# {sid}: {len(sessions)} sessions, {len(questions)} questions, "
              f"{time.time() - started:.0f} s so far", file=sys.stderr, flush=True)

    with open(os.path.join(work, "results.jsonl"), "w", encoding="utf-8") as f:
        for r in results:
            f.write(json.dumps(r) + "\n")

    all_modes = modes + ["bm25"]
    label = {m: f"relay {m}" for m in modes} | {"bm25": "BM25 baseline"}
    summary = {}
    for split, convs in SPLITS:
        for mode in all_modes:
            rows = [r for r in results if r["mode"] == mode and r["conv"] in convs]
            summary[(split, mode, "all")] = summarize(rows)
            for c in CATEGORIES:
                summary[(split, mode, c)] = summarize([r for r in rows if r["category"] == c])
    with open(os.path.join(work, "summary.json"), "w", encoding="utf-8") as f:
        json.dump([{"split": s, "mode": m, "category": c, **v}
                   for (s, m, c), v in summary.items() if v], f, indent=1)

    n_sessions = sum(len(sessions_of(c["conversation"])) for c in data)
    n_qa = sum(len(c["qa"]) for c in data)
    asked = len([r for r in results if r["mode"] == "bm25"])
    out = []
    w = out.append
    w("# LoCoMo retrieval: relay")
    w("")
    w(f"relay {args.commit}, {datetime.date.today().isoformat()}; {args.note}".rstrip("; "))
    if args.command:
        w(f"`{args.command}`")
    w("")
    served = args.door == "mcp"
    w(f"{len(data)} conversations, {n_sessions} sessions (one package each), {n_qa} questions of "
      f"which {asked} have an evidence session and are asked. Session-level recall: a hit at k "
      f"when a package of an evidence session is in the top k; MRR over the top {LIMIT}. "
      + (f"Questions are asked through one `relay mcp` per store (`pull`, mode relevant, limit "
         f"{LIMIT}): \"served\" is the median time of one call, the model loaded once. "
         f"\"One-shot\" is the median wall time of a `relay search --json --limit {LIMIT}` "
         f"process, timed on the first {args.cli_sample} questions of each store and mode. "
         if served else
         f"Latency: the median wall time of one `relay search --json --limit {LIMIT}` process. ")
      + f"BM25: scoring in the driver's process, {notes['bm25']}, over the same title and "
        f"description.")
    w("")
    w("| conversations | mode | questions | R@1 | R@5 | R@10 | MRR@10 | served | one-shot |")
    w("|---|---|---|---|---|---|---|---|---|")
    for split, _ in SPLITS:
        for mode in all_modes:
            s = summary[(split, mode, "all")]
            if not s:
                continue
            if mode == "bm25":
                lat, cli = f"{s['ms']:.2f} ms (in process)", "–"
            else:
                lat = f"{s['ms']:.1f} ms" if served else "–"
                cli = f"{s['cli_ms']:.0f} ms" if s["cli_ms"] is not None else "–"
            w(f"| {split} | {label[mode]} | {s['n']} | {pct(s['recall'][1])} | {pct(s['recall'][5])} "
              f"| {pct(s['recall'][10])} | {s['mrr']:.3f} | {lat} | {cli} |")
    for split, _ in SPLITS:
        w("")
        w(f"## By category, {split}")
        w("")
        w("| category | mode | questions | R@1 | R@5 | R@10 | MRR@10 |")
        w("|---|---|---|---|---|---|---|")
        for c in CATEGORIES:
            for mode in all_modes:
                s = summary[(split, mode, c)]
                if s:
                    w(f"| {c} {CATEGORY_NAMES[c]} | {label[mode]} | {s['n']} | {pct(s['recall'][1])} "
                      f"| {pct(s['recall'][5])} | {pct(s['recall'][10])} | {s['mrr']:.3f} |")
    w("")
    w("## Notes on the data")
    w("")
    w(f"- {notes['multi']} of the {asked} questions asked have evidence in more than one session "
      f"(any of them counts as a hit).")
    w(f"- {notes['no_answer']} have no `answer` (category 5 keeps an `adversarial_answer` "
      f"instead); they are asked all the same: retrieval needs only the evidence.")
    w(f"- {notes['quoted']} hold double quotes, which keyword search reads as phrases that must "
      f"appear word for word; the questions are passed as they are.")
    if notes["empty"]:
        w("- Searches that returned nothing (of them, questions with double quotes): " + ", ".join(
            f"{m} {n} ({notes['empty_quoted'].get(m, 0)})" for m, n in notes["empty"].items()) + ".")
    if notes["odd_refs"]:
        w(f"- {len(notes['odd_refs'])} evidence references are not of the form D<session>:<turn>; "
          f"each \"D<n>:<turn>\" (or \"D:<n>:<turn>\") in them is read, anything else ignored: "
          + "; ".join(notes["odd_refs"]) + ".")
    w(f"- {len(notes['skipped'])} questions are left out, their evidence naming no session of the "
      f"conversation{':' if notes['skipped'] else '.'}")
    for s in notes["skipped"]:
        w(f"  - {s}")
    w("")
    w(f"Took {time.time() - started:.0f} s. Per question and mode: {work}/results.jsonl.")
    report = "\n".join(out) + "\n"
    with open(os.path.join(work, "report.md"), "w", encoding="utf-8") as f:
        f.write(report)
    print(report)


if __name__ == "__main__":
    main()
