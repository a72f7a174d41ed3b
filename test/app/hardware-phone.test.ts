import { describe, expect, it } from "vitest";
import {
  BridgeDisabledPhoneIo,
  hardwarePhoneIo,
  stylusScreenshotTrigger,
  type TriggerArm,
} from "../../src/app/hardware-phone.js";
import { Logger } from "../../src/log/logger.js";
import type { MotionStep } from "../../src/rig/motion.js";
import { phoneConfigSchema } from "../../src/tools/config.js";
import type { GestureBuilder } from "../../src/tools/rig-session.js";
import { startBridge } from "../bridge/helpers.js";

const quiet = Logger.create({
  level: "error",
  format: "json",
  sink: { write: () => undefined },
  now: () => 0,
});

const phone = phoneConfigSchema.parse({
  screenshotTap: { assistiveTouch: [0.9, 0.5, 1, 0.56], menuItem: [0.3, 0.4, 0.5, 0.44] },
});

/** An arm whose gestures are recognisable steps (a tap = a travel to the screen point) and that records. */
function recordingArm(options: { failRun?: boolean } = {}) {
  const runs: MotionStep[][] = [];
  let parks = 0;
  const builder = {
    tap: (p: { x: number; y: number }) => [{ kind: "travel", to: { xMm: p.x, yMm: p.y } }],
    pause: (ms: number) => [{ kind: "dwell", ms }],
  } as unknown as GestureBuilder;
  const arm: TriggerArm = {
    builder: async () => builder,
    check: () => undefined,
    run: async (program) => {
      runs.push([...program]);
      if (options.failRun) throw new Error("serial line gone");
    },
    park: async () => {
      parks++;
    },
  };
  return { arm, runs, parks: () => parks };
}

describe("a real phone's clipboard and screenshots (hardware-phone)", () => {
  it("the trigger taps the AssistiveTouch button's centre, waits, taps the menu item's centre, parks", async () => {
    const { arm, runs, parks } = recordingArm();
    const tap = phone.screenshotTap;
    if (!tap) throw new Error("no screenshotTap parsed");
    await stylusScreenshotTrigger(tap, arm, quiet)();
    expect(runs).toHaveLength(1);
    const [first, wait, second] = runs[0] ?? [];
    expect(first).toMatchObject({
      kind: "travel",
      to: { xMm: expect.closeTo(0.95), yMm: expect.closeTo(0.53) },
    });
    expect(wait).toEqual({ kind: "dwell", ms: 700 });
    expect(second).toMatchObject({
      kind: "travel",
      to: { xMm: expect.closeTo(0.4), yMm: expect.closeTo(0.42) },
    });
    expect(parks()).toBe(1);
  });

  it("the trigger parks even when the taps fail", async () => {
    const { arm, parks } = recordingArm({ failRun: true });
    const tap = phone.screenshotTap;
    if (!tap) throw new Error("no screenshotTap parsed");
    await expect(stylusScreenshotTrigger(tap, arm, quiet)()).rejects.toThrow("serial line gone");
    expect(parks()).toBe(1);
  });

  it("screenshot with the bridge on but no phone paired fails at once, touching nothing", async () => {
    const started = await startBridge();
    try {
      const { arm, runs } = recordingArm();
      const { phoneIo } = hardwarePhoneIo({ bridge: started.bridge, phone, arm, log: quiet });
      await expect(phoneIo.screenshot()).rejects.toMatchObject({ code: "BRIDGE_NOT_PAIRED" });
      await expect(phoneIo.setClipboard("x")).rejects.toMatchObject({ code: "BRIDGE_NOT_PAIRED" });
      expect(runs).toEqual([]);
    } finally {
      await started.stop();
    }
  });

  it("with the bridge off both calls say how to enable it", async () => {
    const { phoneIo, pasteHint } = hardwarePhoneIo({
      bridge: null,
      phone,
      arm: recordingArm().arm,
      log: quiet,
    });
    expect(phoneIo).toBeInstanceOf(BridgeDisabledPhoneIo);
    expect(pasteHint).toBeUndefined();
    await expect(phoneIo.screenshot()).rejects.toMatchObject({
      code: "BRIDGE_DISABLED",
      message: expect.stringContaining("bridge.enabled: true"),
    });
    await expect(phoneIo.setClipboard("x")).rejects.toMatchObject({
      code: "BRIDGE_DISABLED",
      message: expect.stringContaining("piclaw bridge pair"),
    });
  });
});
