import { PiclawError } from "../util/errors.js";
import { DEFAULT_FOLD_POLICY, FoldedSlots, type FoldPolicy } from "./fold.js";
import type { ChatAssistantMessage, ChatMessage } from "./messages.js";
import type { ConversationWindow, FoldReport, ToolCallRecord, ToolOutcome } from "./ports.js";
import { lastImage, liveText, supersededText } from "./result-text.js";
import { DEFAULT_IMAGE_TOKENS, estimateMessagesTokens } from "./tokens.js";

export interface ContextWindowOptions {
  /** The system part (see prompt.ts); it never changes during a session, which keeps it cached. */
  system: string;
  policy?: FoldPolicy;
  /** Estimated tokens per image (see tokens.ts). */
  imageTokens?: number;
  /** `detail` for image parts; omitted (provider default) when unset. */
  imageDetail?: "auto" | "low" | "high";
}

/** One assistant message and what answered it. `outcomes` is null while its tool calls are running. */
interface LiveTurn {
  number: number;
  content: string | null;
  calls: ToolCallRecord[];
  outcomes: ToolOutcome[] | null;
  /** User messages added after this turn's results. */
  after: string[];
}

/** Where the newest screen image sits: the turn and the outcome that carried it. */
interface ImageRef {
  turn: number;
  callId: string;
}

/**
 * The conversation of one session (see `ConversationWindow` for the contract). Layout of `messages()`:
 * system → pinned user messages (whatever came before the first turn: the wake message) → folded
 * slots (loads, summary) → live turns. A live turn is its assistant message, one tool message per call
 * (text only), then — only for the turn holding the newest screen image — a user message carrying
 * that image, then any user messages added after it. A turn whose calls are still running is left
 * out until its results arrive, so `messages()` is legal at every moment; user messages added
 * meanwhile (a steer) are queued behind those results.
 */
export class ContextWindow implements ConversationWindow {
  private readonly pinned: string[] = [];
  private readonly live: LiveTurn[] = [];
  private readonly folded = new FoldedSlots();
  private readonly policy: FoldPolicy;
  private readonly imageTokens: number;
  private completed = 0;
  private lastFoldAt: number | null = null;
  /** The newest image that left with a fold: shown after the slots while no live turn has one. */
  private foldedImage: { turn: number; name: string; data: string; text: string } | null = null;

  constructor(private readonly options: ContextWindowOptions) {
    this.policy = options.policy ?? DEFAULT_FOLD_POLICY;
    this.imageTokens = options.imageTokens ?? DEFAULT_IMAGE_TOKENS;
  }

  get turns(): number {
    return this.completed;
  }

  /** Turns folded into the summary so far. */
  get foldedTurns(): number {
    return this.folded.foldedTurns;
  }

  addAssistant(content: string | null, toolCalls: ToolCallRecord[]): void {
    if (this.pending())
      throw new PiclawError(
        "WINDOW_ORDER",
        "addAssistant while the previous turn's tool calls have no results",
      );
    const turn: LiveTurn = {
      number: this.completed + 1,
      content,
      calls: toolCalls.map((c) => ({ ...c })),
      outcomes: null,
      after: [],
    };
    if (toolCalls.length === 0) {
      turn.outcomes = [];
      this.completed += 1;
    }
    this.live.push(turn);
  }

  addToolResults(outcomes: ToolOutcome[]): void {
    const turn = this.pending();
    if (!turn)
      throw new PiclawError("WINDOW_ORDER", "addToolResults without an assistant turn waiting for results");
    const expected = turn.calls.map((c) => c.id);
    const got = outcomes.map((o) => o.callId);
    if (expected.length !== got.length || expected.some((id, i) => id !== got[i]))
      throw new PiclawError(
        "WINDOW_RESULTS_MISMATCH",
        `results must answer the calls one each, in order: expected [${expected.join(", ")}], got [${got.join(", ")}]`,
        { expected, got },
      );
    turn.outcomes = outcomes.map((o) => ({ ...o }));
    this.completed += 1;
  }

  addUser(text: string): void {
    const last = this.live.at(-1);
    if (last === undefined) this.pinned.push(text);
    else last.after.push(text); // while calls run, `after` renders behind their results, as it must
  }

  messages(): ChatMessage[] {
    const out: ChatMessage[] = [{ role: "system", content: this.options.system }];
    for (const text of this.pinned) out.push({ role: "user", content: text });
    out.push(...this.folded.messages());
    const newest = this.newestImage();
    if (newest === null && this.foldedImage) {
      const f = this.foldedImage;
      out.push(
        this.imageMessage(
          f.data,
          `Screen image from turn ${f.turn} (${f.name}), the newest one. Its result:\n${f.text}`,
        ),
      );
    }
    for (const turn of this.live) {
      if (turn.outcomes === null) {
        // Calls still running: the assistant message waits for its results; queued user text may go.
        for (const text of turn.after) out.push({ role: "user", content: text });
        continue;
      }
      out.push(this.assistantMessage(turn));
      let image: { data: string; name: string } | null = null;
      for (const o of turn.outcomes) {
        const data = lastImage(o.result);
        const isNewest = data !== null && newest?.turn === turn.number && newest.callId === o.callId;
        let content: string;
        if (data === null) content = liveText(o.result);
        else if (isNewest) {
          content = `${liveText(o.result)}\n(the screen image is in the next message)`;
          image = { data, name: o.name };
        } else content = supersededText(o.name, o.result);
        out.push({ role: "tool", tool_call_id: o.callId, content });
      }
      if (image) {
        const caption = `Screen image from turn ${turn.number} (${image.name}). Only the newest image is kept; older ones are now text stubs.`;
        out.push(this.imageMessage(image.data, caption));
      }
      for (const text of turn.after) out.push({ role: "user", content: text });
    }
    return out;
  }

  estimateTokens(): number {
    return estimateMessagesTokens(this.messages(), this.imageTokens);
  }

  /**
   * Fold when the policy says so: first once `firstAt` turns are complete, then every `every` turns
   * after the previous fold. A fold moves every completed live turn but the `keep` newest into the
   * slots. A turn whose calls are still running is never folded.
   */
  maybeFold(): FoldReport | null {
    const { firstAt, keep, every } = this.policy;
    const due =
      this.lastFoldAt === null ? this.completed >= firstAt : this.completed >= this.lastFoldAt + every;
    if (!due) return null;
    const complete = this.live.filter((t) => t.outcomes !== null);
    const count = complete.length - keep;
    if (count <= 0) return null;
    const tokensBefore = this.estimateTokens();
    const foldedAway = this.live.splice(0, count);
    for (const turn of foldedAway) {
      for (const o of turn.outcomes ?? []) {
        const data = lastImage(o.result);
        if (data !== null)
          this.foldedImage = { turn: turn.number, name: o.name, data, text: liveText(o.result) };
      }
      this.folded.add({
        number: turn.number,
        calls: turn.calls,
        outcomes: turn.outcomes ?? [],
        after: turn.after,
      });
    }
    this.lastFoldAt = this.completed;
    return { foldedTurns: count, tokensBefore, tokensAfter: this.estimateTokens() };
  }

  private pending(): LiveTurn | undefined {
    const last = this.live.at(-1);
    return last && last.outcomes === null ? last : undefined;
  }

  private newestImage(): ImageRef | null {
    for (let t = this.live.length - 1; t >= 0; t--) {
      const turn = this.live[t] as LiveTurn;
      const outcomes = turn.outcomes ?? [];
      for (let i = outcomes.length - 1; i >= 0; i--) {
        const o = outcomes[i] as ToolOutcome;
        if (lastImage(o.result) !== null) return { turn: turn.number, callId: o.callId };
      }
    }
    return null;
  }

  private imageMessage(data: string, caption: string): ChatMessage {
    return {
      role: "user",
      content: [
        { type: "text", text: caption },
        {
          type: "image_url",
          image_url: {
            url: `data:image/jpeg;base64,${data}`,
            ...(this.options.imageDetail ? { detail: this.options.imageDetail } : {}),
          },
        },
      ],
    };
  }

  private assistantMessage(turn: LiveTurn): ChatAssistantMessage {
    if (turn.calls.length === 0) return { role: "assistant", content: turn.content ?? "" };
    return {
      role: "assistant",
      content: turn.content,
      tool_calls: turn.calls.map((c) => ({
        id: c.id,
        type: "function",
        function: { name: c.name, arguments: c.arguments },
      })),
    };
  }
}
