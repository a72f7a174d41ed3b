import type { Logger } from "../../log/logger.js";
import { PiclawError } from "../../util/errors.js";
import type { SerialLink } from "./port.js";
import { type GrblLine, type GrblStatusReport, parseGrblLine } from "./protocol.js";
import { CharCountingStreamer } from "./streamer.js";

/** What a session reports to its owner (the back-end). */
export interface GrblSessionEvents {
  onAlarm(code: number): void;
  /**
   * The board printed its banner: it (re)started and forgot its buffers, offsets and modal state.
   * `solicited`: our own soft reset (0x18) asked for it; false: the board reset on its own (its reset
   * button, a USB brown-out, a watchdog) — or it is the power-on banner of a freshly opened port.
   */
  onBanner(line: Extract<GrblLine, { kind: "banner" }>, solicited: boolean): void;
  onStatus(report: GrblStatusReport): void;
  /** The port closed (unplugged, write failure, or our own close). Called once. */
  onClose(err?: Error): void;
}

interface LineWaiter {
  match: (line: GrblLine) => boolean;
  resolve: (line: GrblLine) => void;
  reject: (err: Error) => void;
  timer: NodeJS.Timeout;
}

export function disconnectedError(why = "the GRBL serial port is gone"): PiclawError {
  return new PiclawError("MOTION_DISCONNECTED", why);
}

/**
 * One open connection to a GRBL board: splits the byte stream into lines, routes `ok`/`error` to the
 * character-counting streamer, reports alarms, banners and status reports, and lets callers wait for a
 * particular line. A new session is made for every (re)connect, so nothing stale crosses a reconnect.
 */
export class GrblSession {
  readonly streamer: CharCountingStreamer;
  private buffer = "";
  private waiters: LineWaiter[] = [];
  private collectors: GrblLine[][] = [];
  private closed = false;
  /** A 0x18 was sent and its banner has not come: `ok`s now are GRBL's stray one, credited to nothing. */
  private resetting = false;
  /** A `$G` after a reset awaits its `[GC:…]` (see `softReset`). */
  private syncing = false;
  /** The `ok` that follows the reset sync's `[GC:…]`: credited to nothing. */
  private syncOkOwed = 0;

  constructor(
    private readonly link: SerialLink,
    private readonly events: GrblSessionEvents,
    private readonly log: Logger,
  ) {
    this.streamer = new CharCountingStreamer((data) => this.write(data));
  }

  /** Start listening on the link. */
  attach(): void {
    this.link.onData((chunk) => this.receive(chunk));
    this.link.onClose((err) => this.closedBy(err));
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /** Send a real-time command byte (`?`, `!`, `~`, 0x18): bypasses the RX buffer accounting. */
  realtime(byte: string): void {
    this.write(byte);
  }

  /**
   * Send a line through the streamer; resolves with the lines GRBL printed before its `ok`. Rejects with
   * MOTION_TIMEOUT when no reply comes within `timeoutMs` (a board in a critical alarm answers nothing):
   * then every line in flight is void too, since their replies can no longer be matched to them.
   */
  async command(line: string, timeoutMs: number): Promise<GrblLine[]> {
    const seen: GrblLine[] = [];
    this.collectors.push(seen);
    let timer: NodeJS.Timeout | undefined;
    try {
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => {
          const err = new PiclawError(
            "MOTION_TIMEOUT",
            `GRBL did not answer "${line}" within ${timeoutMs} ms`,
            {
              line,
              timeoutMs,
            },
          );
          this.streamer.clear(err);
          reject(err);
        }, timeoutMs);
      });
      await Promise.race([this.streamer.send(line), timeout]);
      return seen;
    } finally {
      clearTimeout(timer);
      this.collectors.splice(this.collectors.indexOf(seen), 1);
    }
  }

  /** Resolve with the next line matching `match`; reject on timeout or when the port closes. */
  waitFor(match: (line: GrblLine) => boolean, timeoutMs: number, what: string): Promise<GrblLine> {
    if (this.closed) return Promise.reject(disconnectedError());
    return new Promise<GrblLine>((resolve, reject) => {
      const waiter: LineWaiter = {
        match,
        resolve,
        reject,
        timer: setTimeout(() => {
          this.waiters.splice(this.waiters.indexOf(waiter), 1);
          reject(new PiclawError("MOTION_TIMEOUT", `GRBL did not send ${what} within ${timeoutMs} ms`));
        }, timeoutMs),
      };
      this.waiters.push(waiter);
    });
  }

  /**
   * Soft reset (0x18), wait for a banner, then for a `$G` answered in step (each within `timeoutMs`).
   * A banner alone does not prove the reset is over: the board's power-on banner may still be on its way
   * when we reset (a slow boot — an ESP32 running FluidNC, an Arduino bootloader after the DTR reset — or
   * a loaded host reading late), and the reset's own stray `ok` and banner follow it; crediting that `ok`
   * to the next command shifts every answer by one. GRBL answers lines in order, so once `$G`'s `[GC:…]`
   * arrives every line of the reset has. Until then `ok`s, errors and banners belong to the reset.
   */
  async softReset(timeoutMs: number): Promise<void> {
    const banner = this.waitFor((l) => l.kind === "banner", timeoutMs, "its banner after a reset");
    // Whatever was in flight is void; GRBL answers the reset with a stray `ok` that belongs to no line.
    this.streamer.clear(new PiclawError("MOTION_RESET", "the GRBL board was reset"));
    this.resetting = true;
    this.realtime("\x18");
    try {
      await banner;
      await this.syncAfterReset(timeoutMs);
    } finally {
      this.resetting = false;
      this.syncing = false;
    }
  }

  /**
   * Send `$G` until one is answered (twice at most): GRBL empties its receive buffer as the reset
   * completes (grbl/main.c: `serial_reset_read_buffer()` at the top of each boot), so a line sent on an
   * early banner may be lost. Its `ok` is swallowed by `dispatch` (`syncOkOwed`). Left open: a first `$G`
   * answered only after its wait ran out (a host stalled longer than `timeoutMs`) leaves its `ok` to be
   * credited to the next command; a lost one and a late one cannot be told apart.
   */
  private async syncAfterReset(timeoutMs: number): Promise<void> {
    this.syncing = true;
    for (let attempt = 1; ; attempt++) {
      const gc = this.waitFor((l) => l.kind === "gc", timeoutMs, "an answer to $G after a reset");
      this.write("$G\n"); // not through the streamer: it is empty, and this line's `ok` is owed to no one
      try {
        await gc;
        return;
      } catch (err) {
        if (attempt >= 2) throw err;
        this.log.debug("no answer to $G after a reset: asking again");
      }
    }
  }

  /** Ask for a status report (`?`) and wait for it. */
  async status(timeoutMs: number): Promise<GrblStatusReport> {
    const next = this.waitFor((l) => l.kind === "status", timeoutMs, "a status report");
    this.realtime("?");
    const line = await next;
    if (line.kind !== "status") throw new Error("unreachable");
    return line.report;
  }

  async close(): Promise<void> {
    await this.link.close();
    this.closedBy();
  }

  private write(data: string): void {
    if (this.closed) return;
    this.link.write(data, (err) => {
      if (err) this.closedBy(err);
    });
  }

  private receive(chunk: Buffer): void {
    this.buffer += chunk.toString("latin1");
    let nl = this.buffer.indexOf("\n");
    while (nl >= 0) {
      const raw = this.buffer.slice(0, nl).replace(/\r$/, "");
      this.buffer = this.buffer.slice(nl + 1);
      if (raw.trim()) this.dispatch(parseGrblLine(raw));
      nl = this.buffer.indexOf("\n");
    }
  }

  private dispatch(line: GrblLine): void {
    this.log.trace("grbl <", { line });
    switch (line.kind) {
      case "ok":
        if (this.syncOkOwed > 0) this.syncOkOwed--;
        else if (this.resetting || !this.streamer.ok()) this.log.debug("stray ok ignored");
        break;
      case "gc":
        // Decided here, not when the waiter's promise settles: its `ok` may be in the same chunk.
        if (this.syncing) {
          this.syncing = false;
          this.syncOkOwed = 1;
        }
        break;
      case "error":
        if (this.resetting || !this.streamer.error(line.code))
          this.log.debug("stray error ignored", { code: line.code });
        break;
      case "alarm":
        this.events.onAlarm(line.code);
        break;
      case "banner": {
        // Every banner before the reset's `$G` is answered is the reset's (or the late power-on one).
        this.events.onBanner(line, this.resetting);
        break;
      }
      case "status":
        this.events.onStatus(line.report);
        break;
      case "msg":
        this.log.debug("grbl message", { text: line.text });
        break;
      default:
        break;
    }
    for (const seen of this.collectors) seen.push(line);
    for (const w of [...this.waiters]) {
      if (!w.match(line)) continue;
      clearTimeout(w.timer);
      this.waiters.splice(this.waiters.indexOf(w), 1);
      w.resolve(line);
    }
  }

  private closedBy(err?: Error): void {
    if (this.closed) return;
    this.closed = true;
    const gone = disconnectedError(err ? `the GRBL serial port is gone: ${err.message}` : undefined);
    for (const w of this.waiters.splice(0)) {
      clearTimeout(w.timer);
      w.reject(gone);
    }
    this.streamer.clear(gone);
    this.events.onClose(err);
  }
}
