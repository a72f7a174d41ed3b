import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BRIDGE_PASTE_HINT } from "../../src/app/hardware-phone.js";
import type { TouchReport } from "../../src/sim/phone/touch-log.js";
import { PageClient } from "../bridge/helpers.js";
import { callTool, type HardwareDaemon, startHardwareDaemon } from "./hardware-world.js";

/**
 * The daemon on `rig.backend: hardware` with the phone-side bridge on and a fake phone page paired to
 * it. The screenshot path is the iOS one: the stylus taps the configured AssistiveTouch button and
 * menu item (through G-code to the world's phone), and a stand-in for the Shortcut — watching the
 * world's digitizer for those two taps — uploads the phone's own screenshot to the bridge.
 */

// Two spots on empty wallpaper (between the icon grid and the dock), so the taps change nothing.
const ASSISTIVE_TOUCH = [0.42, 0.62, 0.48, 0.66];
const MENU_ITEM = [0.52, 0.62, 0.58, 0.66];
const inBox = (t: TouchReport | undefined, box: number[]) =>
  t !== undefined &&
  t.x >= (box[0] ?? 1) &&
  t.x <= (box[2] ?? 0) &&
  t.y >= (box[1] ?? 1) &&
  t.y <= (box[3] ?? 0);

describe("the daemon on rig.backend: hardware with the bridge (clipboard, AssistiveTouch screenshot)", () => {
  let hw: HardwareDaemon;
  let page: PageClient;

  beforeAll(async () => {
    hw = await startHardwareDaemon({
      bridge: { enabled: true, host: "127.0.0.1", port: 0 },
      phone: {
        passcode: "482916",
        screenshotTap: { assistiveTouch: ASSISTIVE_TOUCH, menuItem: MENU_ITEM, menuWaitMs: 400 },
      },
    });
    const bridge = hw.daemon.bridge;
    if (!bridge) throw new Error("the bridge did not start");
    const url = bridge.status().url;
    if (!url) throw new Error("the bridge has no URL");
    page = new PageClient(url);
    const reply = await page.pair(bridge.pairCode().code);
    expect(reply.status).toBe(200);
    await page.hello();
  }, 120_000);

  afterAll(async () => {
    await hw?.stop();
  });

  it("screenshot: the stylus taps AssistiveTouch then the menu item, the Shortcut's upload comes back read", async () => {
    const t0 = hw.world.gantry.now();
    const before = hw.world.truth();
    // The Shortcut stand-in: once both taps reached the phone, capture it and upload like iOS would.
    const shortcut = (async () => {
      const deadline = Date.now() + 30_000;
      while (Date.now() < deadline) {
        const touches = hw.world.phone.touchReports(t0);
        if (touches.length >= 2) {
          const reply = await page.upload(await hw.world.screenshot(), "image/png");
          return { touches, status: reply.status };
        }
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      throw new Error("the stylus never tapped twice");
    })();
    const started = performance.now();
    const shot = await callTool(hw.client, "screenshot");
    console.log(
      `latency screenshot (2 stylus taps + upload + read): ${((performance.now() - started) / 1000).toFixed(2)} s`,
    );
    const { touches, status } = await shortcut;
    expect(status).toBe(200);
    expect(shot.isError, shot.texts.join("\n")).toBe(false);
    expect(shot.images).toBe(1);
    expect(shot.texts.join("\n")).toContain("the phone's own capture");
    expect(touches).toHaveLength(2);
    expect(inBox(touches[0], ASSISTIVE_TOUCH), JSON.stringify(touches[0])).toBe(true);
    expect(inBox(touches[1], MENU_ITEM), JSON.stringify(touches[1])).toBe(true);
    expect((touches[1]?.tMs ?? 0) - (touches[0]?.tMs ?? 0)).toBeGreaterThanOrEqual(400);
    // The listing is read from the uploaded image: the phone's own pixels, not the camera's.
    expect(shot.texts.at(-1)).toMatch(/\[(icon|text)\]/);
    expect(hw.world.truth()).toMatchObject({ screen: before.screen, app: before.app });
  }, 180_000);

  it("send_to_clipboard queues the text on the paired page and says to tap its Copy button", async () => {
    const res = await callTool(hw.client, "send_to_clipboard", { text: "Hello from the Pi" });
    expect(res.isError, res.texts.join("\n")).toBe(false);
    expect(res.texts[0]).toContain(BRIDGE_PASTE_HINT);
    const poll = await page.poll(0, 0);
    expect(poll.status).toBe(200);
    expect(poll.text).toContain("Hello from the Pi");
  });
});
