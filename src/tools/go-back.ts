import { toolArgs } from "./args.js";
import { type PhoneToolDeps, runGesture } from "./context.js";
import { backSwipe } from "./screen-geometry.js";
import { type AnyPhoneTool, definePhoneTool } from "./types.js";

export function goBackTool(deps: PhoneToolDeps): AnyPhoneTool {
  return definePhoneTool({
    name: "go_back",
    title: "Go back",
    description:
      "Swipe in from the left edge of the screen: the system's back gesture, one level up inside an app (a chat back to the list of chats). Does nothing at an app's first screen; a visible Back button in the listing works the same when tapped.",
    input: toolArgs.go_back,
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
    needsArm: true,
    run: (_args, ctx) =>
      runGesture("go_back", deps, ctx, (b) => {
        const path = backSwipe(b.glassMm);
        return {
          lines: ["go_back: swiped right from the left edge"],
          program: b.swipe(path.from, path.to, "medium"),
          hints: {
            "no visible change":
              "next: nothing changed — this is probably the app's first screen; use home_screen to leave the app.",
          },
        };
      }),
  });
}
