import { toolArgs } from "./args.js";
import { type PhoneToolDeps, runGesture } from "./context.js";
import { cardFlick, homeSwipe, switcherDrag } from "./screen-geometry.js";
import { type AnyPhoneTool, definePhoneTool } from "./types.js";

/** Time the phone gets to lay out the app switcher, and to animate a thrown card away (ms). */
const SWITCHER_OPEN_MS = 500;
const CARD_GONE_MS = 400;

export function forceQuitTool(deps: PhoneToolDeps): AnyPhoneTool {
  return definePhoneTool({
    name: "force_quit",
    title: "Force-quit the open app",
    description:
      "Close the app that is open now for good: swipe up from the bottom edge and hold to open the app switcher, throw the app's card off the top, then go to the home screen. Use it when an app is stuck or must start fresh; it takes about 3 s. Run it while the app to close is on screen (on the home screen it would close the most recently used app).",
    input: toolArgs.force_quit,
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
    needsArm: true,
    run: (_args, ctx) =>
      runGesture("force_quit", deps, ctx, (b) => {
        const drag = switcherDrag(b.glassMm);
        const flick = cardFlick(b.glassMm);
        const home = homeSwipe(b.glassMm);
        return {
          lines: [
            "force_quit: opened the app switcher (swipe up and hold), threw the front card away, swiped home",
          ],
          program: [
            ...b.dragAndHold(drag.from, drag.to, "medium"),
            ...b.pause(SWITCHER_OPEN_MS),
            ...b.swipe(flick.from, flick.to, "fast"),
            ...b.pause(CARD_GONE_MS),
            ...b.swipe(home.from, home.to, "fast"),
          ],
          hints: {
            changed:
              "next: the app is closed and the home screen should show; tap its icon to start it fresh.",
          },
        };
      }),
  });
}
