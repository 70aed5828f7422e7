// OpenCode (opencode-ai from npm, run by its own Bun runtime) with relay's plugin
// (`relay hook install --opencode`), offline against a fake OpenAI-compatible model on loopback.
// Real sessions through `opencode run`, `opencode session delete` and `opencode serve`'s HTTP API
// prove that inside the real agent:
//   1. relay's briefing reaches the model once in every conversation request of a session, also
//      after the session goes on in a new process (`run --session`), and never in the title request;
//   2. compaction (POST /session/:id/summarize) records one checkpoint (x-checkpoint, x-agent
//      opencode), and the turns after it keep the briefing;
//   3. a session `opencode session delete` deletes deposits its work once, in place when the CLI
//      has exited (OpenCode awaits no plugin event handler: an unawaited hook got an empty stdin);
//   4. a session the server deletes (DELETE /session/:id) deposits its work once too;
//   5. a session that changes nothing deposits nothing;
//   6. `relay doctor` finds nothing wrong with the plugin and hooks.log stays empty.
import { spawn } from "node:child_process";
import { mkdirSync, writeFileSync, readFileSync, readdirSync, existsSync } from "node:fs";
import { join } from "node:path";
import { makeProject, fakeModel, agentBin, runAsync, check, finish, packages, hookLog, BRIEFING, occurrences } from "./lib.mjs";
import { openaiChat, isChat, systemText } from "./protocols/openai_chat.mjs";

const OPENCODE = agentBin("opencode");
const VERSION = "1.18.33";
const MODEL = { providerID: "fake", modelID: "fake-model" };
const project = makeProject("opencode");
const { dir, root, relay } = project;

// ---- the fake model: what each prompt makes the agent do --------------------------------------
const WRITE_A = "Write a.txt please";
const SHELL_B = "Create b.txt with the shell";
const tools = {
  [WRITE_A]: [{ name: "write", arguments: { filePath: join(dir, "a.txt"), content: "written by opencode\n" } }],
  [SHELL_B]: [{ name: "bash", arguments: { command: "printf 'made by the shell\\n' > b.txt" } }],
};
const kind = (req) => {
  const system = systemText(req);
  if (system.startsWith("You are a title generator")) return "title";
  if ((req.body.tools ?? []).length > 0) return "agent";
  return "other"; // the compaction summary ("You are a context summarization agent")
};
const lastUserText = (req) => {
  const last = (req.body.messages ?? []).findLast((m) => m.role === "user");
  const content = last?.content ?? "";
  return typeof content === "string" ? content : content.map((p) => p.text ?? "").join("");
};
const model = await fakeModel(openaiChat((req) => {
  if (kind(req) === "title") return { text: "Harness session" };
  if (kind(req) === "other") return { text: "Summary: the harness asked for a.txt and b.txt." };
  if (req.body.messages.at(-1).role === "tool") return { text: "Done." };
  const prompt = Object.keys(tools).find((p) => lastUserText(req).includes(p));
  return prompt ? { toolCalls: tools[prompt] } : { text: "Hello from the fake model." };
}));

// ---- OpenCode's configuration: only the fake provider, nothing fetched ------------------------
const configPath = join(root, "opencode.json"); // outside the repository: git never sees it
writeFileSync(configPath, JSON.stringify({
  $schema: "https://opencode.ai/config.json",
  provider: {
    fake: {
      npm: "@ai-sdk/openai-compatible", // bundled in the binary: nothing to install
      name: "Fake",
      options: { baseURL: `${model.url}/v1`, apiKey: "fake-key" },
      models: { "fake-model": { name: "Fake model", tool_call: true, limit: { context: 200000, output: 8000 } } },
    },
  },
  model: `${MODEL.providerID}/${MODEL.modelID}`,
  small_model: `${MODEL.providerID}/${MODEL.modelID}`, // the title generator's model
  autoupdate: false,
  share: "disabled",
  permission: { edit: "allow", bash: "allow", webfetch: "deny", external_directory: "deny" },
}, null, 2));
const env = {
  ...project.env,
  OPENCODE_CONFIG: configPath,
  OPENCODE_DISABLE_MODELS_FETCH: "1", // models.dev: the binary's snapshot is used
  OPENCODE_DISABLE_AUTOUPDATE: "1",
  OPENCODE_DISABLE_SHARE: "1",
  OPENCODE_DISABLE_LSP_DOWNLOAD: "1",
  OPENCODE_DISABLE_DEFAULT_PLUGINS: "1", // OpenCode's internal plugins: not under test
  OPENCODE_DISABLE_CLAUDE_CODE: "1",
};

// OpenCode runs `npm install @opencode-ai/plugin` in each config folder (.opencode/ and
// ~/.config/opencode/) unless node_modules/ exists and package-lock.json already lists it.
function seedPluginDeps(folder) {
  mkdirSync(join(folder, "node_modules"), { recursive: true });
  const deps = { "@opencode-ai/plugin": VERSION };
  writeFileSync(join(folder, "package.json"), JSON.stringify({ dependencies: deps }));
  writeFileSync(join(folder, "package-lock.json"), JSON.stringify({ lockfileVersion: 3, packages: { "": { dependencies: deps } } }));
  writeFileSync(join(folder, ".gitignore"), "node_modules\npackage.json\npackage-lock.json\nbun.lock\n.gitignore");
}
const installed = relay(["hook", "install", "--opencode"]);
if (installed.code !== 0) throw new Error(`relay hook install --opencode: ${installed.stderr}`);
seedPluginDeps(join(dir, ".opencode"));
seedPluginDeps(join(project.home, ".config/opencode"));
project.sh("git", ["add", "-A"]);
project.sh("git", ["commit", "-q", "-m", "relay's OpenCode plugin"]); // a clean tree before any session

// ---- helpers ---------------------------------------------------------------------------------
const opencode = (args) => runAsync(OPENCODE, args, { cwd: dir, env, timeoutMs: 60000 });
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
async function waitFor(probe, ms = 10000) {
  for (const end = Date.now() + ms; Date.now() < end; await sleep(100)) if (probe()) return true;
  return !!probe();
}
/** relay's note of a session (.relay/local/agent-sessions/): its run's state, with `ended_at`
 * once its end deposited it; undefined when relay never heard of it. */
function sessionNote(id) {
  const folder = join(dir, ".relay/local/agent-sessions");
  if (!existsSync(folder)) return undefined;
  return readdirSync(folder).map((f) => JSON.parse(readFileSync(join(folder, f), "utf8"))).find((n) => n.session_id === id);
}
const ofSession = (id, type) => packages(project).filter((p) => p["x-agent-session"] === id && p.package_type === type);
const deliverables = (pkg) => (pkg?.deliverables ?? []).map((d) => d.path).sort();
const requestsSince = (n) => model.requests.slice(n).filter(isChat);
const describe = (reqs) => reqs.map((r) => `${kind(r)} ${r.headers["x-session-id"]}: ${occurrences(r.body, BRIEFING)} briefing(s)`).join("\n");
/** `opencode run --format json`: the session id of its events. */
async function runPrompt(prompt, extra = []) {
  const r = await opencode(["run", "--format", "json", ...extra, prompt]);
  const id = r.stdout.match(/"sessionID":"(ses_[A-Za-z0-9]+)"/)?.[1];
  if (r.code !== 0 || !id) throw new Error(`opencode run ${prompt}: exit ${r.code}\n${r.stdout}\n${r.stderr}`);
  return { id, ...r };
}
/** `opencode serve` on a free loopback port: {url, api(method, path, body), stop()}. */
async function serve() {
  const child = spawn(OPENCODE, ["serve", "--port", "0", "--hostname", "127.0.0.1"], { cwd: dir, env, stdio: ["ignore", "pipe", "pipe"] });
  process.on("exit", () => child.kill("SIGKILL")); // never left behind, even when this script throws
  let out = "";
  const url = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`opencode serve did not start: ${out}`)), 30000);
    const read = (d) => {
      out += d;
      const m = out.match(/listening on (http:\/\/\S+)/);
      if (m) { clearTimeout(timer); resolve(m[1]); }
    };
    child.stdout.on("data", read);
    child.stderr.on("data", read);
  });
  const api = async (method, path, body) => {
    const res = await fetch(url + path, { method, headers: { "content-type": "application/json" }, body: body && JSON.stringify(body) });
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
    return res.json();
  };
  const stop = () => new Promise((resolve) => {
    const timer = setTimeout(() => child.kill("SIGKILL"), 10000);
    child.on("close", () => { clearTimeout(timer); resolve(); });
    child.kill("SIGTERM");
  });
  return { url, api, stop };
}

const started = Date.now();
const note = (what) => console.log(`  ${((Date.now() - started) / 1000).toFixed(1).padStart(5)} s  ${what}`);

// ---- session A, through the CLI: a write, then a second process goes on with it, then delete ---
const first = model.requests.length;
const a = await runPrompt(WRITE_A);
note(`session A (${a.id}): opencode run wrote a.txt`);
check("opencode run: the write tool made a.txt", existsSync(join(dir, "a.txt")), a.stdout.slice(-2000));
const firstRun = requestsSince(first);
await waitFor(() => (sessionNote(a.id)?.turns ?? 0) >= 1); // the Stop hook of session.idle
const resumedFrom = model.requests.length;
await runPrompt("Say hello", ["--session", a.id]);
note("session A: opencode run --session went on with it");
const resumed = requestsSince(resumedFrom).filter((r) => kind(r) === "agent");
await waitFor(() => (sessionNote(a.id)?.turns ?? 0) >= 2);
const deleteA = await opencode(["session", "delete", a.id]);
note("session A: opencode session delete");
// No waiting: the deposit must be in place when the CLI has exited.
const depositsA = ofSession(a.id, "auto_deposit");

// ---- session B, through the server: a shell command, compaction, delete ------------------------
const server = await serve();
note(`opencode serve: ${server.url}`);
const serverFrom = model.requests.length;
const b = await server.api("POST", "/session", {});
await server.api("POST", `/session/${b.id}/message`, { model: MODEL, parts: [{ type: "text", text: SHELL_B }] });
note(`session B (${b.id}): POST /session/:id/message made b.txt`);
check("opencode serve: the bash tool made b.txt", existsSync(join(dir, "b.txt")));
await waitFor(() => (sessionNote(b.id)?.turns ?? 0) >= 1);
await server.api("POST", `/session/${b.id}/summarize`, MODEL);
await waitFor(() => ofSession(b.id, "x-checkpoint").length > 0);
note("session B: POST /session/:id/summarize");
const compactedFrom = model.requests.length;
await server.api("POST", `/session/${b.id}/message`, { model: MODEL, parts: [{ type: "text", text: "Say hello" }] });
const afterCompaction = requestsSince(compactedFrom).filter((r) => kind(r) === "agent");
note("session B: a turn after the compaction");
await server.api("DELETE", `/session/${b.id}`);
await waitFor(() => ofSession(b.id, "auto_deposit").length > 0);
note("session B: DELETE /session/:id");
const serverRun = requestsSince(serverFrom);

// ---- session C, through the CLI: only talk, then delete ----------------------------------------
const quietFrom = model.requests.length;
const c = await runPrompt("Just say hello");
note(`session C (${c.id}): opencode run, text only`);
const quietRun = requestsSince(quietFrom);
await waitFor(() => (sessionNote(c.id)?.turns ?? 0) >= 1);
const deleteC = await opencode(["session", "delete", c.id]);
note("session C: opencode session delete");
await sleep(1000); // anything late would land now
await server.stop();
await model.close();
note("done");

// ---- 1. the briefing ---------------------------------------------------------------------------
const played = [...firstRun, ...serverRun, ...quietRun];
const agentRequests = played.filter((r) => kind(r) === "agent");
const titleRequests = played.filter((r) => kind(r) === "title");
check("every request runs under OpenCode's Bun runtime", played.every((r) => /runtime\/bun/.test(r.headers["user-agent"])), played.map((r) => r.headers["user-agent"]).join("\n"));
check("briefing: once in each of the agent's requests of new sessions (A, B, C)",
  agentRequests.length >= 5 && agentRequests.every((r) => occurrences(r.body, BRIEFING) === 1), describe(played));
check("briefing: in none of the title-generator requests",
  titleRequests.length >= 3 && titleRequests.every((r) => occurrences(r.body, BRIEFING) === 0), describe(titleRequests));
check("briefing: once in each request of session A gone on in a new process (run --session)",
  resumed.length >= 1 && resumed.every((r) => occurrences(r.body, BRIEFING) === 1),
  `${describe(resumed)}\n(the plugin briefs a session only on its session.created, which a resumed session does not fire)`);

// ---- 2. compaction -------------------------------------------------------------------------------
const checkpoints = ofSession(b.id, "x-checkpoint");
check("compaction (POST /session/:id/summarize): the summary request reached the model",
  serverRun.some((r) => systemText(r).includes("summarization")), describe(serverRun));
check("compaction: one checkpoint, x-agent opencode",
  checkpoints.length === 1 && checkpoints[0]["x-agent"] === "opencode", JSON.stringify(checkpoints, null, 1));
check("compaction: the next turn's requests still carry the briefing once",
  afterCompaction.length >= 1 && afterCompaction.every((r) => occurrences(r.body, BRIEFING) === 1), describe(afterCompaction));
check("compaction: the next turn's requests lead with \"Where you left off\"",
  afterCompaction.length >= 1 && afterCompaction.every((r) => occurrences(r.body, "Where you left off") === 1), describe(afterCompaction));

// ---- 3. the CLI deletes a session ------------------------------------------------------------------
check("opencode session delete: exits 0", deleteA.code === 0, deleteA.stderr);
check("CLI delete: one auto_deposit naming a.txt, in place when the CLI exits",
  depositsA.length === 1 && depositsA[0]["x-agent"] === "opencode" && deliverables(depositsA[0]).join() === "a.txt",
  JSON.stringify(depositsA, null, 1));
check("CLI delete: relay noted the run's end", typeof sessionNote(a.id)?.ended_at === "string", JSON.stringify(sessionNote(a.id)));

// ---- 4. the server deletes a session ---------------------------------------------------------------
const depositsB = ofSession(b.id, "auto_deposit");
check("server DELETE /session/:id: one auto_deposit naming b.txt (a.txt was changed before it)",
  depositsB.length === 1 && depositsB[0]["x-agent"] === "opencode" && deliverables(depositsB[0]).join() === "b.txt",
  JSON.stringify(depositsB, null, 1));

// ---- 5. a session that changes nothing ---------------------------------------------------------------
check("quiet session: its SessionEnd ran (relay noted the run's end)", deleteC.code === 0 && typeof sessionNote(c.id)?.ended_at === "string", JSON.stringify(sessionNote(c.id)));
check("quiet session: deposits nothing", packages(project).every((p) => p["x-agent-session"] !== c.id),
  JSON.stringify(packages(project).filter((p) => p["x-agent-session"] === c.id), null, 1));
const all = packages(project);
check("the store holds exactly 2 session deposits and 1 checkpoint",
  all.filter((p) => p.package_type === "auto_deposit").length === 2 && all.filter((p) => p.package_type === "x-checkpoint").length === 1,
  all.map((p) => `${p.package_type} ${p["x-agent-session"]} ${p.title}`).join("\n"));

// ---- 6. relay doctor and hooks.log ----------------------------------------------------------------------
const doctor = relay(["doctor", "--json"]);
let report = { checks: [] };
try { report = JSON.parse(doctor.stdout); } catch { /* shown below */ }
const pluginChecks = report.checks.filter((c) => /opencode/i.test(c.check));
check("relay doctor: the OpenCode plugin's 4 entries check ok",
  pluginChecks.length === 4 && pluginChecks.every((c) => c.status === "ok"), doctor.stdout || doctor.stderr);
const log = hookLog(project);
check("hooks.log: no problem logged", log.trim() === "", log);

finish("opencode");
