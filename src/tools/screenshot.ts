import { toolArgs } from "./args.js";
import type { PhoneToolDeps } from "./context.js";
import { viewResult } from "./results.js";
import { type AnyPhoneTool, definePhoneTool } from "./types.js";

export function screenshotTool(deps: PhoneToolDeps): AnyPhoneTool {
  return definePhoneTool({
    name: "screenshot",
    title: "Phone screenshot",
    description:
      "Have the phone capture its own screen: pixel-perfect, good for reading small text that peek blurs. Slower than peek, and the phone may show a screenshot thumbnail for a few seconds afterwards, so peek again before tapping anything. Returns the image and a listing like peek's (boxes are screen fractions either way).",
    input: toolArgs.screenshot,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    // Triggering the capture may take a touch on a real phone, so it waits its turn with the gestures.
    needsArm: true,
    async run(_args, ctx) {
      ctx.progress("screenshot: waiting for the phone's capture");
      const image = await deps.phoneIo.screenshot();
      const view = await deps.session.describeScreenshot(image);
      return viewResult("screenshot: the phone's own capture (peek before the next tap)", view);
    },
  });
}
