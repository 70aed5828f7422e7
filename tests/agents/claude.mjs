// Real Claude Code (npm @anthropic-ai/claude-code, `claude -p`) against a fake Anthropic Messages
// API on loopback, with relay's hooks installed by `relay hook install --claude`. It proves that,
// inside the real agent:
//  1. relay's SessionStart briefing reaches the model's conversation once per session start
//     (startup, each --resume, the compaction), never twice and never in a side request (a
//     subagent's conversation);
//  2. `/compact` leaves one checkpoint (x-agent claude, x-agent-session = the session, x-working-on
//     = the last prompt typed) and the next request carries "Where you left off";
//  3. the session's end deposits its work once (one auto_deposit naming the file it wrote; the
//     same end again adds nothing), work done after a --resume included;
//  4. a session that changes nothing deposits nothing;
//  5. `relay doctor` finds nothing wrong with the Claude hooks; 6. hooks.log stays empty;
//  7. Claude Code as an MCP client of `relay mcp` deposits through relay's `deposit` tool.
// Besides relay's hooks, a recorder hook (passed with --settings, so relay's file is untouched)
// keeps every event's stdin; a proxy on loopback catches any attempt to reach another host.
// DUMP=FILE writes every run's hook events and model requests there, for looking into a failure.
import { createServer } from "node:http";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  makeProject, fakeModel, runAsync, run, agentBin, relayBin, packages, hookLog, check, finish, BRIEFING, occurrences,
  eventsOf, briefingProblems,
} from "./lib.mjs";
import { anthropicHandlers, text, toolUse, contentText, systemText, toolNames } from "./protocols/anthropic.mjs";

const started = Date.now();

// ---- What the fake model says: replies keyed by the prompt typed, then by how many tool results
// came back since that prompt.
const P_WRITE = "Write login.rs with a login function";
const P_EXPLAIN = "Explain login.rs in one line";
const P_TEST = "Add a test for login";
const P_IDLE = "What does README.md say?";
const P_MCP = "Record a handoff in relay";
const DEPOSIT_TITLE = "Handoff from Claude Code over MCP";
let cwd = ""; // the project the running agent works in (its tools want absolute paths)
const SCRIPT = {
  [P_WRITE]: [
    () => toolUse("Write", { file_path: join(cwd, "login.rs"), content: "pub fn login() -> bool {\n    true\n}\n" }),
    // A foreground subagent: its conversation is a side request the briefing must stay out of.
    () => toolUse("Agent", { description: "Review login.rs", prompt: "SUBAGENT: review login.rs", subagent_type: "general-purpose", run_in_background: false }),
    () => text("login.rs now has a login function."),
  ],
  [P_EXPLAIN]: [() => text("login() returns true.")],
  [P_TEST]: [
    () => toolUse("Bash", { command: "echo '#[test] fn logs_in() { assert!(login()); }' > login_test.rs", description: "Write the login test" }),
    () => text("Added login_test.rs."),
  ],
  [P_IDLE]: [() => text("It says: # demo")],
  [P_MCP]: [
    () => toolUse("ToolSearch", { query: "select:mcp__relay__deposit" }),
    () => toolUse("mcp__relay__deposit", { title: DEPOSIT_TITLE, handoff_note: "login works; tests next", decisions_made: ["keep login() simple"] }),
    () => text("Recorded."),
  ],
};
const SUMMARY = "<analysis>The user had login.rs written and explained.</analysis>\n<summary>1. Primary Request and Intent: write login.rs with a login function, then explain it.\n3. Files: login.rs (pub fn login).</summary>";

const isTypedPrompt = (b) => b.type === "text" && !b.text.startsWith("<") && !b.text.startsWith("This session is being continued");
/** Where the last prompt typed sits: {index of its message, its text}. */
function lastPrompt(body) {
  const msgs = body?.messages ?? [];
  for (let i = msgs.length - 1; i >= 0; i--) {
    if (msgs[i].role !== "user") continue;
    const blocks = typeof msgs[i].content === "string" ? [{ type: "text", text: msgs[i].content }] : msgs[i].content;
    if (blocks.some((b) => b.type === "tool_result")) continue; // a tool's answer ("Tool loaded." too)
    const typed = blocks.filter(isTypedPrompt);
    if (typed.length) return { index: i, text: typed[typed.length - 1].text };
  }
  return { index: -1, text: "" };
}

/** What a request is: "conversation" (the session's own loop, with its tools), "compaction" (the
 * summary request of /compact), "subagent" (an Agent tool's conversation), "side" (any other
 * Messages request) or "other" (count_tokens, models, anything else). */
function kind(r) {
  if (r.method !== "POST" || !r.path.startsWith("/v1/messages") || r.path.includes("count_tokens")) return "other";
  const system = systemText(r.body);
  if (system.includes("cc_is_subagent=true")) return "subagent";
  const last = r.body?.messages?.at(-1);
  if (last?.role === "user" && contentText(last.content).includes("create a detailed summary of the conversation so far")) return "compaction";
  return system.includes("cc_entrypoint=") && toolNames(r.body).includes("Write") ? "conversation" : "side";
}

function reply(r) {
  const k = kind(r);
  if (k === "compaction") return text(SUMMARY);
  if (k !== "conversation") return text("Nothing to add: login.rs looks fine.");
  const { index, text: prompt } = lastPrompt(r.body);
  const results = r.body.messages.slice(index + 1).flatMap((m) => (Array.isArray(m.content) ? m.content : [])).filter((b) => b.type === "tool_result").length;
  const steps = SCRIPT[prompt] ?? [() => text("ok")];
  return steps[Math.min(results, steps.length - 1)]();
}

// ---- The loopback world: the fake model, and a proxy that refuses (and notes) every other host.
const handlers = anthropicHandlers(reply);
const model = await fakeModel(handlers);
const foreign = [];
const proxy = createServer((req, res) => { foreign.push(`${req.method} ${req.url}`); res.writeHead(502).end(); });
proxy.on("connect", (req, socket) => {
  foreign.push(`CONNECT ${req.url}`);
  socket.on("error", () => {});
  socket.end("HTTP/1.1 502 Bad Gateway\r\n\r\n");
});
await new Promise((resolve) => proxy.listen(0, "127.0.0.1", resolve));
const proxyUrl = `http://127.0.0.1:${proxy.address().port}`;

function agentEnv(project) {
  return {
    ...project.env,
    ANTHROPIC_BASE_URL: model.url,
    ANTHROPIC_API_KEY: "sk-ant-harness-dummy",
    DISABLE_TELEMETRY: "1", DISABLE_AUTOUPDATER: "1", DISABLE_ERROR_REPORTING: "1",
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
    HTTPS_PROXY: proxyUrl, HTTP_PROXY: proxyUrl, https_proxy: proxyUrl, http_proxy: proxyUrl,
    NO_PROXY: "127.0.0.1,localhost", no_proxy: "127.0.0.1,localhost",
  };
}

/** A project with relay's Claude hooks, and the recorder's settings beside it. */
function claudeProject(name) {
  const project = makeProject(name);
  const install = project.relay(["hook", "install", "--claude"]);
  if (install.code !== 0) throw new Error(`relay hook install --claude: ${install.stderr}`);
  project.events = join(project.root, "events.jsonl");
  project.recorder = join(project.root, "recorder.json");
  const record = { hooks: [{ type: "command", command: `{ cat; echo; } >> '${project.events}'` }] };
  const hooks = Object.fromEntries(["SessionStart", "UserPromptSubmit", "PreCompact", "PostCompact", "Stop", "SessionEnd"].map((e) => [e, [record]]));
  writeFileSync(project.recorder, JSON.stringify({ hooks }));
  return project;
}

const runs = [];
/** One `claude -p` process: {prompt, code, sessionId, events (hook stdins), requests, ms}. */
async function claude(project, prompt, { resume, args = [] } = {}) {
  cwd = project.dir;
  writeFileSync(project.events, "");
  const first = model.requests.length, t0 = Date.now();
  const argv = ["-p", prompt, "--output-format", "json", "--permission-mode", "acceptEdits",
    "--allowedTools", "Write,Bash,Agent,ToolSearch,mcp__relay__deposit", "--settings", project.recorder,
    ...(resume ? ["--resume", resume] : []), ...args];
  const r = await runAsync(agentBin("claude"), argv, { cwd: project.dir, env: agentEnv(project), timeoutMs: 60000 });
  let out = {};
  try { out = JSON.parse(r.stdout); } catch { /* reported below */ }
  const events = readFileSync(project.events, "utf8").split("\n").filter((l) => l.trim()).map((l) => JSON.parse(l));
  const result = { prompt, project, code: r.code, sessionId: out.session_id, isError: out.is_error, events, requests: model.requests.slice(first), ms: Date.now() - t0 };
  runs.push(result);
  const kinds = result.requests.map(kind).join(",");
  const names = events.map((e) => e.hook_event_name + (e.source ? `(${e.source})` : e.trigger ? `(${e.trigger})` : e.reason ? `(${e.reason})` : "")).join(" ");
  console.log(`# claude -p ${JSON.stringify(prompt)}${resume ? " --resume" : ""}: exit ${r.code} in ${result.ms} ms; requests [${kinds}]; hooks ${names}`);
  if (r.code !== 0 || !out.session_id) console.log(`  stdout: ${r.stdout.slice(0, 800)}\n  stderr: ${r.stderr.slice(0, 800)}`);
  return result;
}

const byType = (project, type) => packages(project).filter((p) => p.package_type === type);
const names = (p) => (p.deliverables ?? []).map((d) => d.path);

// ---- Session A: write a file (and run a subagent), a second turn, /compact, a turn that writes
// again after the compaction, each a `claude -p` process; then a new session that changes nothing.
const A = claudeProject("claude");
const write = await claude(A, P_WRITE);
const sid = write.sessionId;
const explain = await claude(A, P_EXPLAIN, { resume: sid });
const compactRun = await claude(A, "/compact", { resume: sid });
const after = await claude(A, P_TEST, { resume: sid });
const sessionA = [write, explain, compactRun, after];

check("harness: every claude -p of session A exits 0 in the same session",
  sessionA.every((r) => r.code === 0 && r.sessionId === sid && !r.isError), sessionA.map((r) => `${r.prompt}: exit ${r.code}, session ${r.sessionId}, is_error ${r.isError}`).join("\n"));
check("harness: the agent wrote login.rs and login_test.rs with its tools",
  existsSync(join(A.dir, "login.rs")) && existsSync(join(A.dir, "login_test.rs")));
check("Claude Code fires SessionEnd when claude -p exits, once per process",
  sessionA.every((r) => eventsOf([r], "SessionEnd").length === 1 && eventsOf([r], "SessionEnd")[0].session_id === sid),
  sessionA.map((r) => `${r.prompt}: ${JSON.stringify(eventsOf([r], "SessionEnd"))}`).join("\n"));

// 1. The briefing: each SessionStart's (told apart by its "Generated" stamp) reaches the first
// conversation request after it, exactly once, and no other kind of request.
{
  const problems = briefingProblems(sessionA, (q) => kind(q) === "conversation");
  const first = write.requests.find((q) => kind(q) === "conversation");
  check("1. the briefing reaches the conversation once per session start (startup, resume, compact), never twice",
    first && occurrences(first.body, BRIEFING) === 1 && eventsOf(sessionA, "SessionStart").length === 5 && problems.length === 0,
    [`SessionStart events: ${eventsOf(sessionA, "SessionStart").map((e) => e.source).join(", ")}`, ...problems].join("\n"));
  const side = sessionA.flatMap((r) => r.requests).filter((q) => !["conversation", "compaction"].includes(kind(q)));
  check("1. no briefing in side requests (the subagent's conversation)",
    side.some((q) => kind(q) === "subagent") && side.every((q) => occurrences(q.body, BRIEFING) === 0),
    side.map((q) => `${kind(q)} ${q.path}: ${occurrences(q.body, BRIEFING)} briefings`).join("\n") || "no subagent request was seen");
}

// 2. The compaction: one checkpoint, and "Where you left off" in the next request, not before.
{
  const checkpoints = byType(A, "x-checkpoint");
  const cp = checkpoints[0] ?? {};
  check("2. /compact fires PreCompact (manual) and SessionStart (compact), and asks the model for the summary",
    eventsOf([compactRun], "PreCompact").some((e) => e.trigger === "manual") && eventsOf([compactRun], "SessionStart").some((e) => e.source === "compact")
      && compactRun.requests.some((q) => kind(q) === "compaction"),
    compactRun.events.map((e) => JSON.stringify(e)).join("\n"));
  check("2. one checkpoint: x-agent claude, x-agent-session = the session, x-working-on = the last prompt typed",
    checkpoints.length === 1 && cp["x-agent"] === "claude" && cp["x-agent-session"] === sid && cp["x-working-on"] === P_EXPLAIN,
    `session ${sid}; checkpoints: ${JSON.stringify(checkpoints, null, 1)}`);
  const next = after.requests.find((q) => kind(q) === "conversation");
  const where = next ? contentText(next.body.messages.flatMap((m) => (Array.isArray(m.content) ? m.content : [{ type: "text", text: m.content }]))) : "";
  check("2. the next request after the compaction carries \"Where you left off\" once, with the checkpoint's prompt",
    occurrences(where, "Where you left off") === 1 && where.slice(where.indexOf("Where you left off")).includes(P_EXPLAIN),
    next ? where.slice(Math.max(0, where.indexOf("Where you left off") - 200), where.indexOf("Where you left off") + 400) : "no conversation request after /compact");
  const before = [write, explain].flatMap((r) => r.requests);
  check("2. no \"Where you left off\" before the compaction", before.every((q) => occurrences(q.body, "Where you left off") === 0));
}

// 3. The session's deposit: once, naming what it wrote; the same end again adds nothing.
{
  const mine = byType(A, "auto_deposit").filter((p) => p["x-agent-session"] === sid);
  const withLogin = mine.filter((p) => names(p).includes("login.rs"));
  check("3. the session's end leaves exactly one auto_deposit naming login.rs (x-agent claude)",
    withLogin.length === 1 && withLogin[0]["x-agent"] === "claude",
    JSON.stringify(mine.map((p) => ({ id: p.package_id, title: p.title, files: names(p) }))));
  // Replay the SessionEnd stdins Claude Code sent (the one that deposited, and the last) through
  // the very command .claude/settings.json installs.
  const settings = JSON.parse(readFileSync(join(A.dir, ".claude/settings.json"), "utf8"));
  const command = settings.hooks.SessionEnd[0].hooks[0].command;
  const count = packages(A).length;
  const replays = [write, after].map((r) => run("sh", ["-c", command], { cwd: A.dir, env: A.env, input: JSON.stringify(eventsOf([r], "SessionEnd")[0]) }));
  check("3. running the same SessionEnd again adds no package",
    replays.every((r) => r.code === 0 && r.stderr === "") && packages(A).length === count,
    `packages before ${count}, after ${packages(A).length}; ${JSON.stringify(replays)}`);
  check("3. the work done after --resume (login_test.rs, written by Bash after /compact) is deposited too",
    mine.some((p) => names(p).includes("login_test.rs")),
    `the session's auto_deposits: ${JSON.stringify(mine.map((p) => ({ title: p.title, files: names(p), description: p.description })), null, 1)}`);
}

// 4. Sessions that change nothing: one in a clean project, one where files were already dirty.
const idleA = await claude(A, P_IDLE);
check("4. a new session beside files left uncommitted (and not touched again) deposits nothing",
  idleA.code === 0 && idleA.sessionId && idleA.sessionId !== sid && eventsOf([idleA], "SessionEnd").length === 1
    && byType(A, "auto_deposit").every((p) => p["x-agent-session"] !== idleA.sessionId),
  JSON.stringify(byType(A, "auto_deposit").map((p) => [p["x-agent-session"], p.title])));
const B = claudeProject("claude-idle");
const idleB = await claude(B, P_IDLE);
check("4. a session that changes nothing in a clean project deposits nothing",
  idleB.code === 0 && eventsOf([idleB], "SessionEnd").length === 1 && packages(B).length === 0,
  JSON.stringify(packages(B).map((p) => [p.package_type, p.title])));

// 7. Claude Code as an MCP client of `relay mcp` (in project B, after check 4 looked at it).
{
  const config = JSON.stringify({ mcpServers: { relay: { type: "stdio", command: relayBin, args: ["mcp"] } } });
  const mcp = await claude(B, P_MCP, { args: ["--mcp-config", config, "--strict-mcp-config"] });
  const loaded = mcp.requests.some((q) => kind(q) === "conversation" && toolNames(q.body).includes("mcp__relay__deposit"));
  const deposited = packages(B).filter((p) => p.title === DEPOSIT_TITLE);
  const answer = mcp.requests.filter((q) => kind(q) === "conversation").map((q) => JSON.stringify(q.body.messages.at(-1))).find((m) => m.includes("tool_result") && m.includes("package_id"));
  check("7. relay's deposit tool (mcp__relay__deposit) reaches the model through ToolSearch", loaded,
    `tools offered: ${mcp.requests.map((q) => toolNames(q.body).filter((n) => n.startsWith("mcp__")).join(",")).join(" | ")}`);
  check("7. the model's mcp__relay__deposit call lands in the store and its result reaches the model",
    mcp.code === 0 && deposited.length === 1 && deposited[0].handoff_note === "login works; tests next" && answer?.includes(deposited[0].package_id),
    `exit ${mcp.code}; packages: ${JSON.stringify(packages(B).map((p) => p.title))}; last tool result: ${answer?.slice(0, 400)}`);
}

// 5 and 6. relay's own view afterwards.
for (const project of [A, B]) {
  const name = project === A ? "A" : "B";
  const doctor = project.relay(["doctor", "--json"]);
  let report = { checks: [] };
  try { report = JSON.parse(doctor.stdout); } catch { /* shown below */ }
  const claudeChecks = report.checks.filter((c) => c.check.startsWith("claude hook"));
  const log = report.checks.find((c) => c.check === "hooks log");
  check(`5. relay doctor (project ${name}): the four Claude hooks ok, the hooks log ok`,
    claudeChecks.length === 4 && claudeChecks.every((c) => c.status === "ok") && log?.status === "ok",
    doctor.stdout || doctor.stderr);
  check(`6. .relay/local/hooks.log (project ${name}) has no error lines`, hookLog(project).trim() === "", hookLog(project));
}

check("harness: Claude Code reached no host but the fake model", foreign.length === 0, foreign.join("\n"));
const unanswered = model.requests.filter((q) => !handlers.some((h) => h.match(q)));
check("harness: the fake model answered every request Claude Code sent", unanswered.length === 0, unanswered.map((q) => `${q.method} ${q.path}`).join("\n"));

if (process.env.DUMP) writeFileSync(process.env.DUMP, JSON.stringify(runs.map((r) => ({ prompt: r.prompt, events: r.events, requests: r.requests })), null, 1));
await model.close();
await new Promise((resolve) => proxy.close(resolve));
console.log(`claude: ${runs.length} claude -p runs, ${model.requests.length} model requests, ${((Date.now() - started) / 1000).toFixed(1)} s; projects in ${A.root} and ${B.root}`);
finish("claude");
