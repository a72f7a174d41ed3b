import type { ChatProvider, ChatRequest } from "../../agent/provider.js";
import type { ChatReply } from "../../agent/provider-reply.js";
import { lastToolResult, newestRows, type Row } from "./rows.js";

/** What a scripted policy sees each turn: the newest listing's rows and the last tool result. */
export interface Look {
  rows: Row[];
  lastResult: string;
  /** 1 for the first turn of the session. */
  turn: number;
}

/** One turn: a note (the engine requires one) and one tool call. */
export interface Decision {
  note: string;
  tool: string;
  args?: Record<string, unknown>;
}

export type Policy = (look: Look) => Decision;

/**
 * A `ChatProvider` that is not a model: a fixed policy that reads only the listing (no image, no
 * simulator truth) and answers with tool calls, as a model would. `piclaw eval --baseline` uses it to
 * show which tasks the listing alone supports. Token counts are 0.
 */
export class ScriptedProvider implements ChatProvider {
  readonly name = "baseline";
  readonly model = "scripted-listing-policy";
  private turns = 0;
  private calls = 0;

  constructor(private readonly policy: Policy) {}

  async complete(request: ChatRequest): Promise<ChatReply> {
    this.turns++;
    const d = this.policy({
      rows: newestRows(request.messages),
      lastResult: lastToolResult(request.messages),
      turn: this.turns,
    });
    const call = (name: string, args: unknown) => ({
      id: `call_${++this.calls}`,
      name,
      arguments: JSON.stringify(args),
    });
    return {
      content: null,
      toolCalls: [call("note", { summary: d.note }), call(d.tool, d.args ?? {})],
      usage: { prompt: 0, completion: 0 },
      finishReason: "tool_calls",
    };
  }
}
