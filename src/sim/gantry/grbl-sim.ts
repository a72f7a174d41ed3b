import type { Logger } from "../../log/logger.js";
import type { BedPoint } from "../../rig/motion.js";
import type { RigProfile } from "../../rig/profile.js";
import { type GcodeBlock, LINE_MAX, parseGcode, settingsCommand, settingsFromProfile } from "./grbl-gcode.js";
import { PLANNER_BLOCKS, SimPlanner } from "./grbl-planner.js";
import type { SimGantry } from "./model.js";

/** Options of the GRBL simulator. */
export interface GrblSimOptions {
  gantry: SimGantry;
  profile: RigProfile;
  log: Logger;
  /** Sends bytes to the host (the pseudo-terminal). */
  write: (text: string) => void;
}

/** What the simulator saw on the wire: lets tests check the host's flow control. */
export interface GrblSimStats {
  /** Every complete line received, in order. */
  lines: string[];
  /** `ok` / `error:N` replies sent. */
  replies: number;
  /** Most bytes ever received but not yet answered (a correct host keeps this ≤ 127). */
  maxUnackedBytes: number;
  /** Bytes dropped because the 128-byte RX buffer was full. */
  rxOverflows: number;
}

export const GRBL_SIM_BANNER = "Grbl 1.1h ['$' for help]";
/** GRBL's RX ring buffer holds 127 bytes. */
const RX_BUFFER = 127;
const TICK_MS = 2;

/** Thrown into waiting line executions when a reset or critical alarm voids them. */
class Aborted extends Error {}

interface Waiter {
  cond: () => boolean;
  resolve: () => void;
  reject: (err: Error) => void;
}

type Reply = "ok" | number | null;

/**
 * A GRBL 1.1h protocol simulator driving a SimGantry: real-time bytes (`?` `!` `~` 0x18) act at once;
 * lines are processed as they arrive from a 128-byte RX buffer; motion lines are acknowledged when they
 * enter the 16-block planner; M3/M5/G4/$H wait for queued motion (barriers). Machine coordinates are
 * GRBL's own idea: at power-on MPos is 0,0 wherever the carriage truly is (offset `k`); homing makes the
 * switch position (bed 0,0) machine 0,0, like FluidNC's `mpos_mm: 0`, so soft limits are 0…$130/$131.
 */
export class GrblSim {
  private settings = new Map<number, number>();
  private planner!: SimPlanner;
  private rx = "";
  private unacked = 0;
  private busy = false;
  private epoch = 0;
  private waiters: Waiter[] = [];
  private timer: NodeJS.Timeout | null = null;
  /** True position = machine position + k. */
  private k: BedPoint = { xMm: 0, yMm: 0 };
  /** Where GRBL's parser thinks the last planned move ends (machine mm). */
  private gcPos: BedPoint = { xMm: 0, yMm: 0 };
  private g54: BedPoint = { xMm: 0, yMm: 0 };
  private g92: BedPoint = { xMm: 0, yMm: 0 };
  private motionMode: 0 | 1 = 0;
  private relative = false;
  private inches = false;
  private feed = 0;
  private spindleS = 0;
  private spindleOn = false;
  private alarmLock = false;
  private critical = false;
  private homing = false;
  private reports = 0;
  private lastWco = "";
  /**
   * When each complete line waiting in `rx` arrived, and when the last synchronised command (spindle
   * change, dwell) ended, in gantry time. A real board runs a line the moment the previous one is done,
   * even if this process was busy then: so M5 after `G4 P0.08` lifts exactly 80 ms after the dwell
   * began, not whenever the event loop got round to it (a stall must not turn a tap into a long press).
   */
  private lineStamps: number[] = [];
  private syncedAt = Number.NEGATIVE_INFINITY;
  private lineAt = 0;
  readonly stats: GrblSimStats = { lines: [], replies: 0, maxUnackedBytes: 0, rxOverflows: 0 };

  constructor(private readonly options: GrblSimOptions) {}

  /** Power on: settings from the profile, MPos 0,0 wherever the carriage is, banner. */
  start(): void {
    const { gantry, profile } = this.options;
    this.settings = settingsFromProfile(profile);
    this.planner = new SimPlanner(gantry, {
      maxRateMmPerMin: profile.maxRateMmPerMin,
      accelMmPerS2: profile.accelMmPerS2,
      travelMm: profile.travelMm,
      releaseDelayMs: profile.stylus.releaseDelayMs,
    });
    this.k = gantry.positionAt();
    this.gcPos = { xMm: 0, yMm: 0 };
    // With homing enabled GRBL powers up locked until $H (or $X) — HOMING_INIT_LOCK.
    this.alarmLock = this.settings.get(22) === 1;
    this.timer = setInterval(() => this.tick(), TICK_MS);
    this.banner();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.abortWaiting();
  }

  /** Bytes from the host. */
  receive(chunk: Buffer | string): void {
    const bytes = typeof chunk === "string" ? Buffer.from(chunk, "latin1") : chunk;
    for (const b of bytes) {
      if (b === 0x18) this.softReset();
      else if (b === 0x3f) this.statusReport();
      else if (b === 0x21) this.planner.hold(this.now());
      else if (b === 0x7e) this.resume();
      else if (b >= 0x80)
        continue; // overrides and other extended real-time commands: not simulated
      else {
        // Count every byte the host sent, dropped or not: the host believes all of it is in the buffer.
        this.unacked++;
        this.stats.maxUnackedBytes = Math.max(this.stats.maxUnackedBytes, this.unacked);
        if (this.rx.length >= RX_BUFFER) this.stats.rxOverflows++;
        else {
          this.rx += String.fromCharCode(b);
          if (b === 0x0a || b === 0x0d) this.lineStamps.push(this.now());
        }
      }
    }
    void this.pump();
  }

  private now(): number {
    return this.options.gantry.now();
  }

  private send(line: string): void {
    this.options.write(`${line}\r\n`);
  }

  private banner(): void {
    this.send(GRBL_SIM_BANNER);
    if (this.alarmLock) this.send("[MSG:'$H'|'$X' to unlock]");
  }

  private tick(): void {
    const now = this.now();
    const done = this.planner.prune(now);
    if (!this.critical && done.some((b) => b.hitsFrame)) this.alarm(1);
    for (const w of [...this.waiters]) {
      if (w.cond()) {
        this.waiters.splice(this.waiters.indexOf(w), 1);
        w.resolve();
      }
    }
  }

  private until(cond: () => boolean): Promise<void> {
    if (cond()) return Promise.resolve();
    return new Promise((resolve, reject) => this.waiters.push({ cond, resolve, reject }));
  }

  private abortWaiting(): void {
    this.epoch++;
    this.busy = false;
    for (const w of this.waiters.splice(0)) w.reject(new Aborted());
  }

  private async pump(): Promise<void> {
    if (this.busy) return;
    this.busy = true;
    const epoch = this.epoch;
    try {
      while (epoch === this.epoch && !this.critical) {
        const nl = this.rx.search(/[\r\n]/);
        if (nl < 0) break;
        const line = this.rx.slice(0, nl);
        this.rx = this.rx.slice(nl + 1);
        this.lineAt = Math.max(this.lineStamps.shift() ?? this.now(), this.syncedAt);
        this.stats.lines.push(line);
        const reply = await this.execute(line);
        if (epoch !== this.epoch) return;
        this.unacked -= line.length + 1;
        if (reply === null) continue; // a critical alarm: GRBL answers nothing until reset
        this.stats.replies++;
        this.send(reply === "ok" ? "ok" : `error:${reply}`);
      }
    } catch (err) {
      if (!(err instanceof Aborted)) this.options.log.error("grbl sim failed", { err });
    } finally {
      if (epoch === this.epoch) this.busy = false;
    }
  }

  private execute(raw: string): Promise<Reply> | Reply {
    const line = raw.trim();
    if (line.length > LINE_MAX) return 11;
    if (line === "") return "ok";
    if (line.startsWith("$")) return this.system(line);
    if (this.alarmLock) return 9;
    const parsed = parseGcode(line);
    return parsed.ok ? this.gcode(parsed.block) : parsed.error;
  }

  private async system(line: string): Promise<Reply> {
    const cmd = line.toUpperCase();
    const info = settingsCommand(cmd, this.settings, this.planner.busy(this.now()));
    if (info) {
      for (const l of info.lines) this.send(l);
      return info.reply;
    }
    if (cmd === "$G") {
      const m = `G${this.motionMode} G54 G17 ${this.inches ? "G20" : "G21"} ${this.relative ? "G91" : "G90"} G94`;
      this.send(`[GC:${m} ${this.spindleOn ? "M3" : "M5"} M9 T0 F${this.feed} S${this.spindleS}]`);
      return "ok";
    }
    if (cmd === "$X") {
      if (this.alarmLock) this.send("[MSG:Caution: Unlocked]");
      this.alarmLock = false;
      return "ok";
    }
    if (cmd === "$H") return this.home();
    return 3;
  }

  /** $H: seek the origin-side switches, check they closed, pull off; the switch spot becomes machine 0,0. */
  private async home(): Promise<Reply> {
    if (this.settings.get(22) !== 1) return 5;
    if (this.planner.busy(this.now())) return 8;
    this.homing = true;
    this.planner.add({ xMm: 0, yMm: 0 }, this.settings.get(25) ?? 500);
    await this.motionDone();
    const switches = this.options.gantry.endstops();
    if (!switches.x || !switches.y) {
      this.homing = false;
      this.alarm(9);
      return null;
    }
    const pull = this.settings.get(27) ?? 1;
    this.planner.add({ xMm: pull, yMm: pull }, this.settings.get(25) ?? 500);
    await this.motionDone();
    this.homing = false;
    this.k = { xMm: 0, yMm: 0 };
    this.gcPos = this.machinePos();
    this.alarmLock = false;
    return "ok";
  }

  /** Resolves once every planned block has run and the machine is not held. */
  private motionDone(): Promise<void> {
    return this.until(() => !this.planner.busy(this.now()) && !this.planner.isHolding);
  }

  private async gcode(b: GcodeBlock): Promise<Reply> {
    const w = b.words;
    if (b.units) this.inches = b.units === "inch";
    const scale = this.inches ? 25.4 : 1;
    if (w.F !== undefined) this.feed = w.F * scale;
    if (w.S !== undefined) this.spindleS = w.S;
    // GRBL's order of execution: feed, spindle (synchronised), dwell, modes, offsets, motion.
    if (b.spindle !== undefined || (w.S !== undefined && this.spindleOn)) {
      const arrived = this.lineAt;
      await this.motionDone();
      const at = Math.max(arrived, this.options.gantry.motionEndMs());
      this.syncedAt = at;
      this.spindleOn = b.spindle !== undefined ? b.spindle === "cw" : this.spindleOn;
      this.options.gantry.setStylus(this.spindleOn && this.spindleS > 0, at);
    }
    if (b.nonModal === "G4") {
      if (w.P === undefined) return 28;
      const arrived = this.lineAt;
      await this.motionDone();
      const end = Math.max(arrived, this.options.gantry.motionEndMs()) + w.P * 1000;
      this.syncedAt = end;
      await this.until(() => this.now() >= end);
    }
    if (b.distance) this.relative = b.distance === "relative";
    if (b.motion !== undefined) this.motionMode = b.motion;
    const axes = w.X !== undefined || w.Y !== undefined;
    if (b.nonModal === "G10") return this.setG54(b, scale);
    if (b.nonModal === "G92") {
      if (!axes) return 26;
      if (w.X !== undefined) this.g92.xMm = this.gcPos.xMm - this.g54.xMm - w.X * scale;
      if (w.Y !== undefined) this.g92.yMm = this.gcPos.yMm - this.g54.yMm - w.Y * scale;
      return "ok";
    }
    if (b.nonModal === "G92.1") {
      this.g92 = { xMm: 0, yMm: 0 };
      return "ok";
    }
    if (b.programEnd) this.relative = false;
    if (!axes) return "ok";
    if (this.motionMode === 1 && this.feed <= 0) return 22;
    return this.motion(b, scale);
  }

  private setG54(b: GcodeBlock, scale: number): Reply {
    const { L, P = 1, X, Y } = b.words;
    if (L !== 2 && L !== 20) return 28;
    if (P !== 0 && P !== 1) return 29;
    if (X !== undefined) this.g54.xMm = L === 2 ? X * scale : this.gcPos.xMm - this.g92.xMm - X * scale;
    if (Y !== undefined) this.g54.yMm = L === 2 ? Y * scale : this.gcPos.yMm - this.g92.yMm - Y * scale;
    return "ok";
  }

  private async motion(b: GcodeBlock, scale: number): Promise<Reply> {
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
      const max = { xMm: this.settings.get(130) ?? 0, yMm: this.settings.get(131) ?? 0 };
      if (target.xMm < 0 || target.yMm < 0 || target.xMm > max.xMm || target.yMm > max.yMm) {
        this.alarm(2);
        return null;
      }
    }
    await this.until(() => this.planner.occupancy(this.now()) < PLANNER_BLOCKS);
    const rate = this.motionMode === 0 ? Number.POSITIVE_INFINITY : this.feed;
    this.planner.add({ xMm: target.xMm + this.k.xMm, yMm: target.yMm + this.k.yMm }, rate);
    this.gcPos = target;
    return "ok";
  }

  private wco(): BedPoint {
    return { xMm: this.g54.xMm + this.g92.xMm, yMm: this.g54.yMm + this.g92.yMm };
  }

  private machinePos(at = this.now()): BedPoint {
    const p = this.options.gantry.positionAt(at);
    return { xMm: p.xMm - this.k.xMm, yMm: p.yMm - this.k.yMm };
  }

  private resume(): void {
    if (this.critical || this.alarmLock) return;
    this.planner.resume();
  }

  /**
   * Raise `ALARM:code`. Limits (1, 2) are critical: motion stops, the stylus lifts and GRBL answers
   * nothing but `?` until a soft reset. Others leave an alarm lock that `$X`/`$H` clear.
   */
  private alarm(code: number): void {
    const now = this.now();
    if (code === 1) this.planner.halt();
    else {
      // Soft limit: GRBL feed-holds what was queued (position retained), then resets.
      this.planner.hold(now);
      this.planner.discard();
    }
    this.options.gantry.setStylus(false, now);
    this.spindleOn = false;
    this.send(`ALARM:${code}`);
    this.options.log.debug("grbl sim alarm", { code });
    // Every alarm leaves GRBL locked after the reset that ends it: `$X` or `$H` to move again.
    this.alarmLock = true;
    if (code === 1 || code === 2) {
      this.critical = true;
      this.abortWaiting();
      this.send("[MSG:Reset to continue]");
    } else {
      // Other alarms (homing failures) make GRBL reset itself: buffers flushed, banner, locked.
      this.clearState(now);
      this.banner();
    }
  }

  /** 0x18: stop everything, lift the stylus, flush buffers, reset modal state, banner. */
  private softReset(): void {
    const now = this.now();
    const moving = this.planner.busy(now);
    const code = this.homing ? 6 : moving ? 3 : 0;
    if (moving) this.planner.halt();
    this.options.gantry.setStylus(false, now);
    this.clearState(now);
    if (code) {
      this.send(`ALARM:${code}`);
      this.alarmLock = true;
    }
    this.banner();
  }

  /** What any GRBL reset clears: waiting lines, buffers, planner, spindle, modal state, G92. */
  private clearState(now: number): void {
    this.abortWaiting();
    this.planner.discard(this.options.gantry.positionAt(Math.max(now, this.options.gantry.motionEndMs())));
    this.spindleOn = false;
    this.spindleS = 0;
    this.rx = "";
    this.lineStamps = [];
    this.syncedAt = Number.NEGATIVE_INFINITY;
    this.unacked = 0;
    this.motionMode = 0;
    this.relative = false;
    this.inches = false;
    this.feed = 0;
    // G92 offsets live in the parser state, which a reset clears (G54 stays: it is stored in EEPROM).
    this.g92 = { xMm: 0, yMm: 0 };
    this.gcPos = this.machinePos(Math.max(now, this.options.gantry.motionEndMs()));
    this.homing = false;
    this.critical = false;
  }

  private statusReport(): void {
    const now = this.now();
    let state = "Idle";
    if (this.critical || this.alarmLock) state = "Alarm";
    else if (this.homing) state = "Home";
    else if (this.planner.isHolding) state = this.planner.holdComplete(now) ? "Hold:0" : "Hold:1";
    else if (this.planner.busy(now)) state = "Run";
    const m = this.machinePos(now);
    const s = this.spindleOn ? this.spindleS : 0;
    let report = `<${state}|MPos:${m.xMm.toFixed(3)},${m.yMm.toFixed(3)},0.000|FS:${this.planner.feedAt(now)},${s}`;
    const o = this.wco();
    const wco = `${o.xMm.toFixed(3)},${o.yMm.toFixed(3)},0.000`;
    // Like GRBL, WCO is sent only now and then (every 10th report) and whenever it changed.
    if (wco !== this.lastWco || this.reports % 10 === 0) report += `|WCO:${wco}`;
    if (this.spindleOn) report += "|A:S";
    this.lastWco = wco;
    this.reports++;
    this.send(`${report}>`);
  }
}
