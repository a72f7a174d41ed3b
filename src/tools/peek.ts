import { toolArgs } from "./args.js";
import type { PhoneToolDeps } from "./context.js";
import { viewResult } from "./results.js";
import { type AnyPhoneTool, definePhoneTool } from "./types.js";

export function peekTool(deps: PhoneToolDeps): AnyPhoneTool {
  return definePhoneTool({
    name: "peek",
    title: "Look at the phone",
    description:
      'Look at the phone through the overhead camera. Returns the screen (straightened, with numbered boxes) and a listing with one row per element: `id [kind] "label" [left,top,right,bottom] conf`, boxes in 0–1 fractions of the screen. Kinds: `text`; `key` (a keyboard or dial-pad key, labelled with its character or `shift`/`delete`/`space`/`return`/`123`, or a dial pad\'s `call`); `switch` (its row\'s title, then `on`/`off`); `app` (an app icon and its name); `button` (an icon-only button named by its shape: `add`, `back`, `close`, `search`, `share`, `more`); `status` (the status bar); `icon` (unnamed, label ""). It touches nothing and takes about a second, so use it whenever you are unsure what is on screen — before the first action, and after anything that did not obviously work. Pass a row\'s box as `bbox` to act on that element.',
    input: toolArgs.peek,
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
    needsArm: false,
    async run(_args, ctx) {
      const view = await deps.session.look(ctx.signal);
      return viewResult("peek: the screen as the camera sees it", view);
    },
  });
}
