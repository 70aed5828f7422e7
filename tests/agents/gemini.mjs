// Gemini CLI (@google/gemini-cli, pinned in package.json) with relay's hooks, offline against a
// fake Gemini API on loopback (protocols/gemini_api.mjs). It plays real `gemini -p` sessions,
// resumed by id for more turns, in YOLO approval mode so the model's write_file call really
// writes, and proves that, inside the real agent:
//   1. relay's briefing reaches the conversation request once per session start (side requests,
//      such as the model router's classifier, are not counted);
//   2. turns without a compression make no checkpoint, though Gemini fires PreCompress before
//      every turn;
//   3. a real automatic compression (a low model.compressionThreshold, the fake API reporting
//      a large promptTokenCount, the compressor answered) makes exactly one checkpoint, with
//      x-agent, x-agent-session and x-working-on = the prompt typed, also when the compressor
//      writes the <scratchpad> its prompt asks for in front of the <state_snapshot>;
//   4. SessionEnd deposits the session's work once (naming the file written), also the work of
//      a resumed run, and a session that changed nothing deposits nothing;
//   5. `relay doctor` passes the Gemini hooks; 6. .relay/local/hooks.log stays empty.
// `-p` cannot run /compress: the SessionStart context is put in front of the prompt before
// Gemini looks for a slash command, so manual compression is out of reach here.
import { mkdirSync, readFileSync, writeFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { makeProject, fakeModel, runAsync, agentBin, packages, hookLog, check, finish, BRIEFING, occurrences, filesUnder } from "./lib.mjs";
import { geminiApi, kindOf, lastUser } from "./protocols/gemini_api.mjs";

const started = Date.now();
const project = makeProject("gemini");

// What the fake model does this run: the promptTokenCount it reports, and how its compressor
// writes the summary ("bare": only the <state_snapshot>; "scratchpad": reasoning first, as the
// compression prompt asks).
let scenario = { tokens: 2000, snapshot: "bare" };
const SNAPSHOT = "<state_snapshot>\n  <overall_goal>Ship the release notes.</overall_goal>\n  <task_state>1. [IN PROGRESS] Write the file.</task_state>\n</state_snapshot>";

/** The user's own words in a prompt: what follows the hook context -p mode puts in front. */
const typed = (text) => text.split("</hook_context>").pop().trim();

const api = await fakeModel(geminiApi({
  turn: (req) => {
    const user = lastUser(req.body);
    const tokens = scenario.tokens;
    if (user.toolResult) return { text: "Done: the file is written.", promptTokens: tokens };
    const write = typed(user.text).match(/^Write (\S+)/);
    if (write) return { call: { name: "write_file", args: { file_path: join(project.dir, write[1]), content: `# ${write[1]}\n\nWritten by the fake model.\n` } }, promptTokens: tokens };
    return { text: "Understood; nothing to change yet.", promptTokens: tokens };
  },
  snapshot: () => scenario.snapshot === "scratchpad" ? `<scratchpad>\nThe user wants the file written; one tool call so far.\n</scratchpad>\n\n${SNAPSHOT}` : SNAPSHOT,
}));

// The agent's home: API-key auth, no folder-trust prompt, no update checks, no telemetry, and
// compression at a fifth of the context window (1,048,576 tokens: from 209,716 reported).
mkdirSync(join(project.home, ".gemini"), { recursive: true });
writeFileSync(join(project.home, ".gemini/settings.json"), JSON.stringify({
  security: { auth: { selectedType: "gemini-api-key" }, folderTrust: { enabled: false } },
  general: { enableAutoUpdate: false, enableAutoUpdateNotification: false },
  privacy: { usageStatisticsEnabled: false },
  telemetry: { enabled: false },
  model: { compressionThreshold: 0.2 },
}, null, 2));
const BIG = 300000;
const env = { ...project.env, GEMINI_API_KEY: "harness-dummy-key", GOOGLE_GEMINI_BASE_URL: api.url };

const install = project.relay(["hook", "install", "--gemini"]);
if (install.code !== 0) throw new Error(`relay hook install --gemini: ${install.stderr}`);

const runs = [];
/** One `gemini -p` process: a session start, one turn, a session end. */
async function play(prompt, { resume, tokens = 2000, snapshot = "bare" } = {}) {
  scenario = { tokens, snapshot };
  const from = api.requests.length;
  const args = [...(resume ? ["--resume", resume] : []), "-p", prompt, "--approval-mode", "yolo", "-o", "json"];
  const r = await runAsync(agentBin("gemini"), args, { cwd: project.dir, env, timeoutMs: 60000 });
  let out = {};
  try { out = JSON.parse(r.stdout); } catch { /* reported below */ }
  const run = { prompt, resume, session: out.session_id, response: out.response, requests: api.requests.slice(from) };
  if (r.code !== 0 || !run.session) throw new Error(`gemini ${args.join(" ")} exited ${r.code}:\n${r.stdout}\n${r.stderr.slice(-3000)}`);
  runs.push(run);
  return run;
}

const ofSession = (type, session) => packages(project).filter((p) => p.package_type === type && p["x-agent-session"] === session);
const compressions = (run) => run.requests.filter((r) => kindOf(r) === "compression").length;
const names = (pkgs) => pkgs.flatMap((p) => (p.deliverables ?? []).map((d) => d.path));
/** The transcript Gemini keeps for a session (JSONL under ~/.gemini/tmp/<project>/chats/). */
function transcript(session) {
  const root = join(project.home, ".gemini/tmp");
  const file = filesUnder(root).find((f) => f.includes("/chats/") && f.endsWith(`-${session.slice(0, 8)}.jsonl`));
  return file ? readFileSync(join(root, file), "utf8") : "";
}
/** The start of each text a `$set` of the messages holds that mentions <state_snapshot>. */
const snapshotTexts = (session) => transcript(session).split("\n").filter((l) => l.startsWith('{"$set":{"messages"') && l.includes("<state_snapshot>"))
  .flatMap((l) => JSON.parse(l).$set.messages.flatMap((m) => (Array.isArray(m.content) ? m.content : []).map((p) => p.text ?? "")))
  .filter((t) => t.includes("<state_snapshot>")).map((t) => JSON.stringify(t.slice(0, 60)));

// --- Session A: three turns, no compression; the first writes notes.txt. --------------------
const a1 = await play("Write notes.txt with a greeting for the team");
const a = a1.session;
await play("Read it back to me in one line", { resume: a });
await play("Anything else worth tidying?", { resume: a });
const aRuns = runs.filter((r) => r.session === a);
check("setup: session A's three turns compressed nothing", aRuns.length === 3 && aRuns.every((r) => compressions(r) === 0));
const aCheckpoints = ofSession("x-checkpoint", a);
check("2. three turns without a compression make no checkpoint", aCheckpoints.length === 0,
  aCheckpoints.map((p) => `${p.package_id} ${p.title}`).join("\n"));
const aDeposits = ofSession("auto_deposit", a);
check("4. SessionEnd deposits session A once, naming notes.txt",
  aDeposits.length === 1 && names(aDeposits).includes("notes.txt"),
  `auto_deposits of ${a}: ${JSON.stringify(aDeposits.map((p) => ({ title: p.title, files: names([p]) })))}`);

// The same session resumed once more: its new work (todo.txt) is work of the session too.
await play("Write todo.txt with the next steps", { resume: a });
const aAll = ofSession("auto_deposit", a);
check("4. a resumed run's new work (todo.txt) is deposited too", names(aAll).includes("todo.txt"),
  `auto_deposits of ${a} after the resumed run wrote todo.txt: ${JSON.stringify(aAll.map((p) => ({ id: p.package_id, title: p.title, files: names([p]) })))}` +
  `\n(Gemini's --resume keeps the session id: each run must be a package of its own)`);

// --- Session N: one turn that changes nothing. -----------------------------------------------
const n = (await play("Just say hello")).session;
check("4. a session that changes nothing deposits nothing", ofSession("auto_deposit", n).length === 0 && ofSession("x-checkpoint", n).length === 0,
  JSON.stringify(packages(project).filter((p) => p["x-agent-session"] === n).map((p) => p.title)));

// --- Session B: an automatic compression, the compressor answering a bare <state_snapshot>. ---
const b = (await play("Let us plan the release notes")).session;
const b2 = await play("Write CHANGELOG.md for the release", { resume: b, tokens: BIG });
await play("Thanks, that is all for now", { resume: b });
check("setup: Gemini compressed session B in its second run (summary and verification)",
  compressions(b2) === 2 && snapshotTexts(b).length > 0, `compression requests: ${compressions(b2)}`);
const bCheckpoints = ofSession("x-checkpoint", b);
const cp = bCheckpoints[0] ?? {};
check("3. one compression makes exactly one checkpoint", bCheckpoints.length === 1,
  `checkpoints of ${b}: ${JSON.stringify(bCheckpoints.map((p) => p.title))}`);
check("3. the checkpoint names the agent, its session and the prompt typed",
  cp["x-agent"] === "gemini" && cp["x-agent-session"] === b && cp["x-working-on"] === "Write CHANGELOG.md for the release",
  JSON.stringify({ "x-agent": cp["x-agent"], "x-agent-session": cp["x-agent-session"], "x-working-on": cp["x-working-on"] }));

// --- Session C: the same, the compressor reasoning in a <scratchpad> first, as Gemini CLI's
// compression prompt tells it to ("First, you will think through the entire history in a
// private <scratchpad>… After your reasoning is complete, generate the final <state_snapshot>"),
// and Gemini keeps its whole answer as the summary.
const c = (await play("Let us plan the user guide")).session;
const c2 = await play("Write GUIDE.md from the plan", { resume: c, tokens: BIG, snapshot: "scratchpad" });
check("setup: Gemini compressed session C, its summary led by the <scratchpad>", compressions(c2) === 2 && snapshotTexts(c).length > 0);
const cCheckpoints = ofSession("x-checkpoint", c);
check("3. a compression whose summary starts with the <scratchpad> makes exactly one checkpoint", cCheckpoints.length === 1,
  `checkpoints of ${c}: ${cCheckpoints.length}; the summary Gemini stored in the $set of its transcript begins ${snapshotTexts(c).join(", ")}`);

// --- 1. The briefing: once in each run's new prompt, and once in each conversation request
// (resuming, Gemini CLI 0.61 drops every earlier user message that starts with <hook_context>,
// which in -p mode is each earlier prompt, briefing and all).
const briefingFaults = [];
for (const run of runs) {
  const convs = run.requests.filter((r) => kindOf(r) === "conversation");
  const inPrompt = convs.length ? occurrences(lastUser(convs[0].body).text, BRIEFING) : 0;
  const totals = convs.map((r) => occurrences(r.body, BRIEFING));
  if (inPrompt !== 1 || totals.some((t) => t !== 1)) {
    briefingFaults.push(`${run.resume ? "resumed" : "new"} run "${run.prompt}": ${inPrompt} in the new prompt; its conversation requests hold ${JSON.stringify(totals)}`);
  }
}
const side = api.requests.filter((r) => kindOf(r) === "routing");
check(`1. the briefing reaches the conversation once per session start (${runs.length} starts)`, runs.length === 10 && briefingFaults.length === 0, briefingFaults.join("\n"));
console.log(`     (side requests: ${side.length} router classifications, ${side.filter((r) => occurrences(r.body, BRIEFING) > 0).length} of them carrying the prompt with its briefing; not counted)`);

// --- SessionEnd ran to its end in every -p run: no session state is left behind. -------------
const stateDir = join(project.dir, ".relay/local/agent-sessions");
const notes = readdirSync(stateDir).filter((f) => f.startsWith("gemini-"))
  .map((f) => JSON.parse(readFileSync(join(stateDir, f), "utf8")));
const running = notes.filter((n) => !n.ended_at).map((n) => n.session_id);
check("4. every run's SessionEnd completed (Gemini -p waits for it): no run left open", notes.length > 0 && running.length === 0, running.join(", "));

// --- 5. relay doctor; 6. hooks.log. -----------------------------------------------------------
const doctor = project.relay(["doctor", "--json"]);
let geminiChecks = [];
try { geminiChecks = JSON.parse(doctor.stdout).checks.filter((k) => /gemini/i.test(k.check)); } catch { /* shown below */ }
check("5. relay doctor: the four Gemini hooks ok", geminiChecks.length === 4 && geminiChecks.every((k) => k.status === "ok"),
  doctor.stdout.slice(0, 3000) + doctor.stderr);
const log = hookLog(project);
check("6. .relay/local/hooks.log has no error lines", log.trim() === "", log);

await api.close();
console.log(`gemini: ${runs.length} session starts played in ${((Date.now() - started) / 1000).toFixed(1)} s (${project.root})`);
finish("gemini");
