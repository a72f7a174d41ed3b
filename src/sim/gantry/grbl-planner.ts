import type { BedPoint } from "../../rig/motion.js";
import { type MoveCurve, trapezoid } from "../../rig/speed-law.js";
import type { SimGantry } from "./model.js";

/** Machine limits the planner applies per block (Cartesian per-axis limits; enough for CoreXY here). */
export interface PlannerLimits {
  maxRateMmPerMin: { x: number; y: number };
  accelMmPerS2: { x: number; y: number };
  travelMm: { x: number; y: number };
  /** The solenoid's release delay: a hold re-energises only after the halt's release (see hold()). */
  releaseDelayMs: number;
}

interface Scheduled {
  from: BedPoint;
  startMs: number;
  endMs: number;
  curve: MoveCurve;
}

/** One planner block: a straight move to a true bed position. */
export interface PlannerBlock {
  to: BedPoint;
  feedMmPerMin: number;
  /** The rate the block actually runs at (feed capped by the axes' maximum rates). */
  rateMmPerMin: number;
  /** Set once the block's motion is queued on the gantry (not while held). */
  run?: Scheduled;
  /** The target lies beyond the frame: the carriage will stall there (a hard-limit hit). */
  hitsFrame: boolean;
}

/**
 * GRBL's planner ring buffer has BLOCK_BUFFER_SIZE 16 slots (config.h) but one always stays empty to
 * tell full from empty (planner.c plan_check_full_buffer), so 15 blocks are usable — `$I` says `,15,`.
 */
export const PLANNER_BLOCKS = 15;

/**
 * The simulator's motion planner: blocks enter as GRBL acknowledges them and run back to back on the
 * gantry, each a trapezoid from rest to rest (GRBL would blend junctions; that only makes real moves a
 * little faster). Feed hold decelerates the current block to a stop and keeps the rest for resume.
 */
export class SimPlanner {
  private blocks: PlannerBlock[] = [];
  private holding = false;
  private holdEndMs = 0;
  /** Where the last planned block ends (true position). */
  private tail: BedPoint;

  constructor(
    private readonly gantry: SimGantry,
    private readonly limits: PlannerLimits,
  ) {
    this.tail = gantry.positionAt();
  }

  get isHolding(): boolean {
    return this.holding;
  }

  holdComplete(now: number): boolean {
    return this.holding && now >= this.holdEndMs && !this.gantry.isMoving(now);
  }

  /** Blocks in the planner that have not completed. */
  occupancy(now: number): number {
    return this.blocks.filter((b) => !b.run || b.run.endMs > now).length;
  }

  /** True while anything is planned, moving or held. */
  busy(now: number): boolean {
    return this.occupancy(now) > 0 || this.gantry.isMoving(now);
  }

  /** Feed rate of the block running at `now` (0 when still). */
  feedAt(now: number): number {
    const b = this.blocks.find((x) => x.run && x.run.startMs <= now && x.run.endMs > now);
    return b ? Math.round(b.rateMmPerMin) : 0;
  }

  /** Drop completed blocks; returns them (the caller checks for frame hits). */
  prune(now: number): PlannerBlock[] {
    const done = this.blocks.filter((b) => b.run && b.run.endMs <= now);
    if (done.length) this.blocks = this.blocks.filter((b) => !done.includes(b));
    return done;
  }

  /** Plan a straight move to `to` (true mm) at up to `feedMmPerMin`. Zero-length moves are dropped. */
  add(to: BedPoint, feedMmPerMin: number): void {
    if (Math.hypot(to.xMm - this.tail.xMm, to.yMm - this.tail.yMm) < 1e-6) return;
    const { travelMm } = this.limits;
    const hitsFrame = to.xMm < 0 || to.yMm < 0 || to.xMm > travelMm.x || to.yMm > travelMm.y;
    const block: PlannerBlock = { to, feedMmPerMin, rateMmPerMin: 0, hitsFrame };
    this.blocks.push(block);
    this.tail = to;
    if (!this.holding) this.schedule(block);
  }

  /**
   * Feed hold: decelerate the running block to a stop at the profile's acceleration, keep every unfinished
   * block for `resume()`. The solenoid stays as it is, so a held swipe keeps its contact.
   */
  hold(now: number): void {
    if (this.holding) return;
    this.holding = true;
    this.holdEndMs = now;
    const unfinished = this.blocks.filter((b) => b.run && b.run.endMs > now);
    if (!unfinished.length) return;
    const current = unfinished.find((b) => b.run && b.run.startMs <= now);
    const currentRun = current?.run;
    const here = this.gantry.cut();
    for (const b of unfinished) b.run = undefined;
    if (current && currentRun) this.decelerate(current, currentRun, here, now);
  }

  /** Resume after a hold: re-plan the held blocks from wherever the carriage stopped. */
  resume(): void {
    if (!this.holding) return;
    this.holding = false;
    for (const b of this.blocks) if (!b.run) this.schedule(b);
  }

  /** Stop dead (reset, hard limit): cut all motion, forget every block. Returns the carriage position. */
  halt(): BedPoint {
    const here = this.gantry.halt();
    this.discard(here);
    return here;
  }

  /** Forget planned blocks without touching motion already on the gantry (after a controlled stop). */
  discard(tail: BedPoint = this.gantry.positionAt(this.gantry.motionEndMs())): void {
    this.blocks = [];
    this.holding = false;
    this.tail = tail;
  }

  private decelerate(block: PlannerBlock, run: Scheduled, here: BedPoint, now: number): void {
    const e = now - run.startMs;
    const speed = (run.curve.distanceAt(e + 0.5) - run.curve.distanceAt(e - 0.5)) * 1000;
    const dx = block.to.xMm - here.xMm;
    const dy = block.to.yMm - here.yMm;
    const remaining = Math.hypot(dx, dy);
    if (speed <= 0 || remaining < 1e-6) return;
    const accel = this.axisLimit(dx, dy, this.limits.accelMmPerS2);
    const stopMm = Math.min((speed * speed) / (2 * accel), remaining);
    const v = Math.sqrt(2 * accel * stopMm);
    const durationS = v / accel;
    const curve: MoveCurve = {
      distanceMm: stopMm,
      durationMs: durationS * 1000,
      distanceAt(ms: number): number {
        const t = Math.min(Math.max(ms / 1000, 0), durationS);
        return v * t - 0.5 * accel * t * t;
      },
    };
    const f = stopMm / remaining;
    const end = this.gantry.move({ xMm: here.xMm + dx * f, yMm: here.yMm + dy * f }, () => curve, now);
    this.holdEndMs = end;
  }

  /** Cartesian limits: the path rate (or acceleration) at which no axis exceeds its own maximum. */
  private axisLimit(dx: number, dy: number, max: { x: number; y: number }): number {
    const len = Math.hypot(dx, dy) || 1;
    const ux = Math.abs(dx) / len;
    const uy = Math.abs(dy) / len;
    return Math.min(
      ux > 1e-9 ? max.x / ux : Number.POSITIVE_INFINITY,
      uy > 1e-9 ? max.y / uy : Number.POSITIVE_INFINITY,
    );
  }

  private schedule(block: PlannerBlock): void {
    const start = this.gantry.positionAt(Math.max(this.gantry.motionEndMs(), this.gantry.now()));
    const dx = block.to.xMm - start.xMm;
    const dy = block.to.yMm - start.yMm;
    const rate = Math.min(block.feedMmPerMin, this.axisLimit(dx, dy, this.limits.maxRateMmPerMin)) / 60;
    const accel = this.axisLimit(dx, dy, this.limits.accelMmPerS2);
    block.rateMmPerMin = rate * 60;
    let curve: MoveCurve = trapezoid(0, rate, accel);
    const endMs = this.gantry.move(block.to, (d) => {
      curve = trapezoid(d, rate, accel);
      return curve;
    });
    block.run = { from: start, startMs: endMs - curve.durationMs, endMs, curve };
  }
}
