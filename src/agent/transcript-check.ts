import type { ChatMessage } from "./messages.js";

/**
 * What an OpenAI-compatible provider accepts as a transcript, as a checker the tests (and a debug
 * assertion in the engine, if wanted) run after every operation. Returns the problems found, empty
 * when the transcript is legal:
 * - the first message is the system message, and it is the only system message;
 * - an assistant message with tool calls has a non-empty `tool_calls` and is followed immediately by
 *   exactly one `tool` message per call (any order among themselves), nothing in between;
 * - a `tool` message appears nowhere else, and its content is text only (providers reject images there);
 * - images (`image_url` parts) appear only in user messages;
 * - tool call ids are unique across the transcript;
 * - the transcript does not end on an assistant message with unanswered tool calls.
 */
export function transcriptProblems(messages: readonly ChatMessage[]): string[] {
  const problems: string[] = [];
  if (messages[0]?.role !== "system") problems.push("message 0 is not the system message");
  for (const [i, m] of messages.entries()) {
    if (m.role === "user" || !Array.isArray(m.content)) continue;
    for (const part of m.content) {
      if (part.type !== "text")
        problems.push(`message ${i} (${m.role}): a ${part.type} part outside a user message`);
    }
  }
  const seenIds = new Set<string>();
  let i = 0;
  while (i < messages.length) {
    const m = messages[i] as ChatMessage;
    if (i > 0 && m.role === "system") problems.push(`message ${i}: a second ${m.role} message`);
    if (m.role === "tool") {
      problems.push(`message ${i}: a tool message that answers no preceding assistant tool call`);
      i += 1;
      continue;
    }
    if (m.role !== "assistant" || m.tool_calls === undefined) {
      i += 1;
      continue;
    }
    if (m.tool_calls.length === 0) problems.push(`message ${i}: assistant with an empty tool_calls array`);
    const expected = new Set<string>();
    for (const call of m.tool_calls) {
      if (seenIds.has(call.id) || expected.has(call.id))
        problems.push(`message ${i}: tool call id ${call.id} reused`);
      expected.add(call.id);
      seenIds.add(call.id);
    }
    let j = i + 1;
    for (; j < messages.length; j++) {
      const t = messages[j] as ChatMessage;
      if (t.role !== "tool") break;
      if (!expected.delete(t.tool_call_id))
        problems.push(
          `message ${j}: tool message for ${t.tool_call_id}, which the assistant at ${i} did not call (or answered twice)`,
        );
    }
    for (const id of expected)
      problems.push(`message ${i}: tool call ${id} has no tool message right after it`);
    i = j;
  }
  return problems;
}
