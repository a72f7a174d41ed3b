import { toolArgs } from "./args.js";
import { type PhoneToolDeps, runGesture } from "./context.js";
import { homeSwipe } from "./screen-geometry.js";
import { type AnyPhoneTool, definePhoneTool } from "./types.js";

export function homeScreenTool(deps: PhoneToolDeps): AnyPhoneTool {
  return definePhoneTool({
    name: "home_screen",
    title: "Go to the home screen",
    description:
      "Swipe up from the bottom edge of the screen (the home indicator): leaves any app for the home screen, or shows the passcode keypad on a locked phone (use unlock_phone for that). The app keeps running in the background; use force_quit to close it.",
    input: toolArgs.home_screen,
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true },
    needsArm: true,
    run: (_args, ctx) =>
      runGesture("home_screen", deps, ctx, (b) => {
        const path = homeSwipe(b.glassMm);
        return {
          lines: ["home_screen: swiped up from the bottom edge"],
          program: b.swipe(path.from, path.to, "fast"),
          hints: {
            "no visible change":
              "next: the screen did not change — the home screen was probably showing already; peek to be sure.",
          },
        };
      }),
  });
}
