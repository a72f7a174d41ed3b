import { describe, expect, it } from "vitest";
import { trapezoid } from "../../../src/rig/speed-law.js";
import { FontBook } from "../../../src/shared/fonts.js";
import { SimGantry } from "../../../src/sim/gantry/model.js";
import { sampledCurve } from "../../../src/sim/gantry/profile-curve.js";
import { SimPhone } from "../../../src/sim/phone/index.js";
import { glassFrame, glassToBed, type PhonePose } from "../../../src/sim/pose.js";
import type { TouchEvent } from "../../../src/sim/types.js";
import { ManualClock } from "../../../src/util/clock.js";

const fonts = new FontBook();
const POSE: PhonePose = { centerXMm: 100, centerYMm: 100, rotationDeg: 7, tiltXDeg: 0.5, tiltYDeg: -0.4 };

function rig(pose = POSE) {
  const clock = new ManualClock();
  const phone = new SimPhone({ clock, fonts, locale: "en", passcode: "1234" });
  const touches: TouchEvent[] = [];
  const limits: string[] = [];
  const gantry = new SimGantry({
    clock,
    travelMm: { x: 200, y: 200 },
    initialPosition: { xMm: 190, yMm: 190 },
    contactDelayMs: 15,
    releaseDelayMs: 25,
    surface: {
      frame: glassFrame(phone.geometry, pose),
      glassMm: phone.geometry.glassMm,
      touch: (ev) => {
        touches.push(ev);
        phone.touch(ev);
      },
    },
    onLimit: (axis) => limits.push(axis),
  });
  const fast = (d: number) => trapezoid(d, 500, 10_000);
  /** Run the clock forward in digitizer-sized steps, delivering touches as they fall due. */
  const advance = (ms: number) => {
    for (let t = 0; t < ms; t += 4) {
      clock.advance(4);
      gantry.flush(clock.now());
    }
  };
  /** Travel, press for `contactMs`, release — as a motion back-end would sequence it. */
  const tapAt = (bed: { xMm: number; yMm: number }, contactMs = 80) => {
    const end = gantry.move(bed, fast);
    gantry.setStylus(true, end);
    gantry.setStylus(false, end + contactMs);
    advance(end + contactMs + 200 - clock.now());
  };
  return { clock, phone, gantry, touches, limits, advance, tapAt, fast };
}

/** Bed position of the centre of an element's true box, through the phone's pose. */
function bedOf(phone: SimPhone, label: string, pose = POSE) {
  const el = phone.truth().elements.find((e) => e.label === label);
  if (!el) throw new Error(`no element ${label}`);
  const [l, t, r, b] = el.box;
  const g = phone.geometry.glassMm;
  const p = glassToBed(glassFrame(phone.geometry, pose), ((l + r) / 2) * g.width, ((t + b) / 2) * g.height);
  return { xMm: p.x, yMm: p.y };
}

function unlock(r: ReturnType<typeof rig>) {
  // Swipe up from the bottom edge, then the passcode, all with the stylus.
  const g = r.phone.geometry.glassMm;
  const frame = glassFrame(r.phone.geometry, POSE);
  const toBed = (gx: number, gy: number) => {
    const p = glassToBed(frame, gx, gy);
    return { xMm: p.x, yMm: p.y };
  };
  const start = toBed(g.width / 2, g.height - 1.5);
  const end = toBed(g.width / 2, g.height - 50);
  const t0 = r.gantry.move(start, r.fast);
  r.gantry.setStylus(true, t0);
  const t1 = r.gantry.move(end, (d) => trapezoid(d, 150, 5000), t0 + 40);
  r.gantry.setStylus(false, t1);
  r.advance(t1 + 300 - r.clock.now());
  for (const digit of "1234") r.tapAt(bedOf(r.phone, digit));
  r.advance(1000);
}

describe("simulated gantry", () => {
  it("moves 35 mm in ≈120 ms at 500 mm/s and 10 m/s² (trapezoid timing)", () => {
    expect(trapezoid(35, 500, 10_000).durationMs).toBeGreaterThan(115);
    expect(trapezoid(35, 500, 10_000).durationMs).toBeLessThan(125);
    const c = sampledCurve([
      { tMs: 0, mm: 0 },
      { tMs: 10, mm: 1 },
      { tMs: 30, mm: 2 },
    ]);
    expect(c.distanceAt(20)).toBeCloseTo(1.5, 9);
  });

  it("a stylus tap at the Clock icon's true centre opens Clock; 8 mm off does not", () => {
    const hit = rig();
    unlock(hit);
    expect(hit.phone.truth().screen).toBe("home");
    hit.tapAt(bedOf(hit.phone, "Clock"));
    expect(hit.phone.truth().app).toBe("clock");

    const miss = rig();
    unlock(miss);
    const clock = bedOf(miss.phone, "Clock");
    miss.tapAt({ xMm: clock.xMm, yMm: clock.yMm + 8 }); // toward the top of the phone: the gap between rows
    expect(miss.phone.truth().screen).toBe("home");
  });

  it("a calibration that ignores the phone's 7° rotation misses a far icon", () => {
    const r = rig();
    unlock(r);
    const unrotated: PhonePose = { ...POSE, rotationDeg: 0 };
    // The dock's far corner is ≈66 mm from the screen centre: 7° moves it ≈8 mm, off a 10 mm icon.
    r.tapAt(bedOf(r.phone, "Music", unrotated));
    expect(r.phone.truth().screen).toBe("home");
    r.tapAt(bedOf(r.phone, "Music"));
    expect(r.phone.truth().app).toBe("music");
  });

  it("reports contact with the solenoid's delays, at the exact mechanical times", () => {
    const r = rig();
    const target = bedOf(r.phone, "Swipe up to open");
    const end = r.gantry.move(target, r.fast);
    r.gantry.setStylus(true, end);
    r.gantry.setStylus(false, end + 80);
    r.advance(end + 300 - r.clock.now());
    const [down, up] = [r.touches[0], r.touches.at(-1)];
    expect(down?.type).toBe("down");
    expect(down?.tMs).toBe(end + 15);
    expect(up?.type).toBe("up");
    expect(up?.tMs).toBe(end + 80 + 25);
  });

  it("a tip landing off the glass touches nothing", () => {
    const r = rig();
    r.tapAt({ xMm: 20, yMm: 20 });
    expect(r.touches).toHaveLength(0);
  });

  it("stalls at the frame and reports a hard limit", () => {
    const r = rig();
    r.gantry.move({ xMm: 250, yMm: 100 }, r.fast);
    r.advance(2000);
    expect(r.gantry.positionAt().xMm).toBe(200);
    expect(r.limits).toEqual(["x"]);
  });

  it("halts mid-move where the carriage is, with the stylus released", () => {
    const r = rig();
    r.gantry.move({ xMm: 10, yMm: 190 }, r.fast);
    r.advance(100);
    const here = r.gantry.halt();
    r.advance(500);
    expect(here.xMm).toBeGreaterThan(10);
    expect(here.xMm).toBeLessThan(190);
    expect(r.gantry.positionAt()).toEqual(here);
    expect(r.gantry.stylusEnergised).toBe(false);
  });

  it("keeps a bounded record of moves and solenoid changes; a halt shortens the move under way", () => {
    const r = rig();
    const t0 = r.clock.now();
    r.tapAt({ xMm: 100, yMm: 100 });
    const log = r.gantry.motionLog(t0);
    expect(log.map((e) => e.kind)).toEqual(["move", "stylus", "stylus"]);
    const [move, down, up] = log;
    expect(move).toMatchObject({ kind: "move", startMs: t0, to: { xMm: 100, yMm: 100 } });
    if (move?.kind !== "move") throw new Error("not a move");
    expect(down).toEqual({ kind: "stylus", atMs: move.endMs, down: true });
    expect(up).toEqual({ kind: "stylus", atMs: move.endMs + 80, down: false });
    r.gantry.move({ xMm: 10, yMm: 100 }, r.fast);
    r.gantry.move({ xMm: 10, yMm: 10 }, r.fast); // never begins
    r.advance(50);
    const here = r.gantry.halt();
    const after = r.gantry.motionLog(r.clock.now() - 60).filter((e) => e.kind === "move");
    expect(after).toEqual([expect.objectContaining({ endMs: r.clock.now(), to: here })]);
    for (let i = 0; i < 5000; i++) r.gantry.setStylus(i % 2 === 0, r.clock.now());
    expect(r.gantry.motionLog()).toHaveLength(4096);
  });
});
