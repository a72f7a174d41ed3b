import type { ChatReply } from "./provider-reply.js";

/**
 * Limits on what the model sends before it enters the transcript (issue 18, problem 11). Whatever
 * enters the transcript is re-sent with every later request, so a 5 MB `content` once made requests
 * of 5.3 → 10.6 → 15.8 MB. A turn is two small tool calls; nothing legitimate comes near these:
 * - assistant text (`content`): MAX_CONTENT_CHARS, the rest cut with a marker the model reads;
 * - one call's arguments: MAX_ARGUMENT_CHARS (the longest tool input, a 2000-character clipboard
 *   text, is ~2 KB of JSON); longer arguments are replaced by a short JSON placeholder and the turn
 *   is rejected (nothing runs), so a rejected argument never stays verbatim;
 * - a tool name: MAX_TOOL_NAME_CHARS (the OpenAI API's own limit on function names).
 */
export const MAX_CONTENT_CHARS = 4000;
export const MAX_ARGUMENT_CHARS = 8000;
export const MAX_TOOL_NAME_CHARS = 64;

export interface BoundedReply {
  reply: ChatReply;
  /** Why the turn must be rejected (arguments over the limit), or null. */
  rejection: string | null;
}

/** The reply with every field within the limits above (the input is not changed). */
export function boundReply(reply: ChatReply): BoundedReply {
  let rejection: string | null = null;
  const toolCalls = reply.toolCalls.map((call) => {
    const name =
      call.name.length <= MAX_TOOL_NAME_CHARS ? call.name : `${call.name.slice(0, MAX_TOOL_NAME_CHARS)}…`;
    if (call.arguments.length <= MAX_ARGUMENT_CHARS) return name === call.name ? call : { ...call, name };
    const what = `${call.arguments.length} characters, over the limit of ${MAX_ARGUMENT_CHARS}`;
    rejection ??= `the arguments of \`${name}\` were ${what}`;
    return { ...call, name, arguments: JSON.stringify({ clipped_by_piclaw: what }) };
  });
  const content =
    reply.content !== null && reply.content.length > MAX_CONTENT_CHARS
      ? `${reply.content.slice(0, MAX_CONTENT_CHARS)}\n[clipped by PiClaw: ${reply.content.length} characters, over the limit of ${MAX_CONTENT_CHARS}]`
      : reply.content;
  return { reply: { ...reply, content, toolCalls }, rejection };
}
