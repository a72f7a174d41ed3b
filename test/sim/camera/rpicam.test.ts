import { Writable } from "node:stream";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import type { CaptureSettings } from "../../../src/sim/camera/options.js";
import { DEFAULT_SIM_CAMERA_OPTIONS } from "../../../src/sim/camera/options.js";
import { parseRpicamArgs } from "../../../src/sim/camera/rpicam-args.js";
import { type FrameSource, type RpicamDeps, runRpicam } from "../../../src/sim/camera/rpicam-cli.js";
import { SimCamera } from "../../../src/sim/camera/sim-camera.js";
import { flatScreen } from "./helpers.js";

const POSE = { centerXMm: 150, centerYMm: 110, rotationDeg: 2.5, tiltXDeg: 0.4, tiltYDeg: -0.3 };

/** A Writable that keeps everything written to it. */
class Collect extends Writable {
  readonly chunks: Buffer[] = [];
  onChunk: ((total: number) => void) | null = null;
  override _write(chunk: Buffer, _enc: BufferEncoding, cb: (err?: Error | null) => void): void {
    this.chunks.push(chunk);
    this.onChunk?.(this.chunks.length);
    cb();
  }
  get buffer(): Buffer {
    return Buffer.concat(this.chunks);
  }
  get text(): string {
    return this.buffer.toString("utf8");
  }
}

/** Split an MJPEG byte stream into frames on SOI (FFD8) … EOI (FFD9). */
function splitJpegs(stream: Buffer): Buffer[] {
  const frames: Buffer[] = [];
  let i = 0;
  while (i < stream.length) {
    expect(stream[i]).toBe(0xff);
    expect(stream[i + 1]).toBe(0xd8);
    // Walk markers to the scan, then scan for EOI (stuffed 0xFF00 never matches FFD9).
    let end = stream.indexOf(Buffer.from([0xff, 0xd9]), i + 2);
    expect(end).toBeGreaterThan(i);
    end += 2;
    frames.push(stream.subarray(i, end));
    i = end;
  }
  return frames;
}

function deps(
  source: FrameSource,
  extra: Partial<RpicamDeps> = {},
): RpicamDeps & { out: Collect; err: Collect } {
  const out = new Collect();
  const err = new Collect();
  return {
    source,
    stdout: out,
    stderr: err,
    sleep: (ms) => new Promise((r) => setTimeout(r, ms)),
    now: () => performance.now(),
    out,
    err,
    ...extra,
  };
}

const camera = () =>
  new SimCamera({
    source: flatScreen([200, 200, 210]),
    pose: POSE,
    camera: DEFAULT_SIM_CAMERA_OPTIONS,
    seed: 1,
  });

describe("rpicam-vid stand-in", () => {
  it("streams ≥10 valid 640×360 JPEG frames to stdout until aborted, chatter only on stderr", async () => {
    const abort = new AbortController();
    const d = deps(camera(), { signal: abort.signal });
    d.out.onChunk = (n) => {
      if (n >= 12) abort.abort();
    };
    const argv = [
      "--codec",
      "mjpeg",
      "-o",
      "-",
      "--width",
      "640",
      "--height",
      "360",
      "--framerate",
      "30",
      "-t",
      "0",
    ];
    const code = await runRpicam("vid", [...argv, "-n", "--inline", "--flush"], d);
    expect(code).toBe(0);
    const frames = splitJpegs(d.out.buffer);
    expect(frames.length).toBeGreaterThanOrEqual(10);
    for (const f of frames.slice(0, 3)) {
      const meta = await sharp(f).metadata();
      expect([meta.format, meta.width, meta.height]).toEqual(["jpeg", 640, 360]);
    }
    expect(d.err.text).toMatch(/imx708/);
    expect(d.out.buffer.includes(Buffer.from("INFO"))).toBe(false);
  });

  it("stops by itself after -t ms, paced at the frame rate (never faster)", async () => {
    // Virtual time: sleeping advances the clock, capturing costs 5 ms, so the count is exact on any machine.
    let nowMs = 0;
    const captures: number[] = [];
    const fast: FrameSource = {
      capture: async () => {
        captures.push(nowMs);
        nowMs += 5;
        return Buffer.from([0xff, 0xd8, 0xff, 0xd9]);
      },
    };
    const d = deps(fast, {
      now: () => nowMs,
      sleep: async (ms) => {
        nowMs += ms;
      },
    });
    const code = await runRpicam("vid", ["--codec=mjpeg", "-o", "-", "--framerate=20", "-t", "500"], d);
    expect(code).toBe(0);
    expect(nowMs).toBeGreaterThanOrEqual(500);
    expect(nowMs).toBeLessThan(560);
    // 20 fps for 0.5 s: 10 frames, one every 50 ms, never sooner.
    expect(captures.length).toBe(10);
    for (let i = 1; i < captures.length; i++) {
      expect((captures[i] ?? 0) - (captures[i - 1] ?? 0)).toBeGreaterThanOrEqual(50);
    }
  });

  it("passes exposure, white balance, focus and quality through to the frame source", async () => {
    const seen: CaptureSettings[] = [];
    const src: FrameSource = {
      capture: async (s) => {
        seen.push(s);
        return Buffer.from([0xff, 0xd8, 0xff, 0xd9]);
      },
    };
    const argv = [
      "--codec",
      "mjpeg",
      "-o",
      "-",
      "--width",
      "1152",
      "--height",
      "648",
      "-t",
      "50",
      "--shutter",
      "8000",
    ];
    argv.push(
      "--gain",
      "2.5",
      "--awbgains",
      "1.8,1.4",
      "--autofocus-mode",
      "manual",
      "--lens-position=5.5",
      "-q",
      "70",
    );
    expect(await runRpicam("vid", argv, deps(src))).toBe(0);
    expect(seen[0]).toEqual({
      width: 1152,
      height: 648,
      shutterUs: 8000,
      gain: 2.5,
      awbGains: [1.8, 1.4],
      lensPosition: 5.5,
      quality: 70,
    });
  });

  it("exits quietly with 0 when the reader goes away (EPIPE)", async () => {
    const src: FrameSource = { capture: async () => Buffer.alloc(1000, 1) };
    const d = deps(src);
    let writes = 0;
    const broken = new Writable({
      write(_c, _e, cb) {
        writes++;
        if (writes >= 3) cb(Object.assign(new Error("write EPIPE"), { code: "EPIPE" }));
        else cb();
      },
    });
    const code = await runRpicam("vid", ["--codec", "mjpeg", "-o", "-", "-t", "0", "--framerate", "100"], {
      ...d,
      stdout: broken,
    });
    expect(code).toBe(0);
    expect(d.err.text).not.toMatch(/ERROR/);
  });

  it("rejects unknown flags, bad values and unsupported codecs on stderr with a non-zero exit", async () => {
    for (const argv of [
      ["--codec", "mjpeg", "-o", "-", "--bogus"],
      ["--codec", "mjpeg", "-o", "-", "--width", "abc"],
      ["--codec", "mjpeg", "-o", "-", "--awbgains", "1.5"],
      ["--codec", "mjpeg", "-o", "-", "--framerate"],
      ["-o", "-"],
      ["--codec", "h264", "-o", "-"],
    ]) {
      const d = deps(camera());
      const code = await runRpicam("vid", argv, d);
      expect(code, argv.join(" ")).not.toBe(0);
      expect(d.err.text).toMatch(/ERROR: \*\*\* .+ \*\*\*/);
      expect(d.out.chunks.length).toBe(0);
    }
  });
});

describe("rpicam-still stand-in", () => {
  it("writes one JPEG to stdout; --immediate skips the settle wait", async () => {
    // Virtual time: only the settle wait advances the clock, so the check is exact however slow rendering is.
    let nowMs = 0;
    const virtual = {
      now: () => nowMs,
      sleep: async (ms: number) => {
        nowMs += ms;
      },
    };
    const d = deps(camera(), virtual);
    expect(
      await runRpicam("still", ["-o", "-", "--width", "640", "--height", "360", "--immediate", "-n"], d),
    ).toBe(0);
    expect(nowMs).toBe(0);
    const frames = splitJpegs(d.out.buffer);
    expect(frames.length).toBe(1);
    const meta = await sharp(frames[0]).metadata();
    expect([meta.width, meta.height]).toEqual([640, 360]);

    const slow = deps(camera(), { ...virtual, stillTimeScale: 0.1 });
    expect(
      await runRpicam("still", ["-o", "-", "--width", "640", "--height", "360", "-t", "3000"], slow),
    ).toBe(0);
    // -t 3000 at a time scale of 0.1: a 300 ms preview/settle wait before the capture.
    expect(nowMs).toBeGreaterThanOrEqual(300);
    expect(nowMs).toBeLessThan(400);
    expect(splitJpegs(slow.out.buffer).length).toBe(1);
  });

  it("writes -o FILE through the injected writer", async () => {
    const files = new Map<string, Buffer>();
    const d = deps(camera(), {
      writeFile: async (p, data) => {
        files.set(p, data);
      },
    });
    expect(
      await runRpicam("still", ["-o", "/tmp/x.jpg", "--immediate", "--width=320", "--height=240"], d),
    ).toBe(0);
    expect(files.get("/tmp/x.jpg")?.subarray(0, 2)).toEqual(Buffer.from([0xff, 0xd8]));
  });
});

describe("rpicam argument parsing", () => {
  it("accepts --flag value and --flag=value alike", () => {
    const a = parseRpicamArgs("vid", ["--width", "640", "--timeout", "0", "--output", "-"]);
    const b = parseRpicamArgs("vid", ["--width=640", "-t", "0", "-o", "-"]);
    expect(a).toEqual(b);
    expect(a.timeoutMs).toBe(0);
  });
});
