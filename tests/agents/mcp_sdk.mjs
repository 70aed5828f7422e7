// relay's MCP servers driven by the official MCP TypeScript SDK (@modelcontextprotocol/sdk,
// pinned in package.json), a client relay did not write, over both transports:
// `relay mcp` (StdioClientTransport) and `relay serve`'s /mcp (StreamableHTTPClientTransport,
// with a bearer token). For each it proves, as docs/guide/mcp.md says: the handshake (name,
// version, instructions, capabilities), tools/list (every input a valid JSON Schema, the tools
// of the guide's table and of docs/reference/mcp-tools.md), deposit then pull latest, specific
// and relevant, bad arguments as tool errors (docs/guide/exit-codes.md's codes) and an unknown
// tool as a JSON-RPC error with the server still answering, the project feed as a resource,
// no prompts, ping, and a clean close. Over stdio, a subscription is refused (documented) and
// the `watch` tool sees another process's deposit. Over HTTP, a subscription is notified of a
// `relay deposit` by another process within 2 s (latency printed), and of a record an agent hook
// queued in .relay/local/pending/ exactly once: not again when a commit moves it into the store.
// Run: RELAY_BIN=… RELAY_AGENTS_DIR=… node tests/agents/mcp_sdk.mjs
import { spawn } from "node:child_process";
import { createRequire } from "node:module";
import { existsSync, readFileSync, writeFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { performance } from "node:perf_hooks";
import { agentsDir, relayBin, makeProject, run, runAsync, check, finish, packages, filesUnder } from "./lib.mjs";

const sdkDir = join(agentsDir, "node_modules/@modelcontextprotocol/sdk");
const sdk = (p) => import(pathToFileURL(join(sdkDir, "dist/esm", p)).href);
const { Client } = await sdk("client/index.js");
const { StdioClientTransport } = await sdk("client/stdio.js");
const { StreamableHTTPClientTransport } = await sdk("client/streamableHttp.js");
const { ResourceUpdatedNotificationSchema, McpError } = await sdk("types.js");
const requireAgents = createRequire(join(agentsDir, "package.json"));
const Ajv2020 = requireAgents("ajv/dist/2020").default; // MCP's default dialect for a schema without $schema
const sdkVersion = JSON.parse(readFileSync(join(sdkDir, "package.json"), "utf8")).version;

const started = performance.now();
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const docs = (p) => readFileSync(new URL(`../../docs/${p}`, import.meta.url), "utf8");
const relayVersion = run(relayBin, ["--version"]).stdout.trim().replace(/^relay /, "");
const FEED = "relay://projects/demo/packages";

// The tools the guide's table names (its first column), and the generated reference's list.
const guide = docs("guide/mcp.md");
const table = guide.slice(guide.indexOf("| tool | what it does"));
const guideTools = new Set(table.split("\n").slice(2).filter((l) => l.startsWith("|")).flatMap((l) => [...l.split("|")[1].matchAll(/`(\w+)`/g)].map((m) => m[1])));
const referenceTools = [...docs("reference/mcp-tools.md").matchAll(/^- \[(\w+)\]\(#\w+\)$/gm)].map((m) => m[1]);

/** A tool result's object, when the call succeeded and its text is the same JSON. */
function structured(result) {
  if (result.isError) throw new Error(`tool error: ${result.content?.[0]?.text}`);
  const text = JSON.parse(result.content[0].text);
  if (JSON.stringify(text) !== JSON.stringify(result.structuredContent)) throw new Error("text and structuredContent differ");
  return result.structuredContent;
}

/** Runs `fn` as a check: a throw is a failure with its message, never a crash of the script. */
async function attempt(name, fn) {
  try {
    const r = await fn();
    check(name, r === undefined || r === true || r?.ok, r?.detail ?? JSON.stringify(r)?.slice(0, 600));
  } catch (e) {
    check(name, false, e.stack ?? String(e));
  }
}

/** Collects notifications/resources/updated: {seen, waitFor(n, ms) → got n in time}. */
function updates(client) {
  const seen = [];
  let wake = () => {};
  client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => {
    seen.push({ uri: n.params.uri, at: performance.now() });
    wake();
  });
  const waitFor = (count, ms) => new Promise((resolve) => {
    const timer = setTimeout(() => resolve(seen.length >= count), ms);
    wake = () => { if (seen.length >= count) { clearTimeout(timer); resolve(true); } };
    wake();
  });
  return { seen, waitFor };
}

/** What both transports must answer alike. `actor`: who a deposit is recorded as. */
async function common(t, client, { actor, subscribe }) {
  await attempt(`${t}: initialize: serverInfo relay ${relayVersion}, instructions and capabilities as documented`, () => {
    const info = client.getServerVersion(), caps = client.getServerCapabilities(), text = client.getInstructions() ?? "";
    const ok = info.name === "relay" && info.version === relayVersion && /`conformance`/.test(info.description ?? "")
      && /`orient`/.test(text) && /`conformance`/.test(text) && caps.tools && caps.resources
      && caps.resources.subscribe === subscribe && !caps.prompts;
    return { ok, detail: JSON.stringify({ info, caps, instructions: text.slice(0, 120) }) };
  });

  let tools = [];
  await attempt(`${t}: tools/list: every inputSchema is a valid JSON Schema (2020-12) for an object`, async () => {
    tools = (await client.listTools()).tools;
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    const bad = tools.filter((tool) => {
      try { return tool.inputSchema?.type !== "object" || !ajv.validateSchema(tool.inputSchema) || !ajv.compile(tool.inputSchema); } catch { return true; }
    }).map((tool) => `${tool.name}: ${ajv.errorsText(ajv.errors)}`);
    return { ok: tools.length > 0 && bad.length === 0, detail: bad.join("\n") };
  });
  const names = tools.map((tool) => tool.name);
  check(`${t}: tools/list serves every tool of docs/guide/mcp.md's table`, [...guideTools].every((n) => names.includes(n)),
    `missing: ${[...guideTools].filter((n) => !names.includes(n))}`);
  check(`${t}: tools/list serves no tool that docs/guide/mcp.md's table leaves out`, names.every((n) => guideTools.has(n)),
    `served, not in the guide's table: ${names.filter((n) => !guideTools.has(n)).join(", ")}`);
  check(`${t}: tools/list is docs/reference/mcp-tools.md's list, in order`, JSON.stringify(names) === JSON.stringify(referenceTools),
    `served: ${names}\nreference: ${referenceTools}`);

  let pkg = null;
  await attempt(`${t}: deposit tool records the package (as ${actor})`, async () => {
    const out = structured(await client.callTool({ name: "deposit", arguments: {
      title: `Zebra cache eviction over ${t}`, decisions_made: ["Evict the zebra cache hourly"],
      handoff_note: "Watch the hit rate", tags: ["cache"] } }));
    pkg = out.package;
    return { ok: /^pkg_/.test(pkg?.package_id) && out.hash?.startsWith("sha256:") && pkg.created_by?.id === actor, detail: JSON.stringify(out) };
  });
  const id = pkg?.package_id;
  await attempt(`${t}: pull latest gives the deposit back first`, async () => {
    const out = structured(await client.callTool({ name: "pull", arguments: { mode: "latest", limit: 3 } }));
    return { ok: out.packages?.[0]?.package_id === id && out.packages[0].title === pkg.title, detail: JSON.stringify(out).slice(0, 400) };
  });
  await attempt(`${t}: pull specific by id gives the same package`, async () => {
    const out = structured(await client.callTool({ name: "pull", arguments: { mode: "specific", id } }));
    const got = out.package ?? out;
    return { ok: got.package_id === id && JSON.stringify(got.decisions_made) === JSON.stringify(pkg.decisions_made), detail: JSON.stringify(out).slice(0, 400) };
  });
  await attempt(`${t}: pull relevant (search) finds it`, async () => {
    const out = structured(await client.callTool({ name: "pull", arguments: { mode: "relevant", query: "zebra eviction", limit: 3 } }));
    const top = out.packages?.[0];
    return { ok: top?.package?.package_id === id && top.score > 0 && Array.isArray(top.matched), detail: JSON.stringify(out).slice(0, 400) };
  });

  // docs/guide/exit-codes.md: missing, unknown or mistyped → invalid_schema; a refused value → invalid_input.
  const refusals = [
    ["pull", { mode: "latest", limit: 0 }, "invalid_input"],
    ["pull", { mode: "nope" }, "invalid_input"],
    ["pull", { mode: "specific" }, "invalid_schema"],
    ["pull", { mode: "latest", limit: "ten" }, "invalid_schema"],
    ["pull", { mode: "latest", colour: "red" }, "invalid_schema"],
    ["deposit", {}, "invalid_schema"],
    ["pull", { mode: "specific", id: "pkg_00000000000000000000000000000000" }, "package_not_found"],
  ];
  for (const [name, args, code] of refusals) {
    await attempt(`${t}: ${name} ${JSON.stringify(args)} is a tool error ${code}`, async () => {
      const r = await client.callTool({ name, arguments: args });
      return { ok: r.isError === true && r.content[0].text.startsWith(`${code}: `) && r.structuredContent?.error === code, detail: JSON.stringify(r) };
    });
  }
  await attempt(`${t}: an unknown tool is a JSON-RPC error -32602, and the server still answers`, async () => {
    const err = await client.callTool({ name: "no_such_tool", arguments: {} }).then(() => null, (e) => e);
    await client.ping();
    return { ok: err instanceof McpError && err.code === -32602, detail: String(err) };
  });

  await attempt(`${t}: resources/list names the project's feed ${FEED}`, async () => {
    const { resources } = await client.listResources();
    return { ok: resources.some((r) => r.uri === FEED && r.mimeType === "application/json"), detail: JSON.stringify(resources) };
  });
  await attempt(`${t}: resources/read of the feed holds the deposit`, async () => {
    const { contents } = await client.readResource({ uri: FEED });
    return { ok: contents[0]?.uri === FEED && contents[0].text?.includes(id) && !!JSON.parse(contents[0].text), detail: JSON.stringify(contents).slice(0, 400) };
  });
  await attempt(`${t}: no prompts: prompts/list is a JSON-RPC error -32601, as the capabilities say`, async () => {
    const err = await client.listPrompts().then(() => null, (e) => e);
    return { ok: err instanceof McpError && err.code === -32601, detail: String(err) };
  });
  await attempt(`${t}: ping`, async () => JSON.stringify(await client.ping()) === "{}");
}

/** `relay deposit` by another process, not blocking this one's event loop: {code, stdout, stderr}. */
async function cliDeposit(project, title) {
  return runAsync(relayBin, ["deposit", "--title", title, "-q"], { cwd: project.dir, env: project.env, timeoutMs: 20000 });
}

// ---------- stdio: relay mcp ----------
{
  const project = makeProject("mcp-sdk-stdio");
  const transport = new StdioClientTransport({ command: relayBin, args: ["mcp"], cwd: project.dir, env: { ...project.env, RELAY_ACTOR: "ts-sdk" }, stderr: "pipe" });
  let stderr = "";
  transport.stderr?.on("data", (d) => (stderr += d));
  const errors = [];
  const client = new Client({ name: "relay-harness", version: sdkVersion });
  client.onerror = (e) => errors.push(String(e));
  await attempt("stdio: initialize over `relay mcp`", async () => { await client.connect(transport); });
  const pid = transport.pid;
  await common("stdio", client, { actor: "ts-sdk", subscribe: false });

  await attempt("stdio: resources/subscribe is refused as documented (-32601), and the server still answers", async () => {
    const err = await client.subscribeResource({ uri: FEED }).then(() => null, (e) => e);
    await client.ping();
    return { ok: err instanceof McpError && err.code === -32601, detail: String(err) };
  });
  await attempt("stdio: the watch tool sees a `relay deposit` by another process", async () => {
    const { cursor } = structured(await client.callTool({ name: "watch", arguments: { since: "now" } }));
    const t0 = performance.now();
    const dep = await cliDeposit(project, "From the CLI beside stdio");
    const out = structured(await client.callTool({ name: "watch", arguments: { since: cursor, wait_ms: 2000 } }));
    const titles = out.events.map((e) => e.record?.package?.title);
    console.log(`     stdio: watch returned the CLI deposit ${Math.round(performance.now() - t0)} ms after it started`);
    return { ok: dep.code === 0 && titles.includes("From the CLI beside stdio"), detail: JSON.stringify({ dep, out }).slice(0, 600) };
  });
  check("stdio: stdout held only protocol messages (the SDK reported no error)", errors.length === 0, errors.join("\n"));

  const t0 = performance.now();
  await client.close();
  const closeMs = Math.round(performance.now() - t0);
  let alive = true;
  try { process.kill(pid, 0); } catch { alive = false; }
  // The SDK ends stdin and waits 2 s before it sends SIGTERM: a faster close means relay exited by itself.
  check(`stdio: closing stdin ends relay mcp by itself (${closeMs} ms)`, closeMs < 1900 && !alive, `${closeMs} ms, still alive: ${alive}\n${stderr}`);
}

// ---------- Streamable HTTP: relay serve, /mcp ----------
{
  const project = makeProject("mcp-sdk-http");
  const { dir, env } = project;
  const sh = (cmd, args) => run(cmd, args, { cwd: dir, env });
  // The store is committed and relay's git hooks installed, so that agent hooks queue their
  // records in .relay/local/pending/ and pre-commit moves them in. post-commit is removed: it
  // would queue a (genuinely new) package for the commit, which must not blur the count.
  const setup = [sh(relayBin, ["hook", "install", "--git", "-q"])];
  rmSync(join(dir, ".git/hooks/post-commit"), { force: true });
  setup.push(sh("git", ["add", "-A"]), sh("git", ["commit", "-q", "-m", "relay store"]));
  const minted = sh(relayBin, ["token", "create", "--actor", "remote-agent", "--actor-type", "agent", "-q"]);
  const token = minted.stdout.trim();
  check("http: setup: store committed, git hooks installed, a token made", [...setup, minted].every((r) => r.code === 0) && token.startsWith("relay_"),
    [...setup, minted].map((r) => r.stderr).join("\n"));

  const server = spawn(relayBin, ["serve", "--listen", "127.0.0.1:0"], { cwd: dir, env, stdio: ["ignore", "pipe", "pipe"] });
  let serverErr = "";
  server.stderr.on("data", (d) => (serverErr += d));
  const exited = new Promise((resolve) => server.on("exit", (code, signal) => resolve({ code, signal })));
  const base = await new Promise((resolve) => {
    let out = "";
    const timer = setTimeout(() => resolve(null), 10000);
    server.stdout.on("data", (d) => {
      out += d;
      const m = out.match(/^listening on (http:\/\/127\.0\.0\.1:\d+)\n/);
      if (m) { clearTimeout(timer); resolve(m[1]); }
    });
  });
  check("http: relay serve listens on a free loopback port", !!base, serverErr);
  if (!base) { server.kill("SIGKILL"); finish("mcp-sdk"); }
  const url = new URL(`${base}/mcp`);
  const withToken = (tok) => new StreamableHTTPClientTransport(url, { requestInit: { headers: { Authorization: `Bearer ${tok}` } } });

  await attempt("http: initialize without a token is refused (401), no session", async () => {
    const client = new Client({ name: "relay-harness-anon", version: sdkVersion });
    const err = await client.connect(new StreamableHTTPClientTransport(url)).then(() => null, (e) => e);
    await client.close().catch(() => {});
    return { ok: err && /401/.test(String(err.code ?? "") + String(err)), detail: String(err) };
  });

  const transport = withToken(token);
  const errors = [];
  const client = new Client({ name: "relay-harness", version: sdkVersion });
  client.onerror = (e) => errors.push(String(e));
  const notes = updates(client);
  await attempt("http: initialize over Streamable HTTP opens a session", async () => {
    await client.connect(transport);
    return { ok: !!transport.sessionId && ["2025-11-25", "2025-06-18"].includes(transport.protocolVersion), detail: `${transport.sessionId} ${transport.protocolVersion}` };
  });
  await common("http", client, { actor: "remote-agent", subscribe: true });
  await attempt("http: the tools and schemas are those of relay mcp", async () => {
    const stdio = new Client({ name: "relay-harness-cmp", version: sdkVersion });
    await stdio.connect(new StdioClientTransport({ command: relayBin, args: ["mcp"], cwd: dir, env, stderr: "ignore" }));
    const [a, b] = [await stdio.listTools(), await client.listTools()];
    await stdio.close();
    return JSON.stringify(a.tools) === JSON.stringify(b.tools);
  });

  // Another process deposits: one notifications/resources/updated, within 2 s.
  await attempt("http: resources/subscribe to the feed", async () => { await client.subscribeResource({ uri: FEED }); });
  await sleep(300); // the session's GET stream opens after the handshake; let it be listening
  await attempt("http: a `relay deposit` by another process is notified once, within 2 s", async () => {
    const before = notes.seen.length, t0 = performance.now();
    const dep = await cliDeposit(project, "Deposited by the CLI meanwhile");
    const got = await notes.waitFor(before + 1, 2000);
    const ms = got ? Math.round(notes.seen[before].at - t0) : null;
    console.log(`     http: notifications/resources/updated ${ms ?? "never"} ms after \`relay deposit\` started (it ran ${Math.round(performance.now() - t0)} ms)`);
    await sleep(1000);
    const fresh = notes.seen.slice(before);
    return { ok: dep.code === 0 && got && fresh.length === 1 && fresh[0].uri === FEED, detail: JSON.stringify({ dep: dep.stderr, fresh }) };
  });

  // An agent's session, through relay's Claude Code hooks: SessionEnd queues its package.
  const event = (name, extra) => JSON.stringify({ session_id: "sdk-q1", transcript_path: join(project.home, "transcript.jsonl"),
    cwd: dir, permission_mode: "default", hook_event_name: name, ...extra });
  const hook = (name, extra) => runAsync(relayBin, ["hook", "run", name, "--agent", "claude"], { cwd: dir, env, input: event(name, extra), timeoutMs: 20000 });
  const queued = () => filesUnder(join(dir, ".relay/local/pending")).filter((f) => f.endsWith(".ndjson"))
    .flatMap((f) => readFileSync(join(dir, ".relay/local/pending", f), "utf8").split("\n").filter(Boolean));
  const start = await hook("SessionStart", { source: "startup" });
  check("http: hook SessionStart briefs the agent", start.code === 0 && start.stdout.includes("additionalContext"), start.stdout + start.stderr);
  writeFileSync(join(dir, "notes.txt"), "work of the session\n");
  const before = notes.seen.length, t0 = performance.now();
  const end = await hook("SessionEnd", { reason: "prompt_input_exit" });
  const lines = queued();
  const ids = lines.map((l) => JSON.parse(l).package?.package_id); // queue lines are the store's {"package", "hash"}
  const session = packages(project).filter((p) => p["x-agent-session"] === "sdk-q1");
  check("http: hook SessionEnd queues one package in .relay/local/pending/", end.code === 0 && lines.length === 1 && session.length === 1 && session[0].package_id === ids[0],
    `${end.stderr}\nqueue: ${lines}\nhooks.log: ${existsSync(join(dir, ".relay/local/hooks.log")) ? readFileSync(join(dir, ".relay/local/hooks.log"), "utf8") : ""}`);
  const gotQueued = await notes.waitFor(before + 1, 2000);
  await sleep(1000);
  const afterQueue = notes.seen.length - before;
  console.log(`     http: queued record: ${gotQueued ? `notified ${Math.round(notes.seen[before].at - t0)} ms after the hook started` : "no notification within 2 s"}`);
  // Known gap (being fixed): relay serve does not watch the queue, so this is expected to fail today.
  check("http: a record an agent hook queued is notified exactly once, within 2 s", afterQueue === 1 && notes.seen[before].uri === FEED,
    `${afterQueue} notifications for the queued ${ids[0]}`);

  // The next commit moves the queue into the tracked log: the same record, so no second notification.
  sh("git", ["add", "notes.txt"]);
  const commit = await runAsync("git", ["commit", "-q", "-m", "session work"], { cwd: dir, env, timeoutMs: 30000 });
  const inCommit = run("git", ["show", "--name-only", "--format=", "HEAD"], { cwd: dir, env }).stdout;
  const log = run("git", ["show", "HEAD:.relay/projects/demo/packages/" + (inCommit.match(/packages\/([\d-]+\.ndjson)/)?.[1] ?? "none")], { cwd: dir, env }).stdout;
  check("http: git commit moves the queued record into the store (pre-commit flush)", commit.code === 0 && queued().length === 0 && !!ids[0] && log.includes(ids[0]),
    `${commit.stderr}\ncommitted: ${inCommit}\nqueue now: ${queued()}`);
  await sleep(2000);
  const afterCommit = notes.seen.length - before - afterQueue;
  check("http: moving the queued record into the store sends no second notification", afterQueue + afterCommit === 1 && afterCommit === 0,
    `notifications: ${afterQueue} when queued, ${afterCommit} when the commit moved it`);

  check("http: the SDK reported no transport error", errors.length === 0, errors.join("\n"));
  await attempt("http: DELETE ends the session; the old session id is then 404", async () => {
    const sid = transport.sessionId;
    await transport.terminateSession();
    await client.close();
    const r = await fetch(url, { method: "POST", headers: { Authorization: `Bearer ${token}`, "Mcp-Session-Id": sid, "Content-Type": "application/json", Accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 9, method: "ping" }) });
    return { ok: r.status === 404, detail: `${r.status} ${await r.text()}` };
  });
  server.kill("SIGTERM");
  const stop = await Promise.race([exited, sleep(5000).then(() => null)]);
  check("http: relay serve stops on SIGTERM with exit 0", stop?.code === 0, `${JSON.stringify(stop)}\n${serverErr}`);
  if (!stop) server.kill("SIGKILL");
}

console.log(`mcp-sdk: @modelcontextprotocol/sdk ${sdkVersion} against relay ${relayVersion}, ${((performance.now() - started) / 1000).toFixed(1)} s`);
finish("mcp-sdk");
