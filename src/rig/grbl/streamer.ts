import { PiclawError } from "../../util/errors.js";
import { grblError } from "./codes.js";

/** GRBL's serial RX buffer is 128 bytes; one byte stays free, so at most 127 may be unacknowledged. */
export const GRBL_RX_BUFFER = 127;

/** A line handed to the streamer and settled by GRBL's reply to it. */
interface Entry {
  line: string;
  bytes: number;
  resolve: () => void;
  reject: (err: Error) => void;
}

/**
 * Character-counting streaming (the GRBL wiki's recommended method): keep sending while the sum of the
 * lengths (incl. `\n`) of lines GRBL has not acknowledged fits in its RX buffer; each `ok` / `error:N`
 * acknowledges the oldest sent line. This keeps GRBL's planner fed without ever overflowing its buffer.
 */
export class CharCountingStreamer {
  private readonly waiting: Entry[] = [];
  private readonly sent: Entry[] = [];
  private sentBytes = 0;
  /** The most unacknowledged bytes ever outstanding (tests check it never exceeds the buffer). */
  maxInFlight = 0;

  constructor(
    private readonly write: (data: string) => void,
    private readonly capacity = GRBL_RX_BUFFER,
  ) {}

  /** Queue a line; resolves on its `ok`, rejects with MOTION_GRBL_ERROR on its `error:N`. */
  send(line: string): Promise<void> {
    const bytes = Buffer.byteLength(line) + 1;
    if (bytes > this.capacity) {
      return Promise.reject(
        new PiclawError("MOTION_LINE_TOO_LONG", `G-code line longer than GRBL's buffer: ${line}`, { line }),
      );
    }
    return new Promise<void>((resolve, reject) => {
      this.waiting.push({ line, bytes, resolve, reject });
      this.pump();
    });
  }

  get inFlightBytes(): number {
    return this.sentBytes;
  }

  get idle(): boolean {
    return this.sent.length === 0 && this.waiting.length === 0;
  }

  /** GRBL said `ok`: the oldest sent line is done. Returns false for a stray `ok` (nothing in flight). */
  ok(): boolean {
    const entry = this.pop();
    entry?.resolve();
    return entry !== undefined;
  }

  /** GRBL said `error:N` about the oldest sent line. */
  error(code: number): boolean {
    const entry = this.pop();
    entry?.reject(grblError(code, entry.line));
    return entry !== undefined;
  }

  /** Forget lines not yet sent (they are rejected with `err`); lines in flight still get their replies. */
  dropWaiting(err: Error): void {
    for (const entry of this.waiting.splice(0)) entry.reject(err);
  }

  /** Everything is void (soft reset, alarm, lost port): reject all and reset the count to zero. */
  clear(err: Error): void {
    const all = [...this.sent.splice(0), ...this.waiting.splice(0)];
    this.sentBytes = 0;
    for (const entry of all) entry.reject(err);
  }

  private pop(): Entry | undefined {
    const entry = this.sent.shift();
    if (entry) this.sentBytes -= entry.bytes;
    this.pump();
    return entry;
  }

  private pump(): void {
    for (;;) {
      const next = this.waiting[0];
      if (!next || this.sentBytes + next.bytes > this.capacity) return;
      this.waiting.shift();
      this.sent.push(next);
      this.sentBytes += next.bytes;
      this.maxInFlight = Math.max(this.maxInFlight, this.sentBytes);
      this.write(`${next.line}\n`);
    }
  }
}
