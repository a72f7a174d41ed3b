/**
 * Command-line parsing for the rpicam-vid / rpicam-still stand-ins: the subset of libcamera-apps' flags
 * PiClaw's camera driver uses, in both `--flag value` and `--flag=value` forms. Errors carry the text
 * the stand-in prints to stderr before exiting non-zero, as the real apps do for bad options.
 */

export type RpicamMode = "vid" | "still";

/** Parsed options of one run. Undefined means the app's default or "auto". */
export interface RpicamOptions {
  output: string | undefined;
  codec: string;
  width: number | undefined;
  height: number | undefined;
  framerate: number | undefined;
  /** Milliseconds; 0 = run until stopped (vid). */
  timeoutMs: number | undefined;
  immediate: boolean;
  shutterUs: number | undefined;
  gain: number | undefined;
  awbGains: [number, number] | undefined;
  lensPosition: number | undefined;
  autofocusMode: string | undefined;
  quality: number | undefined;
  /** Print help and exit 0. */
  help: boolean;
}

export class RpicamUsageError extends Error {}

type Kind = "string" | "number" | "int" | "flag" | "pair" | "ignored-flag";

/** Flags with their value kinds; aliases map to the same key. */
const FLAGS: Record<string, { key: keyof RpicamOptions | null; kind: Kind }> = {
  "-o": { key: "output", kind: "string" },
  "--output": { key: "output", kind: "string" },
  "--codec": { key: "codec", kind: "string" },
  "--width": { key: "width", kind: "int" },
  "--height": { key: "height", kind: "int" },
  "--framerate": { key: "framerate", kind: "number" },
  "-t": { key: "timeoutMs", kind: "number" },
  "--timeout": { key: "timeoutMs", kind: "number" },
  "--immediate": { key: "immediate", kind: "flag" },
  "--shutter": { key: "shutterUs", kind: "number" },
  "--gain": { key: "gain", kind: "number" },
  "--analoggain": { key: "gain", kind: "number" },
  "--awbgains": { key: "awbGains", kind: "pair" },
  "--lens-position": { key: "lensPosition", kind: "number" },
  "--autofocus-mode": { key: "autofocusMode", kind: "string" },
  "-q": { key: "quality", kind: "int" },
  "--quality": { key: "quality", kind: "int" },
  "-n": { key: null, kind: "ignored-flag" },
  "--nopreview": { key: null, kind: "ignored-flag" },
  "--flush": { key: null, kind: "ignored-flag" },
  "--inline": { key: null, kind: "ignored-flag" },
  "-h": { key: "help", kind: "flag" },
  "--help": { key: "help", kind: "flag" },
};

/** Value ranges the stand-in accepts (the real apps reject what the sensor cannot do). */
const LIMITS: Partial<Record<keyof RpicamOptions, [number, number]>> = {
  width: [64, 4608],
  height: [64, 2592],
  framerate: [0.1, 120],
  timeoutMs: [0, 1e9],
  shutterUs: [1, 112_000_000],
  gain: [1, 16],
  lensPosition: [0, 32],
  quality: [1, 100],
};

function parseValue(flag: string, kind: Kind, text: string): number | string | [number, number] {
  if (kind === "string") return text;
  const num = (t: string): number => {
    const n = t.trim() === "" ? Number.NaN : Number(t);
    if (!Number.isFinite(n)) throw new RpicamUsageError(`Invalid value for ${flag}: "${text}"`);
    return n;
  };
  if (kind === "pair") {
    const parts = text.split(",");
    if (parts.length !== 2) throw new RpicamUsageError(`Invalid value for ${flag}: "${text}" (expected r,b)`);
    const r = num(parts[0] ?? "");
    const b = num(parts[1] ?? "");
    if (!(r > 0 && b > 0))
      throw new RpicamUsageError(`Invalid value for ${flag}: "${text}" (gains must be > 0)`);
    return [r, b];
  }
  const n = num(text);
  if (kind === "int" && !Number.isInteger(n))
    throw new RpicamUsageError(`Invalid value for ${flag}: "${text}" (expected an integer)`);
  return n;
}

/** Parse argv (without the program name). Throws RpicamUsageError with the message to print. */
export function parseRpicamArgs(mode: RpicamMode, argv: readonly string[]): RpicamOptions {
  const opts: RpicamOptions = {
    output: undefined,
    codec: mode === "vid" ? "h264" : "mjpeg",
    width: undefined,
    height: undefined,
    framerate: undefined,
    timeoutMs: undefined,
    immediate: false,
    shutterUs: undefined,
    gain: undefined,
    awbGains: undefined,
    lensPosition: undefined,
    autofocusMode: undefined,
    quality: undefined,
    help: false,
  };
  const record = opts as unknown as Record<string, unknown>;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? "";
    const eq = arg.startsWith("--") ? arg.indexOf("=") : -1;
    const flag = eq > 0 ? arg.slice(0, eq) : arg;
    const spec = FLAGS[flag];
    if (spec === undefined) {
      throw new RpicamUsageError(
        arg.startsWith("-") ? `unrecognised option '${flag}'` : `unexpected argument '${arg}'`,
      );
    }
    if (spec.kind === "flag" || spec.kind === "ignored-flag") {
      if (eq > 0) throw new RpicamUsageError(`option '${flag}' does not take a value`);
      if (spec.key !== null) record[spec.key] = true;
      continue;
    }
    let text: string;
    if (eq > 0) text = arg.slice(eq + 1);
    else {
      const next = argv[i + 1];
      if (next === undefined)
        throw new RpicamUsageError(`the required argument for option '${flag}' is missing`);
      text = next;
      i++;
    }
    if (spec.key === null) continue;
    const value = parseValue(flag, spec.kind, text);
    const limit = LIMITS[spec.key];
    if (limit !== undefined && typeof value === "number" && (value < limit[0] || value > limit[1]))
      throw new RpicamUsageError(`Invalid value for ${flag}: ${text} (allowed ${limit[0]}..${limit[1]})`);
    record[spec.key] = value;
  }
  if (opts.autofocusMode !== undefined && !["manual", "auto", "continuous"].includes(opts.autofocusMode))
    throw new RpicamUsageError(`Invalid value for --autofocus-mode: ${opts.autofocusMode}`);
  return opts;
}

export const RPICAM_USAGE = `Options (PiClaw simulated camera; subset of rpicam-apps):
  -o, --output FILE|-      write to FILE, or stdout for -
  --codec mjpeg            (rpicam-vid) only mjpeg is simulated
  --width N --height N     output size
  --framerate F            frames per second (rpicam-vid)
  -t, --timeout MS         run time; 0 = until stopped
  --immediate              (rpicam-still) capture without the preview/AE settle
  --shutter US --gain G --awbgains R,B
  --lens-position D --autofocus-mode manual|auto|continuous
  -q, --quality Q          JPEG quality
  -n, --nopreview --flush --inline   accepted, no effect
`;
