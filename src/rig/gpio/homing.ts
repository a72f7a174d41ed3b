import { PiclawError } from "../../util/errors.js";
import type { RigProfile } from "../profile.js";
import type { InputName } from "./inputs.js";
import type { Interrupt } from "./interrupt.js";
import type { Kinematics, MotorSteps } from "./kinematics.js";

/** What homing needs from the back-end. */
export interface HomingContext {
  profile: RigProfile;
  kin: Kinematics;
  run: Interrupt;
  position(): MotorSteps;
  setPosition(m: MotorSteps): void;
  hasSwitch(name: InputName): boolean;
  switchActive(name: InputName): boolean;
  /** While set, that switch closing stops the current move (a seek) instead of raising a hard limit. */
  watchSwitch(name: InputName | null): void;
  /** Straight move at a feed; resolves false when stopped short (switch found, or halted). */
  moveTo(target: MotorSteps, feedMmPerMin: number): Promise<boolean>;
}

/** The slow second approach runs at this fraction of the seek feed, for a repeatable trip point. */
const LOCATE_FRACTION = 0.1;

/**
 * Home one axis against its switch at the origin side: seek toward 0 until the switch closes, back off
 * `pulloffMm`, approach again slowly, then pin the trip point down step by step (`pinpointTrip`) and call
 * it 0 on that axis.
 */
export async function homeAxis(ctx: HomingContext, axis: "x" | "y"): Promise<void> {
  const name: InputName = axis === "x" ? "limitX" : "limitY";
  if (!ctx.hasSwitch(name)) {
    throw new PiclawError("PROFILE_INVALID", `homing.endstops needs gpio.pins.${name}`);
  }
  const { seekFeedMmPerMin: seek, pulloffMm } = ctx.profile.homing;
  const pull = Math.max(pulloffMm, 0.5);
  const along = (mm: number): MotorSteps => {
    const p = ctx.kin.toBed(ctx.position());
    return ctx.kin.toSteps(axis === "x" ? { xMm: p.xMm + mm, yMm: p.yMm } : { xMm: p.xMm, yMm: p.yMm + mm });
  };
  const fail = (why: string) =>
    new PiclawError("MOTION_HOMING_FAILED", `homing ${axis.toUpperCase()}: ${why}`, { axis });

  if (ctx.switchActive(name)) {
    await ctx.moveTo(along(pull), seek);
    if (ctx.switchActive(name)) throw fail("the switch stays closed after backing off");
  }
  await seekSwitch(ctx, name, along(-1.2 * ctx.profile.travelMm[axis]), seek, () =>
    fail(`no switch within ${Math.round(1.2 * ctx.profile.travelMm[axis])} mm`),
  );
  await ctx.moveTo(along(pull), seek);
  ctx.run.check();
  if (ctx.switchActive(name)) throw fail("the switch stays closed after the pull-off");
  const slow = Math.max(10, seek * LOCATE_FRACTION);
  await seekSwitch(ctx, name, along(-2 * pull), slow, () =>
    fail("the switch did not close again on the slow approach"),
  );
  await pinpointTrip(ctx, name, along, slow, pull, fail);
  const p = ctx.kin.toBed(ctx.position());
  ctx.setPosition(ctx.kin.toSteps(axis === "x" ? { xMm: 0, yMm: p.yMm } : { xMm: p.xMm, yMm: 0 }));
}

/**
 * The slow approach stops where Node heard the switch, which is late by the event loop's latency: at
 * 5 mm/s and 40 ms on a loaded machine, 0.2 mm past the trip point (GRBL hears it in an interrupt).
 * So back off in small moves until the switch opens, then step toward it one motor step per move
 * until it closes: each move ends before the switch is read, so the trip point is found within one
 * step however late Node runs. Both walks are bounded (`pull` mm, and that again plus one back-off).
 */
async function pinpointTrip(
  ctx: HomingContext,
  name: InputName,
  along: (mm: number) => MotorSteps,
  feed: number,
  pull: number,
  fail: (why: string) => PiclawError,
): Promise<void> {
  const stepMm = 1 / Math.min(ctx.profile.stepsPerMm.x, ctx.profile.stepsPerMm.y);
  const backMm = 4 * stepMm;
  ctx.watchSwitch(name);
  try {
    for (let moved = 0; ctx.switchActive(name); moved += backMm) {
      if (moved > pull) throw fail("the switch stays closed while backing off the slow approach");
      await ctx.moveTo(along(backMm), feed);
      ctx.run.check();
    }
    for (let moved = 0; !ctx.switchActive(name); moved += stepMm) {
      if (moved > pull + backMm) throw fail("the switch did not close again stepping toward it");
      await ctx.moveTo(along(-stepMm), feed);
      ctx.run.check();
    }
  } finally {
    ctx.watchSwitch(null);
  }
}

async function seekSwitch(
  ctx: HomingContext,
  name: InputName,
  target: MotorSteps,
  feed: number,
  notFound: () => PiclawError,
): Promise<void> {
  ctx.watchSwitch(name);
  try {
    const completed = await ctx.moveTo(target, feed);
    ctx.run.check();
    if (completed && !ctx.switchActive(name)) throw notFound();
  } finally {
    ctx.watchSwitch(null);
  }
}
