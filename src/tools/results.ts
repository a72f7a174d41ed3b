import type { ScreenView } from "../vision/pipeline.js";
import type { Verdict, VerdictResult } from "../vision/verdict.js";
import type { Acted } from "./rig-session.js";
import { jpegPart, type TextPart, type ToolContent, type ToolResult } from "./types.js";

/**
 * The shapes tool results take. Views: `[image, listing]`. Gestures: `[text, image, listing]`, where the
 * text says what was done, the verdict (`screen: changed` / `screen: no visible change` /
 * `screen: unknown (why)`) and one line on what to do next.
 */

/** The listing as the model reads it: a one-line header, then one row per element. */
export function listingPart(header: string, view: ScreenView): TextPart {
  const rows = view.listing.trim() === "" ? "(nothing recognised on the screen)" : view.listing;
  return { type: "text", text: `${header}\n${rows}` };
}

/** `[image, listing]` */
export function viewResult(header: string, view: ScreenView): ToolResult {
  return { content: [jpegPart(view.image), listingPart(header, view)], isError: false };
}

export function verdictLine(verdict: VerdictResult | null, problem: string | null): string {
  if (!verdict) return `screen: unknown (${problem ?? "no view after the gesture"})`;
  if (verdict.verdict === "unknown") return `screen: unknown (${verdict.reason})`;
  return `screen: ${verdict.verdict}`;
}

const DEFAULT_HINTS: Record<Verdict, string> = {
  changed: "next: the image and listing below are the screen now; pick the next action from them.",
  "no visible change":
    "next: nothing visible changed; the element may not react to this gesture or the app is slow — peek once more before trying something else.",
  unknown:
    "next: peek to see the screen; if boxes look misplaced, the phone or camera may have moved (recalibrate with `piclaw calibrate`).",
};

export type Hints = Partial<Record<Verdict, string>>;

/**
 * `[text, image, listing]` for a gesture that ran. `lines` describe what was done (first line = the
 * action); `hints` replace the default next-step line per verdict.
 */
export function gestureResult(
  lines: readonly string[],
  acted: Pick<Acted<unknown>, "after" | "afterProblem">,
  options: { hints?: Hints; isError?: boolean } = {},
): ToolResult {
  const verdict = acted.after?.verdict ?? null;
  const hint = options.hints?.[verdict?.verdict ?? "unknown"] ?? DEFAULT_HINTS[verdict?.verdict ?? "unknown"];
  const text = [...lines, verdictLine(verdict, acted.afterProblem), hint].join("\n");
  const content: ToolContent[] = [{ type: "text", text }];
  if (acted.after) {
    content.push(jpegPart(acted.after.view.image));
    content.push(listingPart("listing after the gesture:", acted.after.view));
  }
  return { content, isError: options.isError ?? false };
}

/** Replace every occurrence of each secret in the text parts of `result`. */
export function scrubResult(result: ToolResult, secrets: readonly string[]): ToolResult {
  const live = secrets.filter((s) => s.length >= 3);
  if (live.length === 0) return result;
  return {
    ...result,
    content: result.content.map((part) => {
      if (part.type !== "text") return part;
      let text = part.text;
      for (const secret of live) text = text.split(secret).join("[redacted]");
      return { type: "text", text };
    }),
  };
}
