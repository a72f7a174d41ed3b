import { toolArgs } from "./args.js";
import { type PhoneToolDeps, runGesture } from "./context.js";
import { bboxCentre, fmtPoint } from "./screen-geometry.js";
import { type AnyPhoneTool, definePhoneTool } from "./types.js";

export function longPressTool(deps: PhoneToolDeps): AnyPhoneTool {
  return definePhoneTool({
    name: "long_press",
    title: "Long press",
    description:
      "Press and hold about 1.2 s in the middle of `bbox`: opens context menus, the edit menu of a text field (Paste / 粘贴 after send_to_clipboard), or app-icon menus. The answer shows the menu if one opened; tap its item next.",
    input: toolArgs.long_press,
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
    needsArm: true,
    run: (args, ctx) =>
      runGesture("long_press", deps, ctx, (b) => {
        const at = bboxCentre(args.bbox);
        return {
          lines: [`long press at ${fmtPoint(at)}`],
          program: b.longPress(at),
          hints: {
            changed:
              "next: if a menu opened, tap the item you want from the listing below (e.g. Paste / 粘贴).",
          },
        };
      }),
  });
}
