import type { BedPoint } from "../../rig/motion.js";
import { trapezoid } from "../../rig/speed-law.js";
import { eepromCommand } from "./grbl-eeprom.js";
import { FLUIDNC_SIM_BANNER, FLUIDNC_SIM_CHATTER, fluidncCommand } from "./grbl-fluidnc.js";
import { LINE_MAX, parseGcode } from "./grbl-gcode.js";
import { GrblMachine, type Reply } from "./grbl-machine.js";
import { PLANNER_BLOCKS, SimPlanner } from "./grbl-planner.js";

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
/**
 * After ALARM:1/2 GRBL clears any pending reset on entering its critical-event loop (protocol.c
 * protocol_exec_rt_system: `system_clear_exec_state_flag(EXEC_RESET)`), and for a soft limit it first
 * decelerates to a stop; a reset sent in that window is lost. Observed on real 1.1h (issue 14): ~500 ms.
 */
export const CRITICAL_RESET_DEAF_MS = 500;

/** Thrown into waiting line executions when a reset or critical alarm voids them. */
class Aborted extends Error {}

/**
 * A GRBL 1.1h protocol simulator driving a SimGantry: real-time bytes (`?` `!` `~` 0x18) act at once;
 * lines are processed as they arrive from a 128-byte RX buffer; motion lines are acknowledged when they
 * enter the 15-block planner; M3/M5/G4/$H wait for queued motion (barriers). The machine half (parser
 * state, G-code execution, homing, board-mm scaling) is `GrblMachine` in grbl-machine.ts. Homing (toward the bed origin with `$23=3`) sets machine space negative,
 * −`$130`…0, as GRBL does without HOMING_FORCE_SET_ORIGIN (limits.c limits_go_home). See README.md.
 */
export class GrblSim extends GrblMachine {
  private rx = "";
  private unacked = 0;
  private busy = false;
  private epoch = 0;
  private timer: NodeJS.Timeout | null = null;
  private critical = false;
  private criticalAtMs = 0;
  /** When each complete line waiting in `rx` arrived (gantry time): see `GrblMachine.lineAt`. */
  private lineStamps: number[] = [];
  readonly stats: GrblSimStats = { lines: [], replies: 0, maxUnackedBytes: 0, rxOverflows: 0 };
  /**
   * How long a soft reset takes before the banner (0: at once). Real GRBL empties its receive buffer as
   * the reset completes, just before the banner (main.c: `serial_reset_read_buffer()`, then
   * protocol_main_loop's `report_init_message()`), so line bytes arriving meanwhile are lost.
   */
  rebootMs = 0;
  private reboot: NodeJS.Timeout | null = null;

  /** Power on: settings from EEPROM, MPos 0,0 wherever the carriage is, banner, startup blocks. */
  start(): void {
    const { gantry } = this.options;
    this.applySettings();
    this.planner = new SimPlanner(gantry, this.limits);
    this.k = gantry.positionAt();
    // While a line is executing, the next solenoid change comes no earlier than that line's start or
    // the end of the last synchronised command (the dwell it may be waiting out): final until then.
    gantry.setHorizonSource((now) => (this.busy ? Math.max(this.lineAt, this.syncedAt) : now));
    this.gcPos = { xMm: 0, yMm: 0 };
    // With homing enabled GRBL powers up locked until $H (or $X) — HOMING_INIT_LOCK.
    this.alarmLock = this.settings.get(22) === 1;
    this.timer = setInterval(() => this.tick(), TICK_MS);
    this.banner();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    if (this.reboot) clearTimeout(this.reboot);
    this.reboot = null;
    this.options.gantry.setHorizonSource(null);
    this.abortWaiting();
  }

  /** Bytes from the host. */
  receive(chunk: Buffer | string): void {
    const bytes = typeof chunk === "string" ? Buffer.from(chunk, "latin1") : chunk;
    for (const b of bytes) {
      if (b === 0x18) this.softReset();
      else if (this.critical || this.reboot)
        // The critical-event loop watches for a reset only: no `?`, no lines (protocol.c); a board
        // still resetting loses what arrives (see `rebootMs`).
        continue;
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
    if (this.eeprom.build.fluidnc) {
      this.send(FLUIDNC_SIM_BANNER);
      this.send(FLUIDNC_SIM_CHATTER);
    } else this.send(GRBL_SIM_BANNER);
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
    const fluidnc = this.eeprom.build.fluidnc ? fluidncCommand(cmd, this.eeprom) : null;
    const info = fluidnc ?? eepromCommand(cmd, this.eeprom, this.planner.busy(this.now()));
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

  private resume(): void {
    if (this.critical || this.alarmLock) return;
    this.planner.resume();
  }

  /**
   * Raise `ALARM:code`. Limits (1, 2) are critical: motion stops, the stylus lifts and GRBL answers
   * nothing but `?` until a soft reset. Others leave an alarm lock that `$X`/`$H` clear.
   */
  protected alarm(code: number): void {
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
    if (this.rebootMs <= 0) {
      this.banner(true);
      return;
    }
    if (this.reboot) clearTimeout(this.reboot);
    this.reboot = setTimeout(() => {
      this.reboot = null;
      this.rx = "";
      this.lineStamps = [];
      this.banner(true);
    }, this.rebootMs);
  }

  /**
   * The board resets by itself — its reset button, a USB brown-out, the bootloader's DTR reset — with
   * no 0x18 from the host. Unlike a soft reset the MCU restarts (main.c): the steppers stop dead where
   * they are (steps in flight are lost), MPos restarts at 0,0 wherever the carriage is, and no stray
   * `ok` precedes the banner; the startup blocks run (or the homing lock holds) as at power-on.
   */
  pressReset(): void {
    const now = this.now();
    this.planner.halt();
    this.options.gantry.setStylus(false, now);
    this.clearState(now);
    this.k = this.options.gantry.positionAt(now);
    this.gcPos = { xMm: 0, yMm: 0 };
    this.alarmLock = this.settings.get(22) === 1;
    this.banner();
  }

  /**
   * The operator pushes the carriage to `to` (bed mm) with the motors off, at hand speed. GRBL counts
   * steps, it has no encoder: its MPos does not change. Returns when the push will end (gantry ms).
   */
  moveByHand(to: BedPoint): number {
    const from = this.options.gantry.positionAt();
    const end = this.options.gantry.move(to, (d) => trapezoid(d, 50, 500));
    const there = this.options.gantry.positionAt(end);
    this.k = { xMm: this.k.xMm + there.xMm - from.xMm, yMm: this.k.yMm + there.yMm - from.yMm };
    return end;
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
