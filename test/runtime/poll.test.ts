import { describe, expect, it } from "vitest";
import { runtimeConfigSchema } from "../../src/runtime/config.js";
import type { ScreenFrame } from "../../src/runtime/frames.js";
import { PollHook } from "../../src/runtime/poll.js";
import type { RgbImage } from "../../src/shared/image.js";
import { ManualClock } from "../../src/util/clock.js";
import { quietLog } from "../fakes/log.js";

const W = 120;
const H = 260;

/** A home-screen-like picture: a gradient wallpaper with a grid of icon squares and a dock bar. */
function screen(): RgbImage {
  const data = Buffer.alloc(W * H * 3);
  for (let y = 0; y < H; y++)
    for (let x = 0; x < W; x++) {
      const o = (y * W + x) * 3;
      const v = 60 + Math.round((y / H) * 80);
      data[o] = v;
      data[o + 1] = v + 10;
      data[o + 2] = v + 30;
    }
  const img = { width: W, height: H, channels: 3 as const, data };
  for (let row = 0; row < 4; row++)
    for (let col = 0; col < 4; col++) fill(img, 8 + col * 28, 25 + row * 32, 18, 18, [220, 180, 60]);
  fill(img, 4, 228, 112, 26, [200, 200, 210]);
  for (let col = 0; col < 4; col++) fill(img, 10 + col * 27, 232, 18, 18, [40, 170, 80]);
  return img;
}

function fill(
  img: RgbImage,
  x0: number,
  y0: number,
  w: number,
  h: number,
  rgb: [number, number, number],
): RgbImage {
  for (let y = y0; y < y0 + h; y++)
    for (let x = x0; x < x0 + w; x++) {
      const o = (y * img.width + x) * 3;
      img.data[o] = rgb[0];
      img.data[o + 1] = rgb[1];
      img.data[o + 2] = rgb[2];
    }
  return img;
}

function copy(img: RgbImage): RgbImage {
  return { width: img.width, height: img.height, channels: 3, data: Buffer.from(img.data) };
}

/** Feed `frames(t)` once a second for `seconds`; returns the reasons of the triggers with their times. */
function run(hook: PollHook, frame: (second: number) => RgbImage, seconds: number): Array<[number, string]> {
  const fired: Array<[number, string]> = [];
  for (let s = 0; s < seconds; s++)
    for (const t of hook.observe(frame(s), s * 1000)) if (t.kind === "poll") fired.push([s, t.reason]);
  return fired;
}

function hook(): PollHook {
  const never = { grab: async (): Promise<ScreenFrame | null> => null };
  return new PollHook(
    { frames: never, clock: new ManualClock(), log: quietLog() },
    runtimeConfigSchema.parse({}).poll,
  );
}

const base = screen();
const withBanner = fill(copy(base), 3, 17, 114, 22, [245, 245, 247]);
const withBadge = fill(copy(base), 70, 229, 6, 6, [255, 59, 48]);

describe("PollHook pre-filter", () => {
  it("fires once, naming the band, for a banner that stays", () => {
    const fired = run(hook(), (s) => (s >= 5 ? withBanner : base), 20);
    expect(fired).toHaveLength(1);
    expect(fired[0]?.[1]).toMatch(/banner: \d+% of the band changed/);
    expect(fired[0]?.[0]).toBeGreaterThanOrEqual(7); // persisted ≥ 2 s
  });

  it("ignores a change that lasts one sample (an animation)", () => {
    expect(run(hook(), (s) => (s === 5 ? withBanner : base), 30)).toEqual([]);
  });

  it("fires for a small new badge in the dock that stays", () => {
    const fired = run(hook(), (s) => (s >= 5 ? withBadge : base), 20);
    expect(fired).toHaveLength(1);
    expect(fired[0]?.[1]).toMatch(/dock: a small new mark appeared/);
  });

  it("ignores a small mark that flickers in place (never still for persistMs)", () => {
    expect(run(hook(), (s) => (s >= 5 && s % 2 === 0 ? withBadge : base), 30)).toEqual([]);
  });

  it("ignores a counter changing every second in the lower band (a running timer)", () => {
    const digits = (s: number) => fill(copy(base), 40 + (s % 3) * 8, 170, 6, 10, [255, 255, 255]);
    expect(run(hook(), digits, 40)).toEqual([]);
  });

  it("ignores changes in the status bar", () => {
    const tick = (s: number) => fill(copy(base), 8, 3, 12, 6, s >= 5 ? [255, 255, 255] : [0, 0, 0]);
    expect(run(hook(), tick, 30)).toEqual([]);
  });

  it("samples at the configured interval, and not while the arm is in use or settling after it", async () => {
    const clock = new ManualClock(0);
    let grabs = 0;
    let armBusy = false;
    const frames = {
      grab: async (): Promise<ScreenFrame> => {
        grabs++;
        return { image: base, atMs: clock.now() };
      },
    };
    const config = runtimeConfigSchema.parse({ poll: { intervalMs: 2000, armSettleMs: 3000 } }).poll;
    const poll = new PollHook({ frames, clock, log: quietLog(), armInUse: () => armBusy }, config);
    for (let t = 0; t < 10_000; t += 1000) await poll.check(t);
    expect(grabs).toBe(5);
    armBusy = true;
    await poll.check(10_000);
    armBusy = false;
    await poll.check(11_000);
    await poll.check(12_000);
    expect(grabs).toBe(5);
    await poll.check(13_000);
    expect(grabs).toBe(6);
  });
});
