// A fake Gemini API (generativelanguage v1beta, as @google/genai calls it under
// GOOGLE_GEMINI_BASE_URL) for lib.mjs's fakeModel: `:streamGenerateContent?alt=sse` answers as
// SSE of GenerateContentResponse chunks with usageMetadata, `:generateContent` and
// `:countTokens` as JSON. Gemini CLI sends four kinds of request, told apart by their system
// instruction: the conversation ("You are Gemini CLI…", streamed), the model router's
// classifier (JSON wanted), the chat compressor (a `<state_snapshot>` wanted, twice: summary,
// then a verification pass) and anything else (answered with a short text).
import { sse } from "../lib.mjs";

/** The text of a request's system instruction. */
export function systemText(body) {
  const si = body?.systemInstruction ?? body?.system_instruction;
  if (!si) return "";
  if (typeof si === "string") return si;
  return (si.parts ?? []).map((p) => p.text ?? "").join("\n");
}

/** What a recorded request is: "conversation", "routing", "compression", "count" or "other". */
export function kindOf(req) {
  if (req.path.includes(":countTokens")) return "count";
  const system = systemText(req.body);
  if (system.includes("<state_snapshot>")) return "compression";
  if (req.path.includes(":streamGenerateContent") && system.trimStart().startsWith("You are Gemini CLI")) return "conversation";
  if (/complexity_score|model_choice/.test(system)) return "routing";
  return "other";
}

/** The text parts of one Content, joined. */
export function contentText(content) {
  return (content?.parts ?? []).map((p) => p.text ?? "").join("\n");
}

/** The conversation's latest user Content: {text, toolResult} (toolResult: it carries a
 * functionResponse, i.e. the model's tool call was answered). */
export function lastUser(body) {
  const user = [...(body?.contents ?? [])].reverse().find((c) => c.role === "user");
  return { text: contentText(user), toolResult: !!user?.parts?.some((p) => p.functionResponse) };
}

const json = (res, value) => {
  res.writeHead(200, { "content-type": "application/json" });
  res.end(JSON.stringify(value));
};

const usage = (prompt, out = 8) => ({ promptTokenCount: prompt, candidatesTokenCount: out, totalTokenCount: prompt + out });

/** A rough token count, as the CLI's own estimate does it (about four characters a token). */
const tokensOf = (body) => Math.ceil(JSON.stringify(body?.contents ?? body ?? "").length / 4);

/**
 * The handlers. `turn(req)` scripts the conversation: it returns {text} or
 * {call: {name, args}}, and optionally `promptTokens` (the usageMetadata.promptTokenCount
 * reported, which is what Gemini CLI compares with its compression threshold).
 * `snapshot(req)` returns the compressor's answer (default: a bare <state_snapshot>).
 */
export function geminiApi({ turn, snapshot }) {
  return [
    {
      match: (r) => r.method === "POST" && kindOf(r) === "count",
      respond: (r, res) => json(res, { totalTokens: tokensOf(r.body) }),
    },
    {
      match: (r) => r.method === "POST" && r.path.includes(":streamGenerateContent"),
      respond: (r, res) => {
        const model = r.path.match(/models\/([^:]+):/)?.[1] ?? "gemini";
        const answer = kindOf(r) === "conversation" ? turn(r) : { text: "OK." };
        const promptTokens = answer.promptTokens ?? tokensOf(r.body);
        const base = { modelVersion: model, responseId: `fake-${r.path.length}-${Date.now()}` };
        if (answer.call) {
          const part = { functionCall: { name: answer.call.name, args: answer.call.args } };
          return sse(res, [[null, { ...base, candidates: [{ index: 0, content: { role: "model", parts: [part] }, finishReason: "STOP" }], usageMetadata: usage(promptTokens) }]]);
        }
        // Text in two chunks, the usage with the last, as the real API streams it.
        const half = Math.ceil(answer.text.length / 2);
        return sse(res, [
          [null, { ...base, candidates: [{ index: 0, content: { role: "model", parts: [{ text: answer.text.slice(0, half) }] } }] }],
          [null, { ...base, candidates: [{ index: 0, content: { role: "model", parts: [{ text: answer.text.slice(half) }] }, finishReason: "STOP" }], usageMetadata: usage(promptTokens) }],
        ]);
      },
    },
    {
      match: (r) => r.method === "POST" && r.path.includes(":generateContent"),
      respond: (r, res) => {
        const kind = kindOf(r);
        let text = "OK.";
        if (kind === "routing") {
          // Both classifiers' schemas: the numerical one and the flash/pro one.
          text = JSON.stringify({ complexity_reasoning: "A small edit.", complexity_score: 20, reasoning: "A small edit.", model_choice: "flash" });
        } else if (kind === "compression") {
          text = snapshot ? snapshot(r) : "<state_snapshot>\n<overall_goal>Keep working on the notes.</overall_goal>\n</state_snapshot>";
        }
        json(res, { candidates: [{ index: 0, content: { role: "model", parts: [{ text }] }, finishReason: "STOP" }], usageMetadata: usage(tokensOf(r.body)) });
      },
    },
  ];
}
