/**
 * The chat transcript in PiClaw's own terms: the subset of the OpenAI-compatible wire format the
 * agent produces and sends. Only provider.ts talks to the `openai` SDK; everything else (window,
 * fold, token estimates, transcript checks, tests) uses these types, so a provider swap or an SDK
 * upgrade touches one file. The shapes match the wire format field for field, which is why the
 * provider can hand them over unchanged.
 */

export interface ChatTextPart {
  type: "text";
  text: string;
}

export interface ChatImagePart {
  type: "image_url";
  image_url: { url: string; detail?: "auto" | "low" | "high" };
}

export type ChatContentPart = ChatTextPart | ChatImagePart;

/** One function call in an assistant message (arguments are the raw JSON text the model sent). */
export interface ChatToolCall {
  id: string;
  type: "function";
  function: { name: string; arguments: string };
}

export interface ChatSystemMessage {
  role: "system";
  content: string;
}

export interface ChatUserMessage {
  role: "user";
  content: string | ChatContentPart[];
}

export interface ChatAssistantMessage {
  role: "assistant";
  content: string | null;
  tool_calls?: ChatToolCall[];
}

/** A tool result: text only (providers reject images in tool messages). */
export interface ChatToolMessage {
  role: "tool";
  tool_call_id: string;
  content: string;
}

export type ChatMessage = ChatSystemMessage | ChatUserMessage | ChatAssistantMessage | ChatToolMessage;

/** One entry of the provider's `tools=[…]`: a function with a JSON schema for its arguments. */
export interface ChatToolSchema {
  type: "function";
  function: { name: string; description: string; parameters: Record<string, unknown> };
}
