import type { BedPoint, MotionState } from "../motion.js";

/**
 * Parsing of what a GRBL 1.1 / FluidNC board sends back: one line at a time, `\r\n` terminated.
 * Kept free of I/O so the same code reads a real board and the simulator.
 */

export interface Xyz {
  x: number;
  y: number;
  z: number;
}

/** A parsed `<State|MPos:…|FS:…|WCO:…>` real-time status report. */
export interface GrblStatusReport {
  /** `Idle`, `Run`, `Hold`, `Jog`, `Alarm`, `Door`, `Check`, `Home`, `Sleep`. */
  state: string;
  /** The sub-state after `:` (`Hold:0` = hold complete, `Hold:1` = decelerating). */
  subState?: number;
  mpos?: Xyz;
  wpos?: Xyz;
  wco?: Xyz;
  feed?: number;
  spindle?: number;
  /** Accessory state letters (`S` spindle CW, `C` spindle CCW, `F`/`M` coolant). */
  accessories?: string;
}

export type GrblLine =
  | { kind: "ok" }
  | { kind: "error"; code: number }
  | { kind: "alarm"; code: number }
  | { kind: "status"; report: GrblStatusReport }
  | { kind: "msg"; text: string }
  | { kind: "gc"; modes: string }
  | { kind: "ver"; text: string }
  | { kind: "opt"; text: string }
  | { kind: "feedback"; text: string }
  | { kind: "banner"; version: string; fluidnc: boolean; text: string }
  | { kind: "setting"; id: string; value: string }
  | { kind: "other"; text: string };

function xyz(text: string): Xyz | undefined {
  const parts = text.split(",").map(Number);
  const [x, y, z = 0] = parts;
  if (x === undefined || y === undefined || !Number.isFinite(x) || !Number.isFinite(y)) return undefined;
  return { x, y, z: Number.isFinite(z) ? z : 0 };
}

/** Parse the inside of `<…>`; unknown fields are ignored (FluidNC and grblHAL add their own). */
export function parseStatusReport(body: string): GrblStatusReport {
  const [head = "", ...fields] = body.split("|");
  const [state = "", sub] = head.split(":");
  const report: GrblStatusReport = { state };
  if (sub !== undefined && sub !== "" && Number.isFinite(Number(sub))) report.subState = Number(sub);
  for (const field of fields) {
    const colon = field.indexOf(":");
    if (colon < 0) continue;
    const key = field.slice(0, colon);
    const value = field.slice(colon + 1);
    switch (key) {
      case "MPos":
        report.mpos = xyz(value);
        break;
      case "WPos":
        report.wpos = xyz(value);
        break;
      case "WCO":
        report.wco = xyz(value);
        break;
      case "FS":
      case "F": {
        const [f, s] = value.split(",").map(Number);
        if (f !== undefined && Number.isFinite(f)) report.feed = f;
        if (s !== undefined && Number.isFinite(s)) report.spindle = s;
        break;
      }
      case "A":
        report.accessories = value;
        break;
    }
  }
  return report;
}

/** Classify one received line (without its line terminator). */
export function parseGrblLine(raw: string): GrblLine {
  const text = raw.trim();
  if (text === "ok") return { kind: "ok" };
  let m = /^error:(\d+)$/i.exec(text);
  if (m) return { kind: "error", code: Number(m[1]) };
  m = /^ALARM:(\d+)$/i.exec(text);
  if (m) return { kind: "alarm", code: Number(m[1]) };
  m = /^<(.*)>$/.exec(text);
  if (m) return { kind: "status", report: parseStatusReport(m[1] ?? "") };
  m = /^\[(MSG|GC|VER|OPT):(.*)\]$/.exec(text);
  if (m) {
    const body = m[2] ?? "";
    switch (m[1]) {
      case "MSG":
        return { kind: "msg", text: body };
      case "GC":
        return { kind: "gc", modes: body };
      case "VER":
        return { kind: "ver", text: body };
      default:
        return { kind: "opt", text: body };
    }
  }
  if (/^\[.*\]$/.test(text)) return { kind: "feedback", text: text.slice(1, -1) };
  m = /^Grbl\s+(\S+)/.exec(text);
  if (m) return { kind: "banner", version: m[1] ?? "", fluidnc: /FluidNC/i.test(text), text };
  m = /^\$(\d+|[A-Za-z/_][A-Za-z0-9/_]*)=(.*)$/.exec(text);
  if (m) return { kind: "setting", id: m[1] ?? "", value: m[2] ?? "" };
  return { kind: "other", text };
}

/** GRBL-friendly number: at most 3 decimals, no trailing zeros, never `-0` or exponent notation. */
export function gnum(n: number): string {
  const rounded = Number(n.toFixed(3));
  return Object.is(rounded, -0) ? "0" : String(rounded);
}

/** The MotionState a status report means; `busy`: a program is running (GRBL says Idle in a dwell). */
export function motionState(report: GrblStatusReport | null, busy: boolean): MotionState {
  switch (report?.state) {
    case "Run":
    case "Jog":
    case "Home":
      return "moving";
    case "Hold":
    case "Door":
      return "hold";
    case "Alarm":
      return "alarm";
    default:
      return busy ? "moving" : "idle";
  }
}

/** Work position (bed mm): MPos − WCO (the last WCO seen: GRBL sends it only now and then), or WPos. */
export function workPosition(report: GrblStatusReport | null, wco: Xyz): BedPoint {
  if (report?.wpos) return { xMm: report.wpos.x, yMm: report.wpos.y };
  const m = report?.mpos ?? { x: 0, y: 0, z: 0 };
  return { xMm: m.x - wco.x, yMm: m.y - wco.y };
}
