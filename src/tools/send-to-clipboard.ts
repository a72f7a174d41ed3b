import { toolArgs } from "./args.js";
import type { PhoneToolDeps } from "./context.js";
import { type AnyPhoneTool, definePhoneTool, textResult } from "./types.js";

/** How to get clipboard text into a field, said once here and by sequence. */
export const PASTE_HINT =
  "To paste it: long_press the text field, then tap Paste (粘贴) in the menu that opens; then send or confirm as usual.";

export function sendToClipboardTool(deps: PhoneToolDeps): AnyPhoneTool {
  return definePhoneTool({
    name: "send_to_clipboard",
    title: "Put text on the phone's clipboard",
    description:
      "Put `text` on the phone's clipboard (through the PiClaw page open on the phone) — the way to enter text: a stylus typing letter by letter is slow and error-prone. Nothing on screen changes; paste it next by long-pressing the text field and tapping Paste (粘贴).",
    input: toolArgs.send_to_clipboard,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
    needsArm: false,
    async run(args) {
      await deps.phoneIo.setClipboard(args.text);
      return textResult(
        `send_to_clipboard: ${[...args.text].length} characters sent to the phone's clipboard.\n${deps.pasteHint ?? PASTE_HINT}`,
      );
    },
  });
}
