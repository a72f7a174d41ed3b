import { type BridgeHandle, BridgePhoneIo } from "../bridge/adapters.js";
import type { Logger } from "../log/logger.js";
import type { MotionStep } from "../rig/motion.js";
import type { PhoneConfig } from "../tools/config.js";
import type { PhoneIo } from "../tools/phone-io.js";
import type { GestureBuilder } from "../tools/rig-session.js";
import { PiclawError } from "../util/errors.js";

/**
 * Clipboard and screenshots on a real phone (`rig.backend: hardware`): through the phone-side bridge
 * when it is enabled, else a PhoneIo whose every call fails with a result that says how to enable it.
 */

/** What send_to_clipboard says after queueing text on the bridge page (iOS copies only on a tap). */
export const BRIDGE_PASTE_HINT =
  "The text waits on the PiClaw bridge page: bring that page to the front, tap its green Copy button, go back to the app, then long_press the text field and tap Paste (粘贴).";

const ENABLE_BRIDGE =
  "set `bridge.enabled: true` in the PiClaw config, restart PiClaw, open the bridge page (port `bridge.port`, 8049) on the phone and pair it with `piclaw bridge pair`";

/** PhoneIo of a real rig whose bridge is off: both calls fail at once (BRIDGE_DISABLED), moving nothing. */
export class BridgeDisabledPhoneIo implements PhoneIo {
  async setClipboard(_text: string): Promise<void> {
    throw new PiclawError(
      "BRIDGE_DISABLED",
      `the phone-side bridge is off, so text cannot reach the phone's clipboard: ${ENABLE_BRIDGE}`,
      { key: "bridge.enabled" },
    );
  }

  async screenshot(): Promise<Buffer> {
    throw new PiclawError(
      "BRIDGE_DISABLED",
      `the phone-side bridge is off, so the phone's own screenshot cannot arrive: ${ENABLE_BRIDGE} (and set phone.screenshotTap for the AssistiveTouch trigger). Use peek meanwhile.`,
      { key: "bridge.enabled" },
    );
  }
}

/** The arm as the screenshot trigger uses it (RigSession + MotionController have these). */
export interface TriggerArm {
  /** Gesture programs through the calibration (waits for one; throws "not calibrated"). */
  builder(): Promise<GestureBuilder>;
  /** Throws when the program may not run (soft limits); nothing moves. */
  check(program: readonly MotionStep[]): void;
  run(program: readonly MotionStep[]): Promise<void>;
  /** Move out of the camera's view and note that the carriage rests (the next before-frame is fresh). */
  park(): Promise<void>;
}

type ScreenshotTap = NonNullable<PhoneConfig["screenshotTap"]>;

const centre = (box: readonly number[]) => ({
  x: ((box[0] ?? 0) + (box[2] ?? 0)) / 2,
  y: ((box[1] ?? 0) + (box[3] ?? 0)) / 2,
});

/**
 * The stylus half of a real phone's screenshot: tap the AssistiveTouch button, wait for its menu, tap
 * the item that runs the Shortcut (which captures the screen and uploads it to the bridge), park. The
 * screenshot tool holds the arm while this runs (it `needsArm`), so no other gesture interleaves.
 */
export function stylusScreenshotTrigger(
  tap: ScreenshotTap,
  arm: TriggerArm,
  log: Logger,
): () => Promise<void> {
  return async () => {
    const b = await arm.builder();
    const program = [
      ...b.tap(centre(tap.assistiveTouch)),
      ...b.pause(tap.menuWaitMs),
      ...b.tap(centre(tap.menuItem)),
    ];
    arm.check(program);
    try {
      await arm.run(program);
    } finally {
      await arm.park().catch((err) => log.warn("could not park after the screenshot taps", { err }));
    }
  };
}

export interface HardwarePhoneIoOptions {
  /** The started (or about to start) bridge; null when `bridge.enabled` is false. */
  bridge: BridgeHandle | null;
  phone: PhoneConfig;
  arm: TriggerArm;
  log: Logger;
}

/** The PhoneIo and paste hint of a real rig. */
export function hardwarePhoneIo(options: HardwarePhoneIoOptions): { phoneIo: PhoneIo; pasteHint?: string } {
  const { bridge, phone, arm, log } = options;
  if (!bridge) return { phoneIo: new BridgeDisabledPhoneIo() };
  const tap = phone.screenshotTap;
  const io = new BridgePhoneIo(
    bridge,
    tap ? { triggerScreenshot: stylusScreenshotTrigger(tap, arm, log) } : {},
  );
  return {
    phoneIo: {
      setClipboard: (text) => io.setClipboard(text),
      // No paired phone means no Shortcut can upload: say so before tapping anything or waiting 30 s.
      screenshot: async () => {
        if (bridge.status().pairedDevices.length === 0)
          throw new PiclawError(
            "BRIDGE_NOT_PAIRED",
            "no phone is paired with the bridge, so its screenshot cannot arrive: run `piclaw bridge pair` and enter the code on the bridge page",
          );
        return io.screenshot();
      },
    },
    pasteHint: BRIDGE_PASTE_HINT,
  };
}
