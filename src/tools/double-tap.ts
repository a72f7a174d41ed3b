import { toolArgs } from "./args.js";
import { type PhoneToolDeps, runGesture } from "./context.js";
import { bboxCentre, fmtPoint } from "./screen-geometry.js";
import { type AnyPhoneTool, definePhoneTool } from "./types.js";

export function doubleTapTool(deps: PhoneToolDeps): AnyPhoneTool {
  return definePhoneTool({
    name: "double_tap",
    title: "Double tap",
    description:
      "Two quick taps (about 0.1 s apart) in the middle of `bbox`: zooms photos and maps, selects a word in text. Use tap for ordinary buttons — a double tap on a button may press it twice.",
    input: toolArgs.double_tap,
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
    needsArm: true,
    run: (args, ctx) =>
      runGesture("double_tap", deps, ctx, (b) => {
        const at = bboxCentre(args.bbox);
        return { lines: [`double tap at ${fmtPoint(at)}`], program: b.doubleTap(at) };
      }),
  });
}
