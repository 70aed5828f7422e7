// A fake Anthropic Messages API for lib.mjs's fakeModel: `POST /v1/messages` answered from a
// script, as the Messages SSE stream when the request asks `stream: true` (message_start, then
// per block content_block_start / content_block_delta / content_block_stop, message_delta with
// stop_reason and usage, message_stop) and as one JSON message otherwise; `count_tokens` gets a
// rough count and `GET /v1/models` a one-model list, so nothing Claude Code asks goes unanswered.
import { sse } from "../lib.mjs";

/** A text reply. */
export const text = (t) => ({ content: [{ type: "text", text: t }], stop_reason: "end_turn" });

let toolIds = 0;
/** A reply that calls one tool (the agent runs it and sends a tool_result back). */
export const toolUse = (name, input, preface = "") => ({
  content: [...(preface ? [{ type: "text", text: preface }] : []), { type: "tool_use", id: `toolu_fake_${++toolIds}`, name, input }],
  stop_reason: "tool_use",
});

/** The text of a message's content (a string, or blocks whose text and tool results are joined). */
export function contentText(content) {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content.map((b) => (b.type === "text" ? b.text : b.type === "tool_result" ? contentText(b.content) : "")).join("\n");
}

/** The system prompt as one string. */
export function systemText(body) {
  return body?.system === undefined ? "" : contentText(body.system);
}

/** The last message of a request. */
export function lastMessage(body) {
  const m = body?.messages ?? [];
  return m[m.length - 1];
}

/** True when the last message hands back the result of a tool call. */
export function isToolResult(body) {
  const last = lastMessage(body);
  return last?.role === "user" && Array.isArray(last.content) && last.content.some((b) => b.type === "tool_result");
}

/** The tool names a request offers the model. */
export const toolNames = (body) => (body?.tools ?? []).map((t) => t.name);

/** A rough token count, enough for an agent's budget arithmetic. */
const roughTokens = (body) => Math.ceil(JSON.stringify(body ?? "").length / 4);

function message(body, reply) {
  return {
    id: `msg_fake_${Math.random().toString(36).slice(2, 10)}`,
    type: "message",
    role: "assistant",
    model: body?.model ?? "claude-fake",
    content: reply.content,
    stop_reason: reply.stop_reason,
    stop_sequence: null,
    usage: { input_tokens: roughTokens(body), output_tokens: 20, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
  };
}

/** The SSE events of a reply, as lib's sse() takes them. */
export function streamEvents(body, reply) {
  const msg = message(body, reply);
  const events = [["message_start", { type: "message_start", message: { ...msg, content: [], stop_reason: null, usage: { ...msg.usage, output_tokens: 1 } } }]];
  reply.content.forEach((block, index) => {
    if (block.type === "text") {
      events.push(["content_block_start", { type: "content_block_start", index, content_block: { type: "text", text: "" } }]);
      // Two deltas, so the agent has to join them.
      const cut = Math.floor(block.text.length / 2);
      for (const part of [block.text.slice(0, cut), block.text.slice(cut)]) {
        events.push(["content_block_delta", { type: "content_block_delta", index, delta: { type: "text_delta", text: part } }]);
      }
    } else if (block.type === "tool_use") {
      events.push(["content_block_start", { type: "content_block_start", index, content_block: { type: "tool_use", id: block.id, name: block.name, input: {} } }]);
      const json = JSON.stringify(block.input);
      const cut = Math.floor(json.length / 2);
      for (const part of [json.slice(0, cut), json.slice(cut)]) {
        events.push(["content_block_delta", { type: "content_block_delta", index, delta: { type: "input_json_delta", partial_json: part } }]);
      }
    }
    events.push(["content_block_stop", { type: "content_block_stop", index }]);
  });
  events.push(["message_delta", { type: "message_delta", delta: { stop_reason: reply.stop_reason, stop_sequence: null }, usage: { output_tokens: msg.usage.output_tokens } }]);
  events.push(["message_stop", { type: "message_stop" }]);
  return events;
}

/** Handlers for fakeModel(): `script(record, requests)` returns the reply (text(), toolUse() or
 * {content, stop_reason}) to a Messages request. */
export function anthropicHandlers(script) {
  const path = (r) => r.path.split("?")[0];
  return [
    {
      match: (r) => r.method === "POST" && path(r) === "/v1/messages/count_tokens",
      respond: (r, res) => {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify({ input_tokens: roughTokens(r.body) }));
      },
    },
    {
      match: (r) => r.method === "POST" && path(r) === "/v1/messages",
      respond: async (r, res, requests) => {
        const reply = await script(r, requests);
        if (r.body?.stream) return sse(res, streamEvents(r.body, reply));
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify(message(r.body, reply)));
      },
    },
    {
      match: (r) => r.method === "GET" && path(r) === "/v1/models",
      respond: (r, res) => {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify({ data: [{ type: "model", id: "claude-fake", display_name: "Fake", created_at: "2025-01-01T00:00:00Z" }], has_more: false, first_id: "claude-fake", last_id: "claude-fake" }));
      },
    },
  ];
}
