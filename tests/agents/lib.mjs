// The harness's common parts: a project under git with relay in it, the agents' isolated homes,
// a fake model server on loopback that records every request, and checks that report by name.
// Each agent's script (claude.mjs, codex.mjs, gemini.mjs, opencode.mjs) plays real sessions of
// the agent installed from npm (package.json here, pinned by package-lock.json) and exits
// non-zero when a check fails. RELAY_BIN is the relay under test; RELAY_AGENTS_DIR holds
// node_modules with the agents (tests/cli/real_agents.rs sets both).
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, mkdirSync, readFileSync, readdirSync, existsSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { join, dirname } from "node:path";

export const relayBin = process.env.RELAY_BIN;
export const agentsDir = process.env.RELAY_AGENTS_DIR;
if (!relayBin || !agentsDir) {
  console.error("set RELAY_BIN (the relay under test) and RELAY_AGENTS_DIR (npm install of tests/agents)");
  process.exit(2);
}

/** The path of an agent's executable in the npm install. */
export function agentBin(name) {
  return join(agentsDir, "node_modules", ".bin", name);
}

/** A scrubbed environment: only what a terminal needs, HOME in the scratch folder, relay and the
 * agents on PATH. Nothing of the machine's own agent configuration or credentials leaks in. */
export function baseEnv(home, extra = {}) {
  const path = [dirname(relayBin), join(agentsDir, "node_modules", ".bin"), dirname(process.execPath), "/usr/local/bin", "/usr/bin", "/bin"].join(":");
  return {
    PATH: path,
    HOME: home,
    XDG_CONFIG_HOME: join(home, ".config"),
    XDG_DATA_HOME: join(home, ".local/share"),
    XDG_STATE_HOME: join(home, ".local/state"),
    XDG_CACHE_HOME: join(home, ".cache"),
    TMPDIR: tmpdir(),
    LANG: "C.UTF-8",
    TERM: "dumb",
    NO_COLOR: "1",
    CI: "1",
    GIT_AUTHOR_NAME: "Harness", GIT_AUTHOR_EMAIL: "harness@example.com",
    GIT_COMMITTER_NAME: "Harness", GIT_COMMITTER_EMAIL: "harness@example.com",
    RELAY_ACTOR: "harness",
    ...extra,
  };
}

/** Runs a program to its end: {code, stdout, stderr}. Never throws on a non-zero exit. */
export function run(cmd, args, { cwd, env, input = "", timeoutMs = 120000 } = {}) {
  const r = spawnSync(cmd, args, { cwd, env, input, timeout: timeoutMs, encoding: "utf8", maxBuffer: 64 << 20 });
  return { code: r.status, signal: r.signal, stdout: r.stdout ?? "", stderr: (r.stderr ?? "") + (r.error ? String(r.error) : "") };
}

/** The same, asynchronously, so the fake model server in this process keeps answering while
 * the agent runs. {code, stdout, stderr}; kills the agent after timeoutMs. */
export function runAsync(cmd, args, { cwd, env, input = "", timeoutMs = 180000 } = {}) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd, env, stdio: ["pipe", "pipe", "pipe"] });
    let stdout = "", stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    const timer = setTimeout(() => { stderr += `\n[harness: killed after ${timeoutMs} ms]`; child.kill("SIGKILL"); }, timeoutMs);
    child.on("close", (code, signal) => { clearTimeout(timer); resolve({ code, signal, stdout, stderr }); });
    child.stdin.end(input);
  });
}

/** A fresh project: a git repository with one commit, relay's store in it, and a HOME beside
 * it. {root, dir, home, env, relay(args)}. */
export function makeProject(name = "agent-harness") {
  const root = mkdtempSync(join(tmpdir(), `relay-${name}-`));
  const dir = join(root, "work");
  const home = join(root, "home");
  mkdirSync(dir, { recursive: true });
  mkdirSync(home, { recursive: true });
  const env = baseEnv(home);
  const sh = (cmd, args) => {
    const r = run(cmd, args, { cwd: dir, env });
    if (r.code !== 0) throw new Error(`${cmd} ${args.join(" ")}: ${r.stderr}`);
    return r.stdout;
  };
  sh("git", ["init", "-q", "-b", "main"]);
  writeFileSync(join(dir, "README.md"), "# demo\n");
  sh("git", ["add", "README.md"]);
  sh("git", ["commit", "-q", "-m", "start"]);
  sh(relayBin, ["init", "--project", "demo"]);
  const relay = (args, opts = {}) => run(relayBin, args, { cwd: dir, env, ...opts });
  return { root, dir, home, env, relay, sh };
}

/** Every package in the project's store and queue (newest first), as `relay pull --json` gives them. */
export function packages(project) {
  const r = project.relay(["pull", "--latest", "1000", "--json"]);
  if (r.code !== 0) throw new Error(`relay pull: ${r.stderr}`);
  // One line per package, newest first: {"package": {...}, "x-stale": ...}.
  return r.stdout.split("\n").filter(Boolean).map((line) => JSON.parse(line).package);
}

/** The lines relay's hooks logged as problems (.relay/local/hooks.log), if any. */
export function hookLog(project) {
  const path = join(project.dir, ".relay/local/hooks.log");
  return existsSync(path) ? readFileSync(path, "utf8") : "";
}

/** A fake model server on 127.0.0.1: each request is recorded as {method, path, headers, body}
 * (body parsed as JSON where it is JSON) and answered by the first handler whose `match(req)`
 * is true; none matching answers 404 and is recorded too. */
export async function fakeModel(handlers) {
  const requests = [];
  const server = createServer((req, res) => {
    const chunks = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", async () => {
      const raw = Buffer.concat(chunks).toString("utf8");
      let body = raw;
      try { body = raw ? JSON.parse(raw) : null; } catch { /* not JSON */ }
      const record = { method: req.method, path: req.url, headers: req.headers, body };
      requests.push(record);
      const handler = handlers.find((h) => h.match(record));
      if (!handler) {
        res.writeHead(404, { "content-type": "application/json" });
        res.end(JSON.stringify({ error: { message: `fake model: no handler for ${req.method} ${req.url}` } }));
        return;
      }
      try {
        await handler.respond(record, res, requests);
      } catch (e) {
        if (!res.headersSent) res.writeHead(500, { "content-type": "application/json" });
        res.end(JSON.stringify({ error: { message: String(e) } }));
      }
    });
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address();
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    close: () => new Promise((resolve) => { server.closeAllConnections?.(); server.close(resolve); }),
  };
}

/** Writes a server-sent event stream: each item is [event, data] (event may be null). */
export function sse(res, events) {
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", connection: "keep-alive" });
  for (const [event, data] of events) {
    if (event) res.write(`event: ${event}\n`);
    res.write(`data: ${typeof data === "string" ? data : JSON.stringify(data)}\n\n`);
  }
  res.end();
}

/** The marker every relay briefing carries (the orient header). */
export const BRIEFING = "# Orientation: ";

/** How many times `needle` occurs in `haystack` (a string, or anything JSON-serialisable). */
export function occurrences(haystack, needle) {
  const text = typeof haystack === "string" ? haystack : JSON.stringify(haystack);
  return text.split(needle).length - 1;
}

const results = [];
/** Records a named check; `detail` is shown when it fails. */
export function check(name, ok, detail = "") {
  results.push({ name, ok: !!ok });
  console.log(`${ok ? "ok  " : "FAIL"} ${name}${ok || !detail ? "" : `\n     ${String(detail).replaceAll("\n", "\n     ")}`}`);
}

/** Prints the tally and exits: 0 when every check held. */
export function finish(agent) {
  const failed = results.filter((r) => !r.ok);
  console.log(`${agent}: ${results.length - failed.length} of ${results.length} checks held`);
  process.exit(failed.length ? 1 : 0);
}

/** Files under a folder, recursively, relative to it. */
export function filesUnder(dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => join(e.parentPath ?? e.path, e.name).slice(dir.length + 1));
}

/** The hook events of `runs` (each run's `events`: what a recorder hook kept) named `name`. */
export const eventsOf = (runs, name) => runs.flatMap((r) => r.events).filter((e) => e.hook_event_name === name);

const STAMP = /Generated (\d{4}-\d\d-\d\dT[0-9:.]+Z)/g;
/** The "Generated TIME" stamps of the briefings in a request: one per briefing, told apart. */
export const stamps = (body) => [...JSON.stringify(body).matchAll(STAMP)].map((m) => m[1]);

/** What is wrong with the briefings across `runs` (each {prompt, events, requests}, in order):
 * each SessionStart's briefing must reach the first conversation request after it (as
 * `isConversation` tells), once, and never first appear mid-turn. Empty when all holds. */
export function briefingProblems(runs, isConversation) {
  const problems = [];
  const seen = new Set();
  let pending = 0; // session starts whose briefing has not reached the model yet
  for (const r of runs) {
    pending += eventsOf([r], "SessionStart").length;
    r.requests.filter(isConversation).forEach((q, i) => {
      const s = stamps(q.body);
      if (occurrences(q.body, BRIEFING) !== s.length) problems.push(`${r.prompt}: a briefing without its Generated line`);
      if (new Set(s).size !== s.length) problems.push(`${r.prompt}, request ${i}: a briefing twice: ${s.join(", ")}`);
      const fresh = s.filter((x) => !seen.has(x));
      fresh.forEach((x) => seen.add(x));
      if (i === 0 && fresh.length !== pending) problems.push(`${r.prompt}: ${pending} session starts, ${fresh.length} new briefings in its first request`);
      if (i > 0 && fresh.length) problems.push(`${r.prompt}, request ${i}: a briefing first seen mid-turn`);
      if (i === 0) pending = 0;
    });
  }
  if (pending) problems.push(`${pending} session starts whose briefing never reached the model`);
  return problems;
}
