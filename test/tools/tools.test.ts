import { describe, expect, it } from "vitest";
import { resolveRigProfile } from "../../src/rig/profile.js";
import { PiclawError } from "../../src/util/errors.js";
import { fastRig, listingRows, textOf } from "./fast-rig.js";

/** The tools' behaviour on the fast rig (hand-driven clock, direct back-end, truth-reading OCR). */

function row(result: Parameters<typeof listingRows>[0], label: string): number[] {
  const found = listingRows(result).find((r) => r.label === label);
  if (!found) throw new Error(`no "${label}" in:\n${textOf(result)}`);
  return found.bbox;
}

async function unlocked() {
  const rig = fastRig();
  const res = await rig.call("unlock_phone");
  expect(res.isError, textOf(res)).toBe(false);
  return rig;
}

describe("phone tools on the fast rig", () => {
  it("views answer [image, listing]; gestures [text, image, listing] with the verdict and a hint", async () => {
    const rig = await unlocked();
    const peek = await rig.call("peek");
    expect(peek.content.map((c) => c.type)).toEqual(["image", "text"]);
    const tap = await rig.call("tap", { bbox: row(peek, "Clock") });
    expect(tap.content.map((c) => c.type)).toEqual(["text", "image", "text"]);
    expect(textOf(tap)).toMatch(/^tap at \(0\.\d{3}, 0\.\d{3}\)\nscreen: changed\nnext: /);
    expect(rig.phone.truth().app).toBe("clock");
    // The carriage is parked out of the camera's view after every gesture.
    expect((await rig.motion.status()).position).toEqual(
      resolveRigProfile("corexy-fluidnc", process.cwd()).park,
    );
  });

  it("without a calibration, every tool that needs one says so and nothing moves", async () => {
    const rig = fastRig({ calibrated: false });
    for (const [name, args] of [
      ["peek", {}],
      ["tap", { bbox: [0.1, 0.1, 0.2, 0.2] }],
      ["unlock_phone", {}],
      ["sequence", { step1: { tool_name: "tap", arg: { bbox: [0.1, 0.1, 0.2, 0.2] } } }],
    ] as const) {
      const res = await rig.call(name, args);
      expect(res.isError, name).toBe(true);
      expect(textOf(res)).toContain("not calibrated: run `piclaw calibrate`");
    }
    expect(rig.phone.touchReports(0)).toEqual([]);
  });

  it("a tap outside the soft limits is refused before anything moves", async () => {
    const rig = fastRig();
    const area = rig.bundle.arm.allowedArea;
    // Soft limits only over the screen's middle band: a tap near the top is outside them.
    rig.motion.setAllowedArea({ ...area, minYMm: area.minYMm + 40, maxYMm: area.maxYMm - 40 });
    const res = await rig.call("tap", { bbox: [0.4, 0.02, 0.6, 0.04] });
    expect(res.isError).toBe(true);
    expect(textOf(res)).toContain("MOTION_SOFT_LIMIT");
    expect(rig.phone.touchReports(0)).toEqual([]);
  });

  it("unlock_phone: side-button wake, keypad found by OCR, passcode typed, keypad gone", async () => {
    const rig = fastRig();
    rig.phone.pressSideButton();
    const res = await rig.call("unlock_phone");
    expect(res.isError, textOf(res)).toBe(false);
    expect(textOf(res)).toContain("woke the screen (pressed the side button)");
    expect(textOf(res)).toContain("unlocked");
    expect(rig.phone.truth()).toMatchObject({ locked: false, screen: "home" });
    // Already unlocked: it looks first, says so without failing, and touches nothing.
    const since = rig.clock.now();
    const again = await rig.call("unlock_phone");
    expect(again.isError).toBe(false);
    expect(textOf(again)).toContain("already unlocked");
    expect(textOf(again)).toContain("nothing was done");
    expect(rig.phone.touchReports(since)).toEqual([]);
  });

  it("unlock_phone on an unlocked phone leaves the open app open (no swipe home)", async () => {
    const rig = await unlocked();
    const peek = await rig.call("peek");
    await rig.call("tap", { bbox: row(peek, "Clock") });
    expect(rig.phone.truth().app).toBe("clock");
    const since = rig.clock.now();
    const res = await rig.call("unlock_phone");
    expect(res.isError, textOf(res)).toBe(false);
    expect(textOf(res)).toContain("already unlocked");
    expect(rig.phone.truth().app).toBe("clock");
    expect(rig.phone.touchReports(since)).toEqual([]);
  });

  it("unlock_phone does not believe one stale frame: a keypad shown late is still found and used", async () => {
    const rig = fastRig(); // awake, on the lock screen
    // The view after the swipe is read from a frame taken before it (the lock screen), as a loaded
    // camera can deliver; the keypad is on the phone all the same. (The fast rig's OCR reads the
    // phone's truth, so the stale frame is simulated at the view.)
    const vision = rig.session.vision;
    const read = vision.fromCamera.bind(vision);
    const views: Awaited<ReturnType<typeof read>>[] = [];
    vision.fromCamera = async (...args) => {
      const view = await read(...args);
      views.push(view);
      return views.length === 2 ? (views[0] ?? view) : view;
    };
    const res = await rig.call("unlock_phone");
    expect(res.isError, textOf(res)).toBe(false);
    expect(textOf(res)).not.toContain("no passcode keypad appeared");
    expect(textOf(res)).toContain("unlocked (no keypad on screen any more)");
    expect(rig.phone.truth()).toMatchObject({ locked: false, screen: "home" });
    expect(views.length).toBeGreaterThan(2); // it looked again
  });

  it("a stale frame right after typing is not taken for a refused passcode", async () => {
    const rig = fastRig(); // awake, on the lock screen
    // Views: the lock screen, the keypad after the swipe, then — after typing — the keypad again
    // from a frame that predates the last digit, although the phone is unlocked.
    const vision = rig.session.vision;
    const read = vision.fromCamera.bind(vision);
    const views: Awaited<ReturnType<typeof read>>[] = [];
    vision.fromCamera = async (...args) => {
      const view = await read(...args);
      views.push(view);
      return views.length === 3 ? (views[1] ?? view) : view;
    };
    const res = await rig.call("unlock_phone");
    expect(rig.phone.truth().locked).toBe(false);
    expect(res.isError, textOf(res)).toBe(false);
    expect(textOf(res)).not.toContain("refused");
    expect(textOf(res)).toContain("unlocked (no keypad on screen any more)");
    expect(views.length).toBeGreaterThan(3); // it looked again
  });

  it("unlock_phone without a wake step wakes the screen with a stylus tap (tap to wake)", async () => {
    const rig = fastRig({ wake: null });
    rig.phone.pressSideButton();
    const res = await rig.call("unlock_phone");
    expect(textOf(res)).toContain("woke the screen (tap to wake)");
    expect(rig.phone.truth().locked).toBe(false);
  });

  it("a refused passcode is an error that tells the model not to retry, and never shows the digits", async () => {
    const rig = fastRig({ passcode: "1357" });
    const res = await rig.call("unlock_phone");
    expect(res.isError).toBe(true);
    expect(textOf(res)).toContain("passcode was refused");
    expect(textOf(res)).toContain("do not retry");
    expect(textOf(res)).not.toContain("1357");
    expect(rig.phone.truth().state).toContain("1 failed attempt");
  });

  it("unlock_phone with no passcode configured does nothing", async () => {
    const rig = fastRig({ passcode: null });
    const res = await rig.call("unlock_phone");
    expect(res.isError).toBe(true);
    expect(textOf(res)).toContain("no passcode is configured");
    expect(rig.phone.touchReports(0)).toEqual([]);
  });

  it("the passcode is scrubbed from results even when the screen happens to show it", async () => {
    const rig = fastRig({
      phone: { notifications: [{ atMs: 0, app: "messages", from: "Bank", text: "Your code is 2468" }] },
    });
    const peek = await rig.call("peek"); // the lock screen shows the notification
    expect(textOf(peek)).toContain("Your code is [redacted]");
    expect(textOf(peek)).not.toContain("2468");
  });

  it("sequence: every step checked first; a step the soft limits refuse means nothing runs", async () => {
    const rig = await unlocked();
    const area = rig.bundle.arm.allowedArea;
    rig.motion.setAllowedArea({ ...area, minYMm: area.minYMm + 40, maxYMm: area.maxYMm - 40 });
    const before = rig.phone.touchReports(0).length;
    const res = await rig.call("sequence", {
      step1: { tool_name: "tap", arg: { bbox: [0.4, 0.45, 0.6, 0.55] } },
      step2: { tool_name: "tap", arg: { bbox: [0.4, 0.02, 0.6, 0.04] } },
    });
    expect(res.isError).toBe(true);
    expect(textOf(res)).toMatch(
      /^sequence: step2 \(tap at .*\) cannot run: \[MOTION_SOFT_LIMIT\].*Nothing was done\.$/,
    );
    expect(rig.phone.touchReports(0).length).toBe(before);
  });

  it("sequence stops at the first failure and reports every step", async () => {
    let calls = 0;
    const rig = fastRig({
      phoneIo: {
        async setClipboard() {
          calls++;
          throw new PiclawError("BRIDGE_NOT_PAIRED", "no phone is paired with the bridge");
        },
        screenshot: async () => Buffer.alloc(0),
      },
    });
    await rig.call("unlock_phone");
    const peek = await rig.call("peek");
    const res = await rig.call("sequence", {
      step1: { tool_name: "tap", arg: { bbox: row(peek, "Clock") } },
      step2: { tool_name: "send_to_clipboard", arg: { text: "hi" } },
      step3: { tool_name: "tap", arg: { bbox: [0.4, 0.45, 0.6, 0.55] } },
    });
    expect(res.isError).toBe(true);
    const text = textOf(res);
    expect(text).toContain("sequence: 1 of 3 steps done, stopped at the first failure");
    expect(text).toMatch(/step1: tap at .* — done/);
    expect(text).toContain("step2: send_to_clipboard (2 characters) — failed: [BRIDGE_NOT_PAIRED]");
    expect(text).toContain("step3: tap at (0.500, 0.500) — not run");
    expect(text).toContain("screen: changed"); // step1 opened Clock
    expect(calls).toBe(1);
    expect(rig.phone.truth().app).toBe("clock");
  });

  it("no camera frame: the gesture still runs and the verdict is unknown with the reason", async () => {
    const rig = await unlocked();
    const peek = await rig.call("peek");
    rig.camera.failWith(new PiclawError("CAMERA_TIMEOUT", "no frame within 5000 ms"));
    const res = await rig.call("tap", { bbox: row(peek, "Clock") });
    expect(res.isError).toBe(false);
    expect(res.content.map((c) => c.type)).toEqual(["text"]);
    expect(textOf(res)).toMatch(
      /screen: unknown \(no camera view after the gesture \(no frame within 5000 ms\)\)/,
    );
    expect(rig.phone.truth().app).toBe("clock");
  });

  it("send_to_clipboard puts the text on the phone and says how to paste", async () => {
    const rig = fastRig();
    const res = await rig.call("send_to_clipboard", { text: "你好 PiClaw" });
    expect(res.isError).toBe(false);
    expect(rig.phone.clipboard).toBe("你好 PiClaw");
    expect(textOf(res)).toContain("9 characters");
    expect(textOf(res)).toContain("Paste (粘贴)");
  });

  it("go_back, home_screen and force_quit drive the phone's system gestures", async () => {
    const rig = await unlocked();
    const home = await rig.call("peek");
    await rig.call("tap", { bbox: row(home, "Settings") });
    expect(rig.phone.truth().app).toBe("settings");
    const quit = await rig.call("force_quit");
    expect(textOf(quit), textOf(quit)).toContain("screen: changed");
    expect(rig.phone.truth().screen).toBe("home");
    await rig.call("swipe", { bbox: [0.3, 0.3, 0.7, 0.4], direction: "left", size: "l" });
    expect(rig.phone.truth().state).toContain("page 2 of 2");
    const home2 = await rig.call("home_screen");
    expect(textOf(home2)).toContain("screen: changed");
    expect(rig.phone.truth().state).toContain("page 1 of 2");
  });
});
