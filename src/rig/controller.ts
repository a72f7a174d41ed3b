import type { Logger } from "../log/logger.js";
import { PiclawError } from "../util/errors.js";
import { GesturePlanner } from "./gestures.js";
import type { BedPoint, MotionBackend, MotionStatus, MotionStep } from "./motion.js";
import type { RigProfile } from "./profile.js";

/** An axis-aligned allowed area on the bed (the calibrated screen plus a margin, or the whole travel). */
export interface BedArea {
  minXMm: number;
  minYMm: number;
  maxXMm: number;
  maxYMm: number;
}

/**
 * The one way anything moves the arm. It owns the safety rules that hold for every back-end:
 * - every target of a program is validated (finite numbers, inside the allowed area) *before* any step
 *   is sent, so bad input moves nothing and says why;
 * - XY travel only with the stylus lifted (programs are checked, not trusted);
 * - the solenoid's energised time per program is bounded by `stylus.maxOnMs`;
 * - an e-stop latches: nothing moves until `resetEstop()` and a fresh reference;
 * - programs never interleave (one runs at a time, in arrival order);
 * - on `stop()`: lift, park, disable drivers.
 */
export class MotionController {
  readonly gestures: GesturePlanner;
  private allowed: BedArea;
  private estopReason: string | null = null;
  private queue: Promise<void> = Promise.resolve();
  /** Where the arm was last known to be while referenced (a status report, or a program's end). */
  private lastKnown: BedPoint | null = null;

  constructor(
    private readonly backend: MotionBackend,
    private readonly profile: RigProfile,
    private readonly log: Logger,
  ) {
    this.gestures = new GesturePlanner(profile);
    this.allowed = this.wholeTravel();
  }

  async start(): Promise<void> {
    await this.backend.start();
    this.log.info("motion back-end up", { backend: this.backend.name, profile: this.profile.name });
  }

  /** Lift, park (when it is safe to move), disable the drivers and release the back-end. */
  async stop(): Promise<void> {
    try {
      const status = await this.backend.status();
      if (status.referenced && status.state === "idle" && !this.estopReason) await this.park();
      await this.backend.disableDrivers();
    } catch (err) {
      this.log.warn("could not park on shutdown", { err });
    } finally {
      await this.backend.stop();
    }
  }

  async reference(): Promise<void> {
    if (this.estopReason) throw this.estopError();
    await this.serialize(() => this.backend.reference());
  }

  /**
   * The operator checked that the carriage is at the park spot: clear a latched e-stop (this is the fresh
   * reference it waits for) and reference there, even where `reference()` refuses with
   * MOTION_ORIGIN_UNCONFIRMED. Queued behind any running program, like every move.
   */
  async confirmParked(): Promise<void> {
    this.resetEstop();
    const { backend } = this;
    await this.serialize(() => (backend.confirmParked ? backend.confirmParked() : backend.reference()));
  }

  /**
   * The back-end's status, with `positionKnown`. While not referenced (after an e-stop, alarm, reset or
   * reconnect) `position` is the last one known while referenced, never the back-end's meaningless one.
   */
  async status(): Promise<MotionStatus> {
    const status = await this.backend.status();
    if (status.referenced) {
      this.lastKnown = { ...status.position };
      return { ...status, positionKnown: true };
    }
    return { ...status, position: { ...(this.lastKnown ?? status.position) }, positionKnown: false };
  }

  /** Restrict targets to `area` (after calibration: the screen plus a margin); null = whole travel. */
  setAllowedArea(area: BedArea | null): void {
    const whole = this.wholeTravel();
    if (!area) {
      this.allowed = whole;
      return;
    }
    this.allowed = {
      minXMm: Math.max(area.minXMm, whole.minXMm),
      minYMm: Math.max(area.minYMm, whole.minYMm),
      maxXMm: Math.min(area.maxXMm, whole.maxXMm),
      maxYMm: Math.min(area.maxYMm, whole.maxYMm),
    };
  }

  get allowedArea(): BedArea {
    return { ...this.allowed };
  }

  /** Run a program after validating all of it; rejects with the reason and moves nothing if invalid. */
  run(program: readonly MotionStep[], signal?: AbortSignal): Promise<void> {
    return this.runChecked(program, this.allowed, signal);
  }

  /** Validation runs before this returns (nothing is queued for a bad program); failures reject. */
  private async runChecked(
    program: readonly MotionStep[],
    area: BedArea,
    signal?: AbortSignal,
  ): Promise<void> {
    this.validate(program, area);
    return this.serialize(async () => {
      if (this.estopReason) throw this.estopError();
      await this.backend.run(program, signal);
      // run() resolves once every step is done: the arm is at the program's last target.
      const end = program.findLast((s) => s.kind === "travel" || s.kind === "feed");
      if (end && "to" in end) this.lastKnown = { ...end.to };
      if (this.profile.idleDisableDrivers) await this.backend.disableDrivers();
    });
  }

  /** Travel to the profile's park spot (always allowed, even outside a calibrated area). */
  park(): Promise<void> {
    return this.runChecked(this.gestures.park(), this.wholeTravel());
  }

  /** Emergency stop: halt now, lift, latch. Safe to call from any state, any number of times. */
  async estop(reason: string): Promise<void> {
    this.estopReason = reason;
    this.log.error("emergency stop", { reason });
    await this.backend.halt(reason);
  }

  /** Clear a latched e-stop. Motion still needs `reference()` (the back-end lost its position). */
  resetEstop(): void {
    if (this.estopReason) this.log.warn("emergency stop reset", { was: this.estopReason });
    this.estopReason = null;
  }

  get estopLatched(): boolean {
    return this.estopReason !== null;
  }

  /** Throws MOTION_TARGET_INVALID / MOTION_SOFT_LIMIT / MOTION_STYLUS_TOO_LONG naming the step. */
  validate(program: readonly MotionStep[], area: BedArea = this.allowed): void {
    let down = false;
    let energisedMs = 0;
    let position: BedPoint | null = null;
    program.forEach((step, index) => {
      const where = `step ${index + 1} (${step.kind})`;
      switch (step.kind) {
        case "travel":
        case "feed": {
          this.checkPoint(step.to, where, area);
          if (step.kind === "travel" && down) {
            throw new PiclawError(
              "MOTION_PROGRAM_INVALID",
              `${where}: travel with the stylus down is not allowed`,
              {
                step: index + 1,
              },
            );
          }
          if (step.kind === "feed") {
            if (!Number.isFinite(step.feedMmPerMin) || step.feedMmPerMin <= 0) {
              throw new PiclawError(
                "MOTION_TARGET_INVALID",
                `${where}: feedMmPerMin must be a positive number`,
                {
                  step: index + 1,
                  field: "feedMmPerMin",
                },
              );
            }
            if (down && position) {
              const mm = Math.hypot(step.to.xMm - position.xMm, step.to.yMm - position.yMm);
              energisedMs += (mm / step.feedMmPerMin) * 60_000;
            }
          }
          position = step.to;
          break;
        }
        case "dwell":
          if (!Number.isFinite(step.ms) || step.ms < 0 || step.ms > 60_000) {
            throw new PiclawError("MOTION_TARGET_INVALID", `${where}: ms must be a number in 0…60000`, {
              step: index + 1,
              field: "ms",
            });
          }
          if (down) energisedMs += step.ms;
          break;
        case "stylus":
          if (step.down && !down) energisedMs += this.profile.stylus.strikeMs;
          down = step.down;
          break;
      }
      if (energisedMs > this.profile.stylus.maxOnMs) {
        throw new PiclawError(
          "MOTION_STYLUS_TOO_LONG",
          `${where}: the stylus would stay down ${Math.round(energisedMs)} ms, over the ${this.profile.stylus.maxOnMs} ms limit`,
          { step: index + 1 },
        );
      }
    });
    if (down) {
      throw new PiclawError(
        "MOTION_PROGRAM_INVALID",
        "the program ends with the stylus down; it must end lifted",
      );
    }
  }

  private checkPoint(p: BedPoint, where: string, a: BedArea): void {
    for (const field of ["xMm", "yMm"] as const) {
      const v = p?.[field];
      if (typeof v !== "number" || !Number.isFinite(v)) {
        throw new PiclawError(
          "MOTION_TARGET_INVALID",
          `${where}: ${field} must be a finite number, got ${String(v)}`,
          {
            field,
          },
        );
      }
    }
    if (p.xMm < a.minXMm || p.xMm > a.maxXMm || p.yMm < a.minYMm || p.yMm > a.maxYMm) {
      throw new PiclawError(
        "MOTION_SOFT_LIMIT",
        `${where}: target (${p.xMm.toFixed(2)}, ${p.yMm.toFixed(2)}) mm is outside the allowed area ` +
          `x ${a.minXMm}…${a.maxXMm}, y ${a.minYMm}…${a.maxYMm} mm; nothing moved`,
        { target: p, allowed: a },
      );
    }
  }

  private wholeTravel(): BedArea {
    return { minXMm: 0, minYMm: 0, maxXMm: this.profile.travelMm.x, maxYMm: this.profile.travelMm.y };
  }

  private estopError(): PiclawError {
    return new PiclawError("MOTION_ESTOP", `emergency stop is latched (${this.estopReason}); reset it first`);
  }

  /** Chain work so programs never interleave; a failure does not poison the chain. */
  private serialize<T>(work: () => Promise<T>): Promise<T> {
    const result = this.queue.then(work, work);
    this.queue = result.then(
      () => undefined,
      () => undefined,
    );
    return result;
  }
}
