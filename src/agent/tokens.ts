import type { ChatMessage } from "./messages.js";

/**
 * Prompt size estimates. Exact counts need the provider's tokenizer, which differs per model; the
 * window only needs a stable, cheap upper-ish bound to decide when to fold and to report sizes:
 * - text: 4 characters per token (English prose and listing rows come out at 3.5–4.5 with GPT-style
 *   tokenizers), rounded up per message;
 * - each image: a fixed cost, `DEFAULT_IMAGE_TOKENS` unless told otherwise (a phone screen at
 *   "low"/"auto" detail in an OpenAI-compatible API costs 85–1,100 tokens depending on the size the
 *   provider scales it to; 800 is a middle estimate for a ~390×844 screen);
 * - each message: a small fixed overhead for role and separators (`MESSAGE_OVERHEAD_TOKENS`).
 */
export const CHARS_PER_TOKEN = 4;
export const DEFAULT_IMAGE_TOKENS = 800;
export const MESSAGE_OVERHEAD_TOKENS = 4;

export function estimateTextTokens(text: string): number {
  return Math.ceil(text.length / CHARS_PER_TOKEN);
}

/** Characters of text and number of images in one message (tool-call names and arguments count as text). */
function measure(message: ChatMessage): { chars: number; images: number } {
  let chars = 0;
  let images = 0;
  const { content } = message;
  if (typeof content === "string") chars += content.length;
  else if (Array.isArray(content)) {
    for (const part of content) {
      if (part.type === "text") chars += part.text.length;
      else if (part.type === "image_url") images += 1;
      else chars += JSON.stringify(part).length;
    }
  }
  if (message.role === "assistant" && message.tool_calls) {
    for (const call of message.tool_calls) {
      if (call.type === "function") chars += call.function.name.length + call.function.arguments.length;
      else chars += JSON.stringify(call).length;
    }
  }
  return { chars, images };
}

/** Estimated prompt tokens of `messages` (see the module comment for the rule). */
export function estimateMessagesTokens(
  messages: readonly ChatMessage[],
  imageTokens = DEFAULT_IMAGE_TOKENS,
): number {
  let total = 0;
  for (const m of messages) {
    const { chars, images } = measure(m);
    total += MESSAGE_OVERHEAD_TOKENS + Math.ceil(chars / CHARS_PER_TOKEN) + images * imageTokens;
  }
  return total;
}
