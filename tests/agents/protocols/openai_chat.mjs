// A fake OpenAI-compatible Chat Completions API for lib.mjs's fakeModel: `POST /v1/chat/completions`
// answered as the API streams it (server-sent `chat.completion.chunk`s: the text, then any scripted
// tool calls, the finish reason, a usage chunk and `[DONE]`), or as one `chat.completion` when the
// request does not ask to stream; and `GET /v1/models`. What each request gets is the script's
// choice: `reply(request, requests)` returns {text, toolCalls: [{name, arguments}]}.
import { sse } from "../lib.mjs";

const CHAT = "/v1/chat/completions";

/** Is this recorded request a chat completion? */
export function isChat(req) {
  return req.method === "POST" && req.path.split("?")[0].endsWith(CHAT);
}

/** The text of a chat request's system messages, joined. */
export function systemText(req) {
  return (req.body?.messages ?? [])
    .filter((m) => m.role === "system")
    .map((m) => (typeof m.content === "string" ? m.content : (m.content ?? []).map((p) => p.text ?? "").join("")))
    .join("\n");
}

let serial = 0;

/** Writes one scripted answer to `res`: streamed when the request asks for it. */
export function answer(req, res, { text = "", toolCalls = [] } = {}) {
  const id = `chatcmpl-fake-${++serial}`;
  const model = req.body?.model ?? "fake";
  const created = Math.floor(Date.now() / 1000);
  const calls = toolCalls.map((c, index) => ({
    index,
    id: c.id ?? `call_${serial}_${index}`,
    type: "function",
    function: { name: c.name, arguments: typeof c.arguments === "string" ? c.arguments : JSON.stringify(c.arguments ?? {}) },
  }));
  const finish = calls.length ? "tool_calls" : "stop";
  const usage = { prompt_tokens: 100, completion_tokens: 20, total_tokens: 120 };
  if (!req.body?.stream) {
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify({
      id, object: "chat.completion", created, model,
      choices: [{ index: 0, message: { role: "assistant", content: text || null, ...(calls.length ? { tool_calls: calls.map(({ index, ...c }) => c) } : {}) }, finish_reason: finish }],
      usage,
    }));
    return;
  }
  const chunk = (choices, extra = {}) => [null, { id, object: "chat.completion.chunk", created, model, choices, ...extra }];
  const events = [chunk([{ index: 0, delta: { role: "assistant", content: "" }, finish_reason: null }])];
  if (text) events.push(chunk([{ index: 0, delta: { content: text }, finish_reason: null }]));
  for (const call of calls) events.push(chunk([{ index: 0, delta: { tool_calls: [call] }, finish_reason: null }]));
  events.push(chunk([{ index: 0, delta: {}, finish_reason: finish }]));
  events.push(chunk([], { usage }));
  events.push([null, "[DONE]"]);
  sse(res, events);
}

/** fakeModel handlers: chat completions answered by `reply(request, requests)`, and a model list. */
export function openaiChat(reply, { models = ["fake-model"] } = {}) {
  return [
    { match: isChat, respond: (req, res, requests) => answer(req, res, reply(req, requests)) },
    {
      match: (req) => req.method === "GET" && req.path.split("?")[0].endsWith("/v1/models"),
      respond: (req, res) => {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify({ object: "list", data: models.map((id) => ({ id, object: "model", created: 0, owned_by: "harness" })) }));
      },
    },
  ];
}
