/**
 * Splitting an MJPEG byte stream (`rpicam-vid --codec mjpeg -o -`: JPEG files back to back, no container)
 * into whole JPEG frames.
 *
 * The splitter walks the JPEG marker structure instead of searching for the first FFD9 after an FFD8:
 * length-prefixed segments are skipped whole (an EXIF thumbnail carries its own FFD8…FFD9 inside APP1),
 * and in entropy-coded data only a real marker counts (0xFF00 is a stuffed byte, FFD0–FFD7 are restart
 * markers). It resynchronises on anything that is not a JPEG: bytes between frames are dropped as they
 * arrive, a frame cut short by a new SOI is abandoned, and a frame whose structure breaks is rescanned
 * from just after its SOI, so a real frame hidden behind a broken one is still found. Chunk boundaries
 * may fall anywhere, including between the two bytes of a marker. Memory is bounded: at most one
 * partial frame (≤ `maxFrameBytes`) is held.
 */

/** One complete JPEG from the stream, with the size its SOF header declares (0 × 0 if it has none). */
export interface SplitFrame {
  jpeg: Buffer;
  width: number;
  height: number;
}

/** What the splitter threw away (for diagnostics; a healthy stream keeps these at zero). */
export interface SplitterStats {
  /** Bytes outside any frame, and bytes of abandoned frames. */
  discardedBytes: number;
  /** Frames begun but never finished: cut short by a new SOI, broken, or larger than the limit. */
  abandonedFrames: number;
}

const SOI = 0xd8;
const EOI = 0xd9;
const SOS = 0xda;

type State = "seek" | "header" | "scan";

/** Start-of-frame markers carry the image size: C0–CF except DHT (C4), JPG (C8) and DAC (CC). */
const isSof = (m: number): boolean => m >= 0xc0 && m <= 0xcf && m !== 0xc4 && m !== 0xc8 && m !== 0xcc;
/** Markers without a length field. */
const isStandalone = (m: number): boolean => m === 0x01 || (m >= 0xd0 && m <= 0xd7);

export class MjpegSplitter {
  private buf: Buffer;
  private len = 0;
  /** Parse position in `buf`; while inside a frame, the frame starts at index 0. */
  private pos = 0;
  private state: State = "seek";
  private sawScan = false;
  private width = 0;
  private height = 0;
  readonly stats: SplitterStats = { discardedBytes: 0, abandonedFrames: 0 };

  constructor(
    private readonly onFrame: (frame: SplitFrame) => void,
    private readonly maxFrameBytes = 32 * 1024 * 1024,
  ) {
    this.buf = Buffer.allocUnsafe(Math.min(64 * 1024, Math.max(1024, maxFrameBytes)));
  }

  /** Feed the next chunk of the stream; complete frames are delivered synchronously through `onFrame`. */
  push(chunk: Buffer): void {
    let offset = 0;
    while (offset < chunk.length) {
      // Never hold more than one frame's worth: feed at most up to the limit, parse, then continue.
      const room = Math.max(1, this.maxFrameBytes + 2 - this.len);
      const part = chunk.subarray(offset, offset + room);
      offset += part.length;
      this.append(part);
      this.parse();
      if (this.state !== "seek" && this.len > this.maxFrameBytes) this.abandon(this.len);
    }
  }

  /** Bytes currently held (a partial frame, or one trailing 0xFF while seeking). */
  get bufferedBytes(): number {
    return this.len;
  }

  private append(data: Buffer): void {
    if (this.len + data.length > this.buf.length) {
      let size = this.buf.length * 2;
      while (size < this.len + data.length) size *= 2;
      const next = Buffer.allocUnsafe(size);
      this.buf.copy(next, 0, 0, this.len);
      this.buf = next;
    }
    data.copy(this.buf, this.len);
    this.len += data.length;
  }

  /** Drop the first `n` held bytes (moving the rest to the front). */
  private consume(n: number): void {
    this.buf.copyWithin(0, n, this.len);
    this.len -= n;
    this.pos = Math.max(0, this.pos - n);
  }

  /** Give up on the current frame: discard `upTo` bytes of it, or rescan from just after its SOI. */
  private abandon(upTo?: number): void {
    this.stats.abandonedFrames++;
    this.state = "seek";
    this.pos = 2;
    if (upTo !== undefined) {
      this.stats.discardedBytes += upTo;
      this.consume(upTo);
      this.pos = 0;
    }
  }

  private beginFrame(at: number): void {
    this.stats.discardedBytes += at;
    this.consume(at);
    this.pos = 2;
    this.state = "header";
    this.sawScan = false;
    this.width = 0;
    this.height = 0;
  }

  private parse(): void {
    for (;;) {
      if (this.state === "seek") {
        if (!this.seek()) return;
      } else if (this.state === "header") {
        if (!this.header()) return;
      } else if (!this.scan()) return;
    }
  }

  /** Find the next SOI; false when more data is needed. */
  private seek(): boolean {
    const buf = this.buf.subarray(0, this.len);
    let i = this.pos;
    while (i + 1 < this.len) {
      const ff = buf.indexOf(0xff, i);
      if (ff < 0 || ff >= this.len) break;
      if (ff + 1 >= this.len) {
        i = ff;
        break;
      }
      if (buf[ff + 1] === SOI) {
        this.beginFrame(ff);
        return true;
      }
      i = ff + 1;
    }
    // Keep only a trailing 0xFF that may be the first half of an SOI.
    const keep = this.len > 0 && buf[this.len - 1] === 0xff ? 1 : 0;
    this.stats.discardedBytes += this.len - keep;
    this.consume(this.len - keep);
    this.pos = 0;
    return false;
  }

  /** Walk marker segments up to and including SOS; false when more data is needed. */
  private header(): boolean {
    const { buf } = this;
    for (;;) {
      if (this.pos + 1 >= this.len) return false;
      if (buf[this.pos] !== 0xff) {
        this.abandon();
        return true;
      }
      const m = buf[this.pos + 1] ?? 0;
      if (m === 0xff) {
        this.pos++; // fill byte
        continue;
      }
      if (m === SOI) {
        this.stats.abandonedFrames++;
        this.beginFrame(this.pos);
        return true;
      }
      if (m === EOI) return this.finish(this.pos + 2);
      if (isStandalone(m)) {
        this.pos += 2;
        continue;
      }
      if (m === 0x00) {
        this.abandon();
        return true;
      }
      if (this.pos + 4 > this.len) return false;
      const segLen = buf.readUInt16BE(this.pos + 2);
      if (segLen < 2) {
        this.abandon();
        return true;
      }
      if (isSof(m)) {
        if (this.pos + 9 > this.len) return false;
        this.height = buf.readUInt16BE(this.pos + 5);
        this.width = buf.readUInt16BE(this.pos + 7);
      }
      const next = this.pos + 2 + segLen;
      if (next > this.len) return false;
      this.pos = next;
      if (m === SOS) {
        this.sawScan = true;
        this.state = "scan";
        return true;
      }
    }
  }

  /** Skip entropy-coded data to the next real marker; false when more data is needed. */
  private scan(): boolean {
    const buf = this.buf.subarray(0, this.len);
    for (;;) {
      const ff = buf.indexOf(0xff, this.pos);
      if (ff < 0 || ff >= this.len) {
        this.pos = this.len;
        return false;
      }
      if (ff + 1 >= this.len) {
        this.pos = ff;
        return false;
      }
      const m = buf[ff + 1] ?? 0;
      if (m === 0x00 || (m >= 0xd0 && m <= 0xd7)) {
        this.pos = ff + 2;
      } else if (m === 0xff) {
        this.pos = ff + 1;
      } else if (m === EOI) {
        return this.finish(ff + 2);
      } else if (m === SOI) {
        // The previous frame was cut short (e.g. the camera restarted mid-frame).
        this.stats.abandonedFrames++;
        this.beginFrame(ff);
        return true;
      } else {
        // Another segment between scans (progressive JPEG: DHT, SOS, …).
        this.pos = ff;
        this.state = "header";
        return true;
      }
    }
  }

  private finish(end: number): boolean {
    if (!this.sawScan) {
      // FFD8 … FFD9 without image data is not a picture (random bytes can look like that).
      this.abandon();
      return true;
    }
    const jpeg = Buffer.allocUnsafe(end);
    this.buf.copy(jpeg, 0, 0, end);
    this.consume(end);
    this.pos = 0;
    this.state = "seek";
    this.onFrame({ jpeg, width: this.width, height: this.height });
    return true;
  }
}

/** The size a JPEG's SOF header declares, or null if none is found before the first scan. */
export function jpegSize(jpeg: Buffer): { width: number; height: number } | null {
  if (jpeg[0] !== 0xff || jpeg[1] !== SOI) return null;
  let pos = 2;
  while (pos + 4 <= jpeg.length) {
    if (jpeg[pos] !== 0xff) return null;
    const m = jpeg[pos + 1] ?? 0;
    if (m === 0xff) {
      pos++;
      continue;
    }
    if (isStandalone(m)) {
      pos += 2;
      continue;
    }
    if (m === SOS || m === EOI) return null;
    const segLen = jpeg.readUInt16BE(pos + 2);
    if (isSof(m) && pos + 9 <= jpeg.length)
      return { height: jpeg.readUInt16BE(pos + 5), width: jpeg.readUInt16BE(pos + 7) };
    pos += 2 + segLen;
  }
  return null;
}

/**
 * The JPEG inside a whole-file output (rpicam-still `-o -`): from the first SOI to the last EOI, which
 * skips stray text before or after it and keeps an EXIF thumbnail's own markers inside. Null if absent.
 */
export function extractJpeg(output: Buffer): Buffer | null {
  const start = output.indexOf(Buffer.from([0xff, SOI]));
  const end = output.lastIndexOf(Buffer.from([0xff, EOI]));
  if (start < 0 || end < start + 2) return null;
  return output.subarray(start, end + 2);
}
