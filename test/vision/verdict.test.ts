import { describe, expect, it } from "vitest";
import type { Mat3 } from "../../src/shared/homography.js";
import type { RgbImage } from "../../src/shared/image.js";
import type { SimCamera } from "../../src/sim/camera/sim-camera.js";
import type { SimPhone } from "../../src/sim/phone/index.js";
import { decodeRgb, warpToScreen } from "../../src/vision/rectify.js";
import { compareScreens } from "../../src/vision/verdict.js";
import { ScreenWatcher } from "../../src/vision/watcher.js";
import { makePhone, PASSCODE } from "../sim/phone/helpers.js";
import { cameraOver, POSES, trueScreenToCamera } from "./helpers.js";

const W = 1152;
const H = 648;

async function view(
  camera: SimCamera,
  h: Mat3,
  settings: { gain?: number; width?: number; height?: number } = {},
): Promise<RgbImage> {
  return warpToScreen(
    await decodeRgb(await camera.capture({ width: W, height: H, ...settings })),
    h,
    390,
    844,
  );
}

function rig(phone: SimPhone, poseIndex = 1): { camera: SimCamera; h: Mat3 } {
  const pose = POSES[poseIndex] ?? POSES[0];
  if (!pose) throw new Error("no pose");
  const camera = cameraOver(phone, pose);
  return { camera, h: trueScreenToCamera(camera, phone, W, H) };
}

describe("change verdict", () => {
  it("a filled passcode dot is a change; sensor noise and an exposure drift are not", async () => {
    const { phone, finger } = makePhone();
    finger.swipe({ x: 32, y: 136 }, { x: 32, y: 90 });
    const { camera, h } = rig(phone);
    const before = await view(camera, h);
    const again = await view(camera, h, { gain: 1.25 });
    const same = compareScreens(before, again);
    expect(same.verdict).toBe("no visible change");
    const key = phone.truth().elements.find((e) => e.label === "5");
    if (!key) throw new Error("no key 5");
    const g = phone.geometry.glassMm;
    finger.tap({
      x: ((key.box[0] + key.box[2]) / 2) * g.width,
      y: ((key.box[1] + key.box[3]) / 2) * g.height,
    });
    const after = await view(camera, h);
    const changed = compareScreens(before, after);
    expect(changed.verdict).toBe("changed");
    expect(changed.maxBlockDiff).toBeGreaterThan(same.maxBlockDiff * 2);
  });

  it("the status bar clock ticking is not a change", async () => {
    const { phone, finger, clock } = makePhone();
    finger.unlock(PASSCODE);
    const { camera, h } = rig(phone, 2);
    const before = await view(camera, h);
    clock.advance(61_000);
    const after = await view(camera, h);
    expect(compareScreens(before, after).verdict).toBe("no visible change");
  });

  it("a phone that moved under the camera gives unknown, not changed", async () => {
    const { phone, finger } = makePhone();
    finger.unlock(PASSCODE);
    for (const [width, height] of [
      [W, H],
      [2304, 1296],
    ] as const) {
      const { camera } = rig(phone);
      const h = trueScreenToCamera(camera, phone, width, height);
      const before = await view(camera, h, { width, height });
      const pose = camera.pose;
      camera.setPose({ ...pose, centerXMm: pose.centerXMm + 0.8, centerYMm: pose.centerYMm - 0.5 });
      const r = compareScreens(before, await view(camera, h, { width, height }));
      expect(r.verdict).toBe("unknown");
      expect(r.reason).toMatch(/moved/);
    }
  });
});

describe("screen watcher", () => {
  it("stays quiet while the screen is still, and reports a message banner in the banner zone", async () => {
    const start = Date.UTC(2026, 0, 5, 9, 41, 0);
    const { phone, finger, clock } = makePhone({
      notifications: [{ atMs: start + 60_000, app: "messages", from: "Ann", text: "Lunch at noon?" }],
    });
    finger.unlock(PASSCODE);
    const { camera } = rig(phone, 0);
    // The poll trigger samples about once a second; small frames are enough for zone statistics.
    const size = { width: 640, height: 360 };
    const h = trueScreenToCamera(camera, phone, size.width, size.height);
    const watcher = new ScreenWatcher();
    const events: { zone: string; tMs: number }[] = [];
    for (let t = 40_000; t <= 64_000; t += 1_000) {
      clock.set(start + t);
      for (const e of watcher.update(await view(camera, h, size), clock.now())) events.push(e);
    }
    expect(events.filter((e) => e.tMs < start + 60_000)).toEqual([]);
    const banner = events.find((e) => e.zone === "banner");
    expect(banner?.tMs).toBeGreaterThanOrEqual(start + 60_000);
    expect(banner?.tMs).toBeLessThanOrEqual(start + 64_000);
  });
});
