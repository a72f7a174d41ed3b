import { toolArgs } from "./args.js";
import { type PhoneToolDeps, runGesture } from "./context.js";
import { bboxCentre, fmtPoint, swipePath } from "./screen-geometry.js";
import { type AnyPhoneTool, definePhoneTool } from "./types.js";

export function swipeTool(deps: PhoneToolDeps): AnyPhoneTool {
  return definePhoneTool({
    name: "swipe",
    title: "Swipe",
    description:
      "Drag the stylus across the glass, starting in the middle of `bbox`. `direction` is where the stylus moves: up scrolls a list towards its end, left turns to the next page. `size` is the stroke length on the glass (s/m/l/xl/xxl ≈ 1/2/4/6/8 cm; it stops at the screen edge); `speed` slow drags precisely (moving sliders, list items), fast flicks (lists keep gliding). For home, back and the app switcher use home_screen, go_back and force_quit instead.",
    input: toolArgs.swipe,
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
    needsArm: true,
    run: (args, ctx) =>
      runGesture("swipe", deps, ctx, (b) => {
        const from = bboxCentre(args.bbox);
        const path = swipePath(from, args.direction, b.swipeLengthMm(args.size), b.glassMm);
        const length = `${(path.lengthMm / 10).toFixed(1)} cm${path.shortened ? " (cut short at the screen edge)" : ""}`;
        return {
          lines: [
            `swipe ${args.direction} from ${fmtPoint(path.from)} to ${fmtPoint(path.to)}, ${length}, ${args.speed}`,
          ],
          program: b.swipe(path.from, path.to, args.speed),
          hints: {
            "no visible change":
              "next: nothing moved; the area may not scroll that way, or it is already at its end — try another direction or a larger size.",
          },
        };
      }),
  });
}
