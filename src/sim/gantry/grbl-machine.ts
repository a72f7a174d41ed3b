import type { Logger } from "../../log/logger.js";
import type { BedPoint } from "../../rig/motion.js";
import type { RigProfile } from "../../rig/profile.js";
import { GrblEeprom } from "./grbl-eeprom.js";
import type { GcodeBlock } from "./grbl-gcode.js";
import { PLANNER_BLOCKS, type PlannerLimits, type SimPlanner } from "./grbl-planner.js";
import { StatusReporter } from "./grbl-report.js";
import type { SimGantry } from "./model.js";

/** Options of the GRBL simulator. */
export interface GrblSimOptions {
  gantry: SimGantry;
  profile: RigProfile;
  log: Logger;
  /** Sends bytes to the host (the pseudo-terminal). */
  write: (text: string) => void;
  /**
   * The board's EEPROM (settings, startup blocks, build options). Default: a factory-fresh board, whose
   * settings have nothing to do with the profile; pass the same object again to model a power cycle.
   */
  eeprom?: GrblEeprom;
}

/** config.h DWELL_TIME_STEP: G4 sleeps in 50 ms steps, `ceil(1000/50*seconds)` of them (nuts_bolts.c delay_sec). */
export const DWELL_STEP_MS = 50;
/** What a line execution answers: `ok`, `error:N`, or nothing (a critical alarm silenced the board). */
export type Reply = "ok" | number | null;

interface Waiter {
  cond: () => boolean;
  resolve: () => void;
  reject: (err: Error) => void;
}

/**
 * The machine half of the GRBL simulator: EEPROM settings, the G-code parser state (modes, G54/G92,
 * feed, spindle), G-code execution into the planner, homing, and the board-mm ↔ true-mm mapping.
 * `GrblSim` (grbl-sim.ts) adds the serial half: RX buffer, real-time bytes, the line pump, resets,
 * alarms and status reports. Machine coordinates are GRBL's own idea: at power-on MPos is 0,0 wherever
 * the carriage truly is; the board moves `$100` steps per mm it is told, so true mm = k + machine mm ×
 * `$100 / profile.stepsPerMm` (a factory board moves a 35 mm tap 109 mm).
 */
export abstract class GrblMachine {
  readonly eeprom: GrblEeprom;
  protected readonly settings: Map<number, number>;
  protected planner!: SimPlanner;
  protected readonly limits: PlannerLimits;
  protected readonly reporter = new StatusReporter();
  /** Physical mm per board mm on each axis ($100/$101 against the rig's real steps/mm). */
  protected scale = { x: 1, y: 1 };
  protected waiters: Waiter[] = [];
  /** True position = machine position + k. */
  protected k: BedPoint = { xMm: 0, yMm: 0 };
  /** Where GRBL's parser thinks the last planned move ends (machine mm). */
  protected gcPos: BedPoint = { xMm: 0, yMm: 0 };
  protected g54: BedPoint = { xMm: 0, yMm: 0 };
  protected g92: BedPoint = { xMm: 0, yMm: 0 };
  protected motionMode: 0 | 1 = 0;
  protected relative = false;
  protected inches = false;
  protected feed = 0;
  protected spindleS = 0;
  protected spindleOn = false;
  protected alarmLock = false;
  protected homing = false;
  /** Spindle PWM duty 0–1 as the board drives it (S clamped to $31…$30, over $30). */
  protected pwm = 0;
  /**
   * When the line being executed arrived, and when the last synchronised command (spindle change,
   * dwell) ended, in gantry time. A real board runs a line the moment the previous one is done, even if
   * this process was busy then: so M5 after `G4 P0.08` lifts exactly 80 ms after the dwell began, not
   * whenever the event loop got round to it (a stall must not turn a tap into a long press).
   */
  protected syncedAt = Number.NEGATIVE_INFINITY;
  protected lineAt = 0;

  constructor(protected readonly options: GrblSimOptions) {
    this.eeprom = options.eeprom ?? new GrblEeprom();
    this.settings = this.eeprom.settings;
    const { profile } = options;
    this.limits = {
      maxRateMmPerMin: { x: 0, y: 0 },
      accelMmPerS2: { x: 0, y: 0 },
      travelMm: profile.travelMm,
      releaseDelayMs: profile.stylus.releaseDelayMs,
    };
  }

  /** Raise `ALARM:code` (the serial half decides what a critical alarm silences). */
  protected abstract alarm(code: number): void;

  /** The spindle PWM duty (0–1) the board drives now: what `$30` makes of an S word. */
  get spindlePwm(): number {
    return this.pwm;
  }

  /** Board mm → physical mm, and the planner's limits in physical units, from the EEPROM settings. */
  protected applySettings(): void {
    const { profile } = this.options;
    const get = (id: number) => this.settings.get(id) ?? 0;
    this.scale = { x: get(100) / profile.stepsPerMm.x, y: get(101) / profile.stepsPerMm.y };
    this.limits.maxRateMmPerMin = { x: get(110) * this.scale.x, y: get(111) * this.scale.y };
    this.limits.accelMmPerS2 = { x: get(120) * this.scale.x, y: get(121) * this.scale.y };
  }

  protected now(): number {
    return this.options.gantry.now();
  }

  protected until(cond: () => boolean): Promise<void> {
    if (cond()) return Promise.resolve();
    return new Promise((resolve, reject) => this.waiters.push({ cond, resolve, reject }));
  }

  /**
   * $H: seek the switches in the `$23` direction (bit set: toward negative, i.e. the bed origin where
   * this rig's switches are; clear: toward the far end, which has none → ALARM:9), pull off `$27`, then
   * set machine position −`$130`+`$27` (limits.c limits_go_home, without HOMING_FORCE_SET_ORIGIN), so
   * all of machine space is negative: −`$130`…0.
   */
  protected async home(): Promise<Reply> {
    if (this.settings.get(22) !== 1) return 5;
    if (this.planner.busy(this.now())) return 8;
    this.homing = true;
    const dir = this.settings.get(23) ?? 0;
    const { travelMm } = this.options.profile;
    const rate = (this.settings.get(25) ?? 500) * this.scale.x;
    const seek = { xMm: dir & 1 ? 0 : travelMm.x, yMm: dir & 2 ? 0 : travelMm.y };
    this.planner.add(seek, rate);
    await this.motionDone();
    const switches = this.options.gantry.endstops();
    if (!switches.x || !switches.y || (dir & 3) !== 3) {
      this.homing = false;
      this.alarm(9);
      return null;
    }
    const pull = this.settings.get(27) ?? 1;
    this.planner.add({ xMm: pull * this.scale.x, yMm: pull * this.scale.y }, rate);
    await this.motionDone();
    this.homing = false;
    const m = { xMm: -(this.settings.get(130) ?? 0) + pull, yMm: -(this.settings.get(131) ?? 0) + pull };
    const here = this.options.gantry.positionAt();
    this.k = { xMm: here.xMm - m.xMm * this.scale.x, yMm: here.yMm - m.yMm * this.scale.y };
    this.gcPos = this.machinePos();
    this.alarmLock = false;
    this.reporter.wcoChanged();
    return "ok";
  }

  /** Resolves once every planned block has run and the machine is not held. */
  protected motionDone(): Promise<void> {
    return this.until(() => !this.planner.busy(this.now()) && !this.planner.isHolding);
  }

  protected async gcode(b: GcodeBlock): Promise<Reply> {
    const w = b.words;
    if (b.units) this.inches = b.units === "inch";
    const scale = this.inches ? 25.4 : 1;
    if (w.F !== undefined) this.feed = w.F * scale;
    if (w.S !== undefined) this.spindleS = w.S;
    // GRBL's order of execution: feed, spindle (synchronised), dwell, modes, offsets, motion.
    if (b.motion !== undefined) this.motionMode = b.motion;
    if (b.spindle !== undefined || (w.S !== undefined && this.spindleOn)) {
      const arrived = this.lineAt;
      // Every spindle change is synchronised, even in laser mode (gcode.c, "[7. Spindle control ]").
      await this.motionDone();
      const at = Math.max(arrived, this.options.gantry.motionEndMs());
      this.syncedAt = at;
      this.spindleOn = b.spindle !== undefined ? b.spindle === "cw" : this.spindleOn;
      this.pwm = this.spindleOn ? this.duty(this.spindleS) : 0;
      this.reporter.spindleChanged();
      this.options.gantry.setStylus(this.pwm > 0, at);
    }
    if (b.nonModal === "G4") {
      if (w.P === undefined) return 28;
      const arrived = this.lineAt;
      await this.motionDone();
      const steps = Math.ceil((1000 / DWELL_STEP_MS) * w.P - 1e-9);
      const end = Math.max(arrived, this.options.gantry.motionEndMs()) + steps * DWELL_STEP_MS;
      this.syncedAt = end;
      await this.until(() => this.now() >= end);
    }
    if (b.distance) this.relative = b.distance === "relative";
    const axes = w.X !== undefined || w.Y !== undefined;
    if (b.nonModal === "G10") return this.setG54(b, scale);
    if (b.nonModal === "G92") {
      if (!axes) return 26;
      if (w.X !== undefined) this.g92.xMm = this.gcPos.xMm - this.g54.xMm - w.X * scale;
      if (w.Y !== undefined) this.g92.yMm = this.gcPos.yMm - this.g54.yMm - w.Y * scale;
      this.reporter.wcoChanged();
      return "ok";
    }
    if (b.nonModal === "G92.1") {
      this.g92 = { xMm: 0, yMm: 0 };
      this.reporter.wcoChanged();
      return "ok";
    }
    if (b.programEnd) this.relative = false;
    if (!axes) return "ok";
    if (this.motionMode === 1 && this.feed <= 0) return 22;
    return this.motion(b, scale);
  }

  protected setG54(b: GcodeBlock, scale: number): Reply {
    const { L, P = 1, X, Y } = b.words;
    if (L !== 2 && L !== 20) return 28;
    if (P !== 0 && P !== 1) return 29;
    if (X !== undefined) this.g54.xMm = L === 2 ? X * scale : this.gcPos.xMm - this.g92.xMm - X * scale;
    if (Y !== undefined) this.g54.yMm = L === 2 ? Y * scale : this.gcPos.yMm - this.g92.yMm - Y * scale;
    this.reporter.wcoChanged();
    return "ok";
  }

  protected async motion(b: GcodeBlock, scale: number): Promise<Reply> {
    const target = { ...this.gcPos };
    const wco = this.wco();
    for (const [word, axis] of [
      ["X", "xMm"],
      ["Y", "yMm"],
    ] as const) {
      const v = b.words[word];
      if (v === undefined) continue;
      target[axis] = this.relative ? this.gcPos[axis] + v * scale : v * scale + wco[axis];
    }
    if (this.settings.get(20) === 1) {
      // system.c system_check_travel_limits: machine space is −$130…0 (max_travel stored negative).
      const max = { xMm: this.settings.get(130) ?? 0, yMm: this.settings.get(131) ?? 0 };
      if (target.xMm > 0 || target.yMm > 0 || target.xMm < -max.xMm || target.yMm < -max.yMm) {
        this.alarm(2);
        return null;
      }
    }
    await this.until(() => this.planner.occupancy(this.now()) < PLANNER_BLOCKS);
    // The feed is in board mm/min; the carriage covers `scale` physical mm per board mm.
    const d = { x: target.xMm - this.gcPos.xMm, y: target.yMm - this.gcPos.yMm };
    const boardLen = Math.hypot(d.x, d.y);
    const trueLen = Math.hypot(d.x * this.scale.x, d.y * this.scale.y);
    const feed = boardLen > 0 ? (this.feed * trueLen) / boardLen : this.feed;
    const rate = this.motionMode === 0 ? Number.POSITIVE_INFINITY : feed;
    this.planner.add(this.toTrue(target), rate);
    this.gcPos = target;
    return "ok";
  }

  protected wco(): BedPoint {
    return { xMm: this.g54.xMm + this.g92.xMm, yMm: this.g54.yMm + this.g92.yMm };
  }

  protected machinePos(at = this.now()): BedPoint {
    const p = this.options.gantry.positionAt(at);
    return { xMm: (p.xMm - this.k.xMm) / this.scale.x, yMm: (p.yMm - this.k.yMm) / this.scale.y };
  }

  protected toTrue(m: BedPoint): BedPoint {
    return { xMm: this.k.xMm + m.xMm * this.scale.x, yMm: this.k.yMm + m.yMm * this.scale.y };
  }

  /**
   * PWM duty for S (spindle_control.c spindle_compute_pwm_value: S clamped to $31…$30). Laser mode
   * ($32=1) drives 0 unless the motion mode is G1/G2/G3 (gcode.c sets GC_PARSER_LASER_DISABLE), so a
   * tap (M3 after a G0 travel, then a dwell) never energises the solenoid.
   */
  protected duty(s: number): number {
    const max = this.settings.get(30) ?? 1000;
    const min = this.settings.get(31) ?? 0;
    if (s <= 0 || max <= 0) return 0;
    if (this.settings.get(32) === 1 && this.motionMode !== 1) return 0;
    return Math.min(Math.max(s, min), max) / max;
  }
}
