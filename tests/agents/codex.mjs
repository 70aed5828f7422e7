// Real Codex CLI (npm @openai/codex, `codex exec` and `codex exec resume`) against a fake OpenAI
// Responses API on loopback, with relay's hooks installed by `relay hook install --codex`. Codex
// runs a project's .codex/hooks.json only in a trusted project and only the hooks whose hash the
// user trusted; the rest it drops without a word. This script trusts them the way Codex's own
// "Trust all and continue" does, computed here from the hooks.json bytes (trustToml below), and
// proves, inside the real agent:
//  0. hook trust: with no trust entries relay's briefing never reaches the model (4.), with
//     --dangerously-bypass-hook-trust it does, and with only the computed config.toml entries it
//     does too (1.), so the recipe is exactly what Codex checks;
//  1. relay's SessionStart briefing reaches the model once per session start (startup, resume,
//     the compaction), never twice;
//  2. each run's end (every `codex exec` is one) deposits its work once: one auto_deposit naming
//     the file it wrote, the work of a later `codex exec resume` as a package of its own; a run
//     that changes nothing deposits nothing; Codex finds nothing to warn about in relay's
//     hooks.json;
//  3. an automatic compaction (PreCompact, trigger auto) leaves one checkpoint: x-agent codex,
//     x-agent-session = the session, x-working-on = the last prompt typed before it;
//  4. without hook trust no briefing reaches the model (while Codex does run trusted hooks);
//  5. `relay doctor`, reading the same CODEX_HOME, calls the four hooks ok where Codex runs them
//     and warns where it does not (the project trusted, the hooks never reviewed);
//  6. .relay/local/hooks.log stays empty.
// Besides relay's hooks, a recorder in $CODEX_HOME/hooks.json (user level, trusted the same way)
// keeps every event's stdin; a proxy on loopback catches any attempt to reach another host.
import { createHash } from "node:crypto";
import { createServer } from "node:http";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  makeProject, fakeModel, runAsync, agentBin, packages, hookLog, check, finish, BRIEFING, occurrences,
  eventsOf, briefingProblems,
} from "./lib.mjs";
import { responsesHandlers, inputItems, itemText, isResponses } from "./protocols/openai_responses.mjs";

const started = Date.now();

// ---- Codex's hook trust, as 0.171.0 computes it (codex-rs/hooks/src/engine/discovery.rs).
// Key: "<absolute path of the hooks.json>:<event in snake_case>:<group index>:<handler index>".
// Hash: "sha256:" + hex SHA-256 of the compact JSON, keys sorted at every level, of
// {event_name, hooks: [the normalized handler]}: type, command, timeout (default 600, at least 1;
// SessionEnd and Interrupt default 1 and are clamped to 1..3), async (always, false by default),
// statusMessage only when set. (Matchers and additionalContextLimit also enter the hash; relay's
// hooks have neither, so this script refuses them rather than guess.)
const snake = (event) => event.replace(/(?<=[a-z])([A-Z])/g, "_$1").toLowerCase();
const sorted = (v) => (Array.isArray(v) ? v.map(sorted) : v && typeof v === "object" ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, sorted(v[k])])) : v);
function hookHash(event, handler) {
  if (handler.type !== "command" || handler.additionalContextLimit !== undefined) throw new Error(`not a plain command hook: ${JSON.stringify(handler)}`);
  const short = event === "SessionEnd" || event === "Interrupt";
  const timeout = short ? Math.min(Math.max(handler.timeout ?? 1, 1), 3) : Math.max(handler.timeout ?? 600, 1);
  const normalized = { type: "command", command: handler.command, timeout, async: handler.async === true };
  if (handler.statusMessage != null) normalized.statusMessage = handler.statusMessage;
  const identity = JSON.stringify(sorted({ event_name: snake(event), hooks: [normalized] }));
  return `sha256:${createHash("sha256").update(identity).digest("hex")}`;
}
/** The config.toml tables that trust every hook of a hooks.json file. */
function trustToml(hooksFile) {
  const { hooks } = JSON.parse(readFileSync(hooksFile, "utf8"));
  return Object.entries(hooks).flatMap(([event, groups]) => groups.flatMap((group, g) => {
    if (group.matcher !== undefined) throw new Error(`${event}: a matcher, which this recipe does not cover`);
    return group.hooks.map((handler, h) => `[hooks.state.${JSON.stringify(`${hooksFile}:${snake(event)}:${g}:${h}`)}]\ntrusted_hash = "${hookHash(event, handler)}"\n`);
  })).join("\n");
}

// ---- What the fake model says: replies keyed by the last prompt typed, then by how many tool
// outputs came back since it. Codex runs shell commands through its exec_command tool.
const P_WRITE = "Write login.rs with a login function";
const P_EXPLAIN = "Explain login.rs in one line";
const P_TEST = "Add a test for login";
const P_IDLE = "What does README.md say?";
const shell = (cmd) => ({ calls: [{ name: "exec_command", arguments: { cmd } }] });
const SCRIPT = {
  [P_WRITE]: [() => shell("printf 'pub fn login() -> bool {\\n    true\\n}\\n' > login.rs"), () => ({ text: "login.rs now has a login function." })],
  // Reports a context past model_auto_compact_token_limit, so the next turn starts by compacting.
  [P_EXPLAIN]: [() => ({ text: "login() returns true.", usage: { input_tokens: 50000 } })],
  [P_TEST]: [() => shell("printf '#[test]\\nfn logs_in() { assert!(login()); }\\n' > login_test.rs"), () => ({ text: "Added login_test.rs." })],
  [P_IDLE]: [() => ({ text: "It says: # demo" })],
};
const SUMMARY = "login.rs has pub fn login() -> bool; the user asked for it and for a one-line explanation.";

/** "compaction" (Codex's summary request, which it labels in its turn metadata) or "conversation". */
function kind(r) {
  let meta = {};
  try { meta = JSON.parse(r.body?.client_metadata?.["x-codex-turn-metadata"] ?? "{}"); } catch { /* not Codex's */ }
  return meta.request_kind === "compaction" ? "compaction" : "conversation";
}
const typed = (item) => item.role === "user" && !/^(<|Another language model started)/.test(itemText(item));
function reply(r) {
  if (kind(r) === "compaction") return { text: SUMMARY };
  const items = inputItems(r);
  const at = items.findLastIndex(typed);
  const outputs = items.slice(at + 1).filter((i) => i.type === "function_call_output").length;
  const steps = SCRIPT[itemText(items[at])] ?? [() => ({ text: "ok" })];
  return steps[Math.min(outputs, steps.length - 1)]();
}

// ---- The loopback world: the fake model, and a proxy that refuses (and notes) every other host.
const handlers = responsesHandlers(reply);
const model = await fakeModel(handlers);
const foreign = [];
const proxy = createServer((req, res) => { foreign.push(`${req.method} ${req.url}`); res.writeHead(502).end(); });
proxy.on("connect", (req, socket) => { foreign.push(`CONNECT ${req.url}`); socket.end("HTTP/1.1 502 Bad Gateway\r\n\r\n"); });
await new Promise((resolve) => proxy.listen(0, "127.0.0.1", resolve));
const proxyUrl = `http://127.0.0.1:${proxy.address().port}`;

/** A project with relay's Codex hooks, and its own CODEX_HOME: the fake provider, the project
 * trusted, a recorder hook, and hook trust per `trust` ("recipe": relay's hooks trusted by the
 * computed entries; "none": not trusted; the recorder is trusted either way). */
function codexProject(name, trust) {
  const project = makeProject(name);
  const install = project.relay(["hook", "install", "--codex"]);
  if (install.code !== 0) throw new Error(`relay hook install --codex: ${install.stderr}`);
  const home = join(project.root, "codex-home");
  mkdirSync(home);
  project.events = join(project.root, "events.jsonl");
  const record = { hooks: [{ type: "command", command: `{ cat; echo; } >> '${project.events}'`, timeout: 3 }] };
  const events = ["SessionStart", "UserPromptSubmit", "PreCompact", "PostCompact", "Stop", "SessionEnd"];
  writeFileSync(join(home, "hooks.json"), JSON.stringify({ hooks: Object.fromEntries(events.map((e) => [e, [record]])) }, null, 2));
  const config = [
    'model = "fake-model"', 'model_provider = "fake"', "model_auto_compact_token_limit = 20000", "check_for_update_on_startup = false", "",
    "[model_providers.fake]", 'name = "fake"', `base_url = "${model.url}/v1"`, 'wire_api = "responses"', 'env_key = "FAKE_OPENAI_KEY"', "",
    "[analytics]", "enabled = false", "",
    // Plugins sync a curated catalogue from github.com and chatgpt.com at every start.
    "[features]", "plugins = false", "",
    `[projects.${JSON.stringify(project.dir)}]`, 'trust_level = "trusted"', "",
    trustToml(join(home, "hooks.json")),
    trust === "recipe" ? trustToml(join(project.dir, ".codex/hooks.json")) : "",
  ];
  writeFileSync(join(home, "config.toml"), config.join("\n"));
  project.agentEnv = {
    ...project.env, CODEX_HOME: home, FAKE_OPENAI_KEY: "sk-harness-dummy",
    HTTPS_PROXY: proxyUrl, HTTP_PROXY: proxyUrl, https_proxy: proxyUrl, http_proxy: proxyUrl, NO_PROXY: "127.0.0.1,localhost", no_proxy: "127.0.0.1,localhost",
  };
  return project;
}

const runs = [];
/** One `codex exec` process: {prompt, code, threadId, events (hook stdins), requests, ms}. */
async function codex(project, prompt, { resume, args = [] } = {}) {
  writeFileSync(project.events, "");
  const first = model.requests.length, t0 = Date.now();
  const argv = ["exec", "--json", "--sandbox", "workspace-write", ...args, ...(resume ? ["resume", resume] : []), prompt];
  const r = await runAsync(agentBin("codex"), argv, { cwd: project.dir, env: project.agentEnv, timeoutMs: 60000 });
  const lines = r.stdout.split("\n").filter((l) => l.startsWith("{")).map((l) => JSON.parse(l));
  const events = readFileSync(project.events, "utf8").split("\n").filter((l) => l.trim()).map((l) => JSON.parse(l));
  const result = { prompt, code: r.code, threadId: lines.find((l) => l.type === "thread.started")?.thread_id, output: lines, events, requests: model.requests.slice(first), ms: Date.now() - t0 };
  runs.push(result);
  const names = events.map((e) => e.hook_event_name + (e.source ? `(${e.source})` : e.trigger ? `(${e.trigger})` : "")).join(" ");
  console.log(`# codex exec ${resume ? "resume " : ""}${JSON.stringify(prompt)}: exit ${r.code} in ${result.ms} ms; requests [${result.requests.map(kind).join(",")}]; hooks ${names}`);
  if (r.code !== 0 || !result.threadId) console.log(`  stdout: ${r.stdout.slice(0, 800)}\n  stderr: ${r.stderr.slice(0, 800)}`);
  return result;
}

const byType = (project, type) => packages(project).filter((p) => p.package_type === type);
const names = (p) => (p.deliverables ?? []).map((d) => d.path);
const briefings = (rs) => rs.flatMap((r) => r.requests).reduce((n, q) => n + occurrences(q.body, BRIEFING), 0);

// ---- Session A (hooks trusted by the recipe): write a file; resume and explain (the reply
// reports a big context); resume and add a test, which compacts first; then a session that
// changes nothing beside the uncommitted files. Project B: one session that changes nothing.
const A = codexProject("codex", "recipe");
const write = await codex(A, P_WRITE);
const sid = write.threadId;
const explain = await codex(A, P_EXPLAIN, { resume: sid });
const test = await codex(A, P_TEST, { resume: sid });
const sessionA = [write, explain, test];
const idleA = await codex(A, P_IDLE);
const B = codexProject("codex-idle", "recipe");
const idleB = await codex(B, P_IDLE);

check("harness: every codex exec of session A exits 0 in the same thread",
  sessionA.every((r) => r.code === 0 && r.threadId === sid), sessionA.map((r) => `${r.prompt}: exit ${r.code}, thread ${r.threadId}`).join("\n"));
check("harness: the agent wrote login.rs and login_test.rs with exec_command",
  existsSync(join(A.dir, "login.rs")) && existsSync(join(A.dir, "login_test.rs")));
check("Codex fires SessionStart (startup, resume, resume+compact) and SessionEnd once per codex exec",
  JSON.stringify(sessionA.map((r) => eventsOf([r], "SessionStart").map((e) => e.source))) === JSON.stringify([["startup"], ["resume"], ["resume", "compact"]])
    && sessionA.every((r) => eventsOf([r], "SessionEnd").length === 1 && eventsOf([r], "SessionEnd")[0].session_id === sid),
  sessionA.map((r) => r.events.map((e) => JSON.stringify(e)).join("\n")).join("\n--\n"));

const hookWarnings = sessionA.flatMap((r) => r.output).filter((l) => l.item?.type === "error" && l.item.message.includes(".codex/hooks.json"));
check("Codex reports no problem with relay's .codex/hooks.json (it warns in every session of a SessionEnd timeout over its 3 s)",
  hookWarnings.length === 0, [...new Set(hookWarnings.map((l) => l.item.message))].join("\n"));

// 1. The briefing: each SessionStart's (told apart by its "Generated" stamp) reaches the first
// conversation request after it, exactly once; compaction requests only carry history.
{
  const problems = briefingProblems(sessionA, (q) => kind(q) === "conversation");
  const first = write.requests.find((q) => kind(q) === "conversation");
  check("1. with the recipe's trust the briefing reaches the model once per session start (startup, resume, compact), never twice",
    first && occurrences(first.body, BRIEFING) === 1 && eventsOf(sessionA, "SessionStart").length === 4 && problems.length === 0,
    [`session starts: ${eventsOf(sessionA, "SessionStart").length}`, ...problems].join("\n"));
  check("1. the briefing after the compaction leads with \"Where you left off\"",
    test.requests.filter((q) => kind(q) === "conversation").every((q) => occurrences(q.body, "Where you left off") === 1));
}

// 2. The session's deposit: one auto_deposit naming what it wrote; idle sessions deposit nothing.
{
  const mine = byType(A, "auto_deposit").filter((p) => p["x-agent-session"] === sid);
  // Each `codex exec` is a run (SessionStart to SessionEnd): the first wrote login.rs, the
  // second (explain) changed nothing, the third wrote login_test.rs.
  const first = mine.filter((p) => names(p).join() === "login.rs");
  check("2. the first run's end leaves exactly one auto_deposit naming login.rs (x-agent codex)",
    first.length === 1 && first[0]["x-agent"] === "codex",
    JSON.stringify(mine.map((p) => ({ id: p.package_id, title: p.title, files: names(p) }))));
  // Stop, the one hook whose only trace is a count: the run's turns in the deposit.
  check("2. the trusted Stop hook ran: the deposit counts the run's turn",
    first.length === 1 && first[0].description.includes("1 turn from"), first[0]?.description);
  check("2. the work done after `codex exec resume` (login_test.rs) is deposited too, once, as its own run",
    mine.length === 2 && mine.filter((p) => names(p).join() === "login_test.rs").length === 1,
    JSON.stringify(mine.map((p) => ({ title: p.title, files: names(p), description: p.description })), null, 1));
  check("2. a new session beside files left uncommitted (and not touched again) deposits nothing",
    idleA.code === 0 && idleA.threadId !== sid && eventsOf([idleA], "SessionEnd").length === 1
      && byType(A, "auto_deposit").every((p) => p["x-agent-session"] !== idleA.threadId),
    JSON.stringify(byType(A, "auto_deposit").map((p) => [p["x-agent-session"], p.title])));
  check("2. a session that changes nothing in a clean project deposits nothing",
    idleB.code === 0 && eventsOf([idleB], "SessionEnd").length === 1 && packages(B).length === 0,
    JSON.stringify(packages(B).map((p) => [p.package_type, p.title])));
}

// 3. The compaction: Codex compacts before the third turn (PreCompact, trigger auto), while the
// last prompt in its transcript is still P_EXPLAIN (P_TEST enters the transcript after it).
{
  const checkpoints = byType(A, "x-checkpoint");
  const cp = checkpoints[0] ?? {};
  check("3. the reported context past model_auto_compact_token_limit makes Codex compact (PreCompact auto, a compaction request)",
    eventsOf([test], "PreCompact").length === 1 && eventsOf([test], "PreCompact")[0].trigger === "auto" && test.requests.some((q) => kind(q) === "compaction")
      && eventsOf([write, explain], "PreCompact").length === 0,
    runs.map((r) => `${r.prompt}: ${r.events.map((e) => e.hook_event_name).join(" ")}`).join("\n"));
  check("3. one checkpoint: x-agent codex, x-agent-session = the session, x-working-on = the last prompt typed",
    checkpoints.length === 1 && cp["x-agent"] === "codex" && cp["x-agent-session"] === sid && cp["x-working-on"] === P_EXPLAIN,
    `session ${sid}; checkpoints: ${JSON.stringify(checkpoints, null, 1)}`);
}

// 4. Without hook trust (project trusted, relay's hooks not): Codex runs the trusted recorder and
// drops relay's hooks silently; with --dangerously-bypass-hook-trust it runs them.
const C = codexProject("codex-untrusted", "none");
const untrusted = await codex(C, P_WRITE);
check("4. without hook trust Codex still runs trusted hooks (the recorder saw SessionStart and SessionEnd)",
  untrusted.code === 0 && eventsOf([untrusted], "SessionStart").length === 1 && eventsOf([untrusted], "SessionEnd").length === 1 && existsSync(join(C.dir, "login.rs")),
  untrusted.events.map((e) => e.hook_event_name).join(" "));
check("4. without hook trust no briefing reaches the model and relay deposits nothing",
  untrusted.requests.length > 0 && briefings([untrusted]) === 0 && packages(C).length === 0,
  `${briefings([untrusted])} briefings; packages ${JSON.stringify(packages(C).map((p) => p.title))}`);
const D = codexProject("codex-bypass", "none");
const bypass = await codex(D, P_IDLE, { args: ["--dangerously-bypass-hook-trust"] });
check("4. with --dangerously-bypass-hook-trust instead, the briefing reaches the model once",
  bypass.code === 0 && briefings([bypass]) === 1, `${briefings([bypass])} briefings`);

// 5 and 6. relay's own view afterwards.
for (const [name, project, status, says] of [
  ["A, hooks trusted", A, "ok", "ran with the agent's event"],
  ["C, hooks not reviewed", C, "warn", "Codex has not trusted this hook as it is now"],
]) {
  const doctor = project.relay(["doctor", "--json"], { env: { ...project.env, CODEX_HOME: project.agentEnv.CODEX_HOME } });
  let lines = [];
  try { lines = JSON.parse(doctor.stdout).checks.filter((c) => c.check.startsWith("codex hook ")); } catch { /* shown below */ }
  check(`5. relay doctor (project ${name}): the four Codex hooks ${status}`,
    lines.length === 4 && lines.every((c) => c.status === status && c.detail.includes(says)),
    lines.map((c) => `${c.status} ${c.check}: ${c.detail}`).join("\n") || doctor.stdout + doctor.stderr);
}
for (const [name, project] of [["A", A], ["B", B], ["C", C], ["D", D]]) {
  check(`6. .relay/local/hooks.log (project ${name}) has no error lines`, hookLog(project).trim() === "", hookLog(project));
}

check("harness: Codex reached no host but the fake model", foreign.length === 0, foreign.join("\n"));
const unanswered = model.requests.filter((q) => !handlers.some((h) => h.match(q)));
check("harness: the fake model answered every request Codex sent", unanswered.length === 0, unanswered.map((q) => `${q.method} ${q.path}`).join("\n"));
check("harness: every model request was a Responses call", model.requests.every(isResponses));

if (process.env.DUMP) writeFileSync(process.env.DUMP, JSON.stringify(runs.map((r) => ({ prompt: r.prompt, events: r.events, output: r.output, requests: r.requests })), null, 1));
await model.close();
await new Promise((resolve) => proxy.close(resolve));
console.log(`codex: ${runs.length} codex exec runs, ${model.requests.length} model requests, ${((Date.now() - started) / 1000).toFixed(1)} s`);
finish("codex");
