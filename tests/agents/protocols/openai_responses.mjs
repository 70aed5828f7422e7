// A fake OpenAI Responses API for lib.mjs's fakeModel: `POST /v1/responses` answered as the API
// streams it (server-sent events: response.created, response.in_progress, then per output item
// response.output_item.added, its response.output_text.delta parts or function-call argument
// deltas, response.output_item.done, and last response.completed with usage), or as one JSON
// response when the request does not ask to stream; `GET /v1/models` gets a one-model list, in
// both OpenAI's shape ({object: "list", data}) and the {models} shape Codex reads. What each request
// gets is the script's choice: `reply(request, requests)` returns {text, calls: [{name, arguments}],
// usage} (usage's input_tokens, default 100, lets a script push an agent past its context limit).
import { sse } from "../lib.mjs";

const RESPONSES = "/v1/responses";
const path = (req) => req.path.split("?")[0];

/** Is this recorded request a Responses API call? */
export function isResponses(req) {
  return req.method === "POST" && path(req).endsWith(RESPONSES);
}

/** The request's input items (the conversation so far). */
export const inputItems = (req) => (Array.isArray(req.body?.input) ? req.body.input : []);

/** The text of a message item (its content parts joined), "" for other items. */
export function itemText(item) {
  if (item?.type !== "message" && item?.role === undefined) return "";
  const c = item.content;
  if (typeof c === "string") return c;
  return (c ?? []).map((p) => p.text ?? "").join("\n");
}

/** The text of the user's messages in a request, each item one entry. */
export const userTexts = (req) => inputItems(req).filter((i) => i.role === "user").map(itemText);

/** The function-call outputs a request sends back, as {call_id, output}. */
export const callOutputs = (req) => inputItems(req).filter((i) => i.type === "function_call_output" || i.type === "custom_tool_call_output");

/** The tool names a request offers the model. */
export const toolNames = (req) => (req.body?.tools ?? []).map((t) => t.name ?? t.type);

let serial = 0;

/** The output items of a scripted reply. */
function outputItems({ text = "", calls = [] }) {
  const items = [];
  if (text) items.push({ type: "message", id: `msg_fake_${++serial}`, role: "assistant", status: "completed", content: [{ type: "output_text", text, annotations: [] }] });
  for (const c of calls) {
    const n = ++serial;
    items.push({ type: "function_call", id: `fc_fake_${n}`, call_id: c.id ?? `call_fake_${n}`, name: c.name, status: "completed",
      arguments: typeof c.arguments === "string" ? c.arguments : JSON.stringify(c.arguments ?? {}) });
  }
  return items;
}

function usageOf(reply) {
  const input = reply.usage?.input_tokens ?? 100;
  const output = reply.usage?.output_tokens ?? 20;
  return { input_tokens: input, input_tokens_details: { cached_tokens: 0 }, output_tokens: output, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: input + output };
}

/** Writes one scripted answer to `res`. */
export function answer(req, res, reply = {}) {
  const id = `resp_fake_${++serial}`;
  const model = req.body?.model ?? "fake";
  const items = outputItems(reply);
  const base = { id, object: "response", created_at: Math.floor(Date.now() / 1000), model, output: [] };
  const done = { ...base, status: "completed", output: items, usage: usageOf(reply) };
  if (req.body?.stream === false) {
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify(done));
    return;
  }
  let seq = 0;
  const ev = (type, data) => [type, { type, sequence_number: seq++, ...data }];
  const events = [ev("response.created", { response: { ...base, status: "in_progress" } }), ev("response.in_progress", { response: { ...base, status: "in_progress" } })];
  items.forEach((item, output_index) => {
    if (item.type === "message") {
      events.push(ev("response.output_item.added", { output_index, item: { ...item, status: "in_progress", content: [] } }));
      const t = item.content[0].text, cut = Math.floor(t.length / 2);
      // Two deltas, so the agent has to join them.
      for (const delta of [t.slice(0, cut), t.slice(cut)]) events.push(ev("response.output_text.delta", { item_id: item.id, output_index, content_index: 0, delta }));
      events.push(ev("response.output_text.done", { item_id: item.id, output_index, content_index: 0, text: t }));
    } else {
      events.push(ev("response.output_item.added", { output_index, item: { ...item, status: "in_progress", arguments: "" } }));
      events.push(ev("response.function_call_arguments.delta", { item_id: item.id, output_index, delta: item.arguments }));
      events.push(ev("response.function_call_arguments.done", { item_id: item.id, output_index, arguments: item.arguments }));
    }
    events.push(ev("response.output_item.done", { output_index, item }));
  });
  events.push(ev("response.completed", { response: done }));
  sse(res, events);
}

/** Handlers for fakeModel(): `reply(request, requests)` scripts each Responses call. */
export function responsesHandlers(reply) {
  return [
    {
      match: isResponses,
      respond: async (req, res, requests) => answer(req, res, await reply(req, requests)),
    },
    {
      match: (req) => req.method === "GET" && path(req).endsWith("/models"),
      respond: (req, res) => {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify({ object: "list", data: [{ id: "fake-model", object: "model", created: 1735689600, owned_by: "harness" }], models: [] }));
      },
    },
  ];
}
