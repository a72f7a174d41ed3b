import type { Logger } from "../../log/logger.js";
import type { BedPoint } from "../../rig/motion.js";
import type { RigProfile } from "../../rig/profile.js";
import { eepromCommand, GrblEeprom } from "./grbl-eeprom.js";
import { type GcodeBlock, LINE_MAX, parseGcode } from "./grbl-gcode.js";
import { PLANNER_BLOCKS, type PlannerLimits, SimPlanner } from "./grbl-planner.js";
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
/** config.h DWELL_TIME_STEP: G4 sleeps in 50 ms steps, `ceil(1000/50*seconds)` of them (nuts_bolts.c delay_sec). */
export const DWELL_STEP_MS = 50;
/**
 * After ALARM:1/2 GRBL clears any pending reset on entering its critical-event loop (protocol.c
 * protocol_exec_rt_system: `system_clear_exec_state_flag(EXEC_RESET)`), and for a soft limit it first
 * decelerates to a stop; a reset sent in that window is lost. Observed on real 1.1h (issue 14): ~500 ms.
 */
export const CRITICAL_RESET_DEAF_MS = 500;

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
 * enter the 15-block planner; M3/M5/G4/$H wait for queued motion (barriers). Machine coordinates are
 * GRBL's own idea: at power-on MPos is 0,0 wherever the carriage truly is; the board moves `$100`
 * steps per mm it is told, so true mm = k + machine mm × `$100 / profile.stepsPerMm` (a factory board
 * moves a 35 mm tap 109 mm). Homing (toward the bed origin with `$23=3`) sets machine space negative,
 * −`$130`…0, as GRBL does without HOMING_FORCE_SET_ORIGIN (limits.c limits_go_home). See README.md.
 */
export class GrblSim {
  readonly eeprom: GrblEeprom;
  private readonly settings: Map<number, number>;
  private planner!: SimPlanner;
  private readonly limits: PlannerLimits;
  private readonly reporter = new StatusReporter();
  /** Physical mm per board mm on each axis ($100/$101 against the rig's real steps/mm). */
  private scale = { x: 1, y: 1 };
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
  private criticalAtMs = 0;
  private homing = false;
  /** Spindle PWM duty 0–1 as the board drives it (S clamped to $31…$30, over $30). */
  private pwm = 0;
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

  constructor(private readonly options: GrblSimOptions) {
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

  /** Power on: settings from EEPROM, MPos 0,0 wherever the carriage is, banner, startup blocks. */
  start(): void {
    const { gantry } = this.options;
    this.applySettings();
    this.planner = new SimPlanner(gantry, this.limits);
    this.k = gantry.positionAt();
    this.gcPos = { xMm: 0, yMm: 0 };
    // With homing enabled GRBL powers up locked until $H (or $X) — HOMING_INIT_LOCK.
    this.alarmLock = this.settings.get(22) === 1;
    this.timer = setInterval(() => this.tick(), TICK_MS);
    this.banner();
  }

  /** The spindle PWM duty (0–1) the board drives now: what `$30` makes of an S word. */
  get spindlePwm(): number {
    return this.pwm;
  }

  /** Board mm → physical mm, and the planner's limits in physical units, from the EEPROM settings. */
  private applySettings(): void {
    const { profile } = this.options;
    const get = (id: number) => this.settings.get(id) ?? 0;
    this.scale = { x: get(100) / profile.stepsPerMm.x, y: get(101) / profile.stepsPerMm.y };
    this.limits.maxRateMmPerMin = { x: get(110) * this.scale.x, y: get(111) * this.scale.y };
    this.limits.accelMmPerS2 = { x: get(120) * this.scale.x, y: get(121) * this.scale.y };
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
      else if (this.critical)
        continue; // the critical-event loop watches for a reset only: no `?`, no lines (protocol.c)
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

  /**
   * report.c report_init_message prints `\r\nGrbl 1.1h ['$' for help]\r\n` (a blank line first); then
   * protocol_main_loop either reports the alarm lock or runs the EEPROM startup blocks, each echoed as
   * `>line:ok` (report_execute_startup_message). `afterReset`: a soft reset also sends a stray `ok`
   * before the banner (seen on real 1.1h, issue 14) that a host must not credit to any line.
   */
  private banner(afterReset = false): void {
    if (afterReset) this.send("ok");
    this.send("");
    this.send(GRBL_SIM_BANNER);
    if (this.alarmLock) {
      this.send("[MSG:'$H'|'$X' to unlock]");
      return;
    }
    for (const line of this.eeprom.startup) {
      if (!line) continue;
      const reply = this.execute(line);
      const echo = (r: Reply) => this.send(`>${line}:${r === "ok" ? "ok" : `error:${r}`}`);
      if (reply instanceof Promise) void reply.then((r) => echo(r ?? "ok")).catch(() => undefined);
      else echo(reply ?? "ok");
    }
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
    const cmd = line.toUpperCase().replace(/\s+/g, "");
    const info = eepromCommand(cmd, this.eeprom, this.planner.busy(this.now()));
    if (info) {
      for (const l of info.lines) this.send(l);
      this.applySettings();
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

  /**
   * $H: seek the switches in the `$23` direction (bit set: toward negative, i.e. the bed origin where
   * this rig's switches are; clear: toward the far end, which has none → ALARM:9), pull off `$27`, then
   * set machine position −`$130`+`$27` (limits.c limits_go_home, without HOMING_FORCE_SET_ORIGIN), so
   * all of machine space is negative: −`$130`…0.
   */
  private async home(): Promise<Reply> {
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

  private setG54(b: GcodeBlock, scale: number): Reply {
    const { L, P = 1, X, Y } = b.words;
    if (L !== 2 && L !== 20) return 28;
    if (P !== 0 && P !== 1) return 29;
    if (X !== undefined) this.g54.xMm = L === 2 ? X * scale : this.gcPos.xMm - this.g92.xMm - X * scale;
    if (Y !== undefined) this.g54.yMm = L === 2 ? Y * scale : this.gcPos.yMm - this.g92.yMm - Y * scale;
    this.reporter.wcoChanged();
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

  private wco(): BedPoint {
    return { xMm: this.g54.xMm + this.g92.xMm, yMm: this.g54.yMm + this.g92.yMm };
  }

  private machinePos(at = this.now()): BedPoint {
    const p = this.options.gantry.positionAt(at);
    return { xMm: (p.xMm - this.k.xMm) / this.scale.x, yMm: (p.yMm - this.k.yMm) / this.scale.y };
  }

  private toTrue(m: BedPoint): BedPoint {
    return { xMm: this.k.xMm + m.xMm * this.scale.x, yMm: this.k.yMm + m.yMm * this.scale.y };
  }

  /**
   * PWM duty for S (spindle_control.c spindle_compute_pwm_value: S clamped to $31…$30). Laser mode
   * ($32=1) drives 0 unless the motion mode is G1/G2/G3 (gcode.c sets GC_PARSER_LASER_DISABLE), so a
   * tap (M3 after a G0 travel, then a dwell) never energises the solenoid.
   */
  private duty(s: number): number {
    const max = this.settings.get(30) ?? 1000;
    const min = this.settings.get(31) ?? 0;
    if (s <= 0 || max <= 0) return 0;
    if (this.settings.get(32) === 1 && this.motionMode !== 1) return 0;
    return Math.min(Math.max(s, min), max) / max;
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
    this.pwm = 0;
    this.send(`ALARM:${code}`);
    this.options.log.debug("grbl sim alarm", { code });
    // Every alarm leaves GRBL locked after the reset that ends it: `$X` or `$H` to move again.
    this.alarmLock = true;
    if (code === 1 || code === 2) {
      this.critical = true;
      this.criticalAtMs = now;
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
    if (this.critical && now - this.criticalAtMs < CRITICAL_RESET_DEAF_MS) return;
    const moving = this.planner.busy(now);
    const code = this.homing ? 6 : moving ? 3 : 0;
    if (moving) this.planner.halt();
    this.options.gantry.setStylus(false, now);
    this.clearState(now);
    if (code) {
      this.send(`ALARM:${code}`);
      this.alarmLock = true;
    }
    this.banner(true);
  }

  /** What any GRBL reset clears: waiting lines, buffers, planner, spindle, modal state, G92. */
  private clearState(now: number): void {
    this.abortWaiting();
    this.planner.discard(this.options.gantry.positionAt(Math.max(now, this.options.gantry.motionEndMs())));
    this.spindleOn = false;
    this.spindleS = 0;
    this.pwm = 0;
    this.reporter.reset();
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
    const ends = this.options.gantry.endstops(now);
    this.send(
      this.reporter.format({
        state,
        busy: state !== "Idle" && state !== "Alarm",
        mpos: this.machinePos(now),
        wco: this.wco(),
        feed: this.planner.feedAt(now) / this.scale.x,
        spindleS: this.spindleOn ? this.spindleS : 0,
        spindleOn: this.spindleOn,
        mask: this.settings.get(10) ?? 1,
        plannerFree: PLANNER_BLOCKS - this.planner.occupancy(now),
        rxFree: RX_BUFFER + 1 - this.rx.length,
        pins: `${ends.x ? "X" : ""}${ends.y ? "Y" : ""}`,
      }),
    );
  }
}
