import type { PhoneAgent, ScreenTouch } from "../calibration/agent.js";
import { type CalibrationPattern, patternSvg } from "../calibration/pattern.js";
import type { PhoneIo } from "../tools/phone-io.js";
import { PiclawError } from "../util/errors.js";
import type { PhoneBridge } from "./bridge.js";

/** The part of PhoneBridge the adapters use (a test can hand in a fake). */
export type BridgeHandle = Pick<
  PhoneBridge,
  | "queueClipboard"
  | "awaitClipboard"
  | "nextScreenshot"
  | "showPattern"
  | "clearPattern"
  | "touchesSince"
  | "status"
>;

export interface BridgePhoneIoOptions {
  /**
   * How far `setClipboard` waits: `queued` (default) returns at once: on iOS the page can only copy
   * after a tap on its Copy button (a user gesture), which the agent makes after the tool returns;
   * `shown` waits for the page to show the text; `copied` for the copy itself (only useful where the
   * page copies by itself, or when something else taps Copy).
   */
  clipboardWait?: "queued" | "shown" | "copied";
  /**
   * Makes the phone take a screenshot (e.g. taps the AssistiveTouch button that runs the upload
   * Shortcut). Called after the wait starts, so an upload that follows at once is not missed. Without
   * it, `screenshot()` waits for an upload the user or a Shortcut automation starts.
   */
  triggerScreenshot?: () => Promise<void>;
  /** How long `screenshot()` waits for the upload (default: `bridge.screenshotTimeoutMs`). */
  screenshotTimeoutMs?: number;
}

/**
 * PhoneIo over the bridge. Deviation from the PhoneIo JSDoc, by design: with the default
 * `clipboardWait: "queued"`, `setClipboard` resolves when the text waits on the bridge page, not when
 * it is on the clipboard (see `clipboardWait`). It rejects with BRIDGE_NOT_PAIRED when no phone is
 * paired, so the agent learns at once that the text cannot arrive.
 */
export class BridgePhoneIo implements PhoneIo {
  constructor(
    private readonly bridge: BridgeHandle,
    private readonly options: BridgePhoneIoOptions = {},
  ) {}

  async setClipboard(text: string): Promise<void> {
    if (this.bridge.status().pairedDevices.length === 0)
      throw new PiclawError(
        "BRIDGE_NOT_PAIRED",
        "no phone is paired with the bridge: run `piclaw bridge pair` and enter the code on the bridge page",
      );
    const item = this.bridge.queueClipboard(text);
    const wait = this.options.clipboardWait ?? "queued";
    if (wait !== "queued") await this.bridge.awaitClipboard(item.id, wait);
  }

  /** PNG or JPEG bytes of the next upload after this call (BRIDGE_SCREENSHOT_TIMEOUT when none). */
  async screenshot(): Promise<Buffer> {
    // The wait is registered before the trigger runs, so even an upload that beats it is caught.
    const next = this.bridge.nextScreenshot(this.options.screenshotTimeoutMs);
    // The trigger may fail after the wait began: settle the wait's rejection so it is not unhandled.
    next.catch(() => {});
    await this.options.triggerScreenshot?.();
    return (await next).bytes;
  }
}

export interface BridgePhoneAgentOptions {
  /**
   * Screen size in points (CSS px) used as the pattern's viewBox, so dots stay round. Default: what
   * the page reported, else an iPhone 6.1-inch screen (390×844).
   */
  screenPt?: { width: number; height: number };
}

/** PhoneAgent (calibration) over the bridge page: shows the dot pattern and reads touch reports. */
export class BridgePhoneAgent implements PhoneAgent {
  constructor(
    private readonly bridge: BridgeHandle,
    private readonly options: BridgePhoneAgentOptions = {},
  ) {}

  async showPattern(pattern: CalibrationPattern): Promise<void> {
    const reported = this.bridge.status().page.info?.screen;
    const screenPt = this.options.screenPt ?? reported ?? { width: 390, height: 844 };
    await this.bridge.showPattern(patternSvg(pattern, screenPt), screenPt);
  }

  clearPattern(): Promise<void> {
    return this.bridge.clearPattern();
  }

  async touchesSince(ms: number): Promise<ScreenTouch[]> {
    return this.bridge.touchesSince(ms);
  }
}
