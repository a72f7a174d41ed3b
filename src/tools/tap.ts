import { toolArgs } from "./args.js";
import { type PhoneToolDeps, runGesture } from "./context.js";
import { bboxCentre, fmtPoint } from "./screen-geometry.js";
import { type AnyPhoneTool, definePhoneTool } from "./types.js";

export function tapTool(deps: PhoneToolDeps): AnyPhoneTool {
  return definePhoneTool({
    name: "tap",
    title: "Tap",
    description:
      "Tap once in the middle of `bbox` (a box from the latest listing): opens apps, presses buttons, focuses fields. Takes one to two seconds including a fresh look; the answer says whether the screen changed and carries the new image and listing, so you rarely need a peek in between. If it says no visible change, peek again before repeating the tap.",
    input: toolArgs.tap,
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
    needsArm: true,
    run: (args, ctx) =>
      runGesture("tap", deps, ctx, (b) => {
        const at = bboxCentre(args.bbox);
        return { lines: [`tap at ${fmtPoint(at)}`], program: b.tap(at) };
      }),
  });
}
