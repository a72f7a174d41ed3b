import type { PhoneToolDeps } from "./context.js";
import { doubleTapTool } from "./double-tap.js";
import { forceQuitTool } from "./force-quit.js";
import { goBackTool } from "./go-back.js";
import { homeScreenTool } from "./home-screen.js";
import { longPressTool } from "./long-press.js";
import { peekTool } from "./peek.js";
import { scrubResult } from "./results.js";
import { screenshotTool } from "./screenshot.js";
import { sendToClipboardTool } from "./send-to-clipboard.js";
import { sequenceTool } from "./sequence.js";
import { swipeTool } from "./swipe.js";
import { tapTool } from "./tap.js";
import type { AnyPhoneTool } from "./types.js";
import { unlockPhoneTool } from "./unlock-phone.js";

/**
 * The 12 phone tools in wire order, shared by the MCP endpoint and the built-in agent. Every result is
 * scrubbed of the passcode on the way out (a listing could show the same digits by coincidence).
 */
export function createPhoneTools(deps: PhoneToolDeps): AnyPhoneTool[] {
  const tools = [
    peekTool(deps),
    screenshotTool(deps),
    tapTool(deps),
    doubleTapTool(deps),
    longPressTool(deps),
    swipeTool(deps),
    homeScreenTool(deps),
    goBackTool(deps),
    forceQuitTool(deps),
    unlockPhoneTool(deps),
    sendToClipboardTool(deps),
    sequenceTool(deps),
  ];
  return tools.map((tool) => ({
    ...tool,
    run: async (args, ctx) => {
      const secret = deps.passcode();
      return scrubResult(await tool.run(args, ctx), secret ? [secret] : []);
    },
  }));
}
