import { PiclawError } from "../../util/errors.js";
import type { RigProfile } from "../profile.js";
import type { GrblLine } from "./protocol.js";

/**
 * The GRBL 1.1 settings a rig profile implies, and the check of a board's `$$`/`$I` against them. A
 * board is not configured by PiClaw unless the operator says so (`piclaw rig settings --apply`): a
 * factory board (250 steps/mm, 500 mm/min, 10 mm/s²) moves a 35 mm tap 109 mm, so motion is refused
 * until every key below matches.
 */

/** One setting (or build option) where the board differs from the profile. */
export interface SettingMismatch {
  /** `$100`, or `$I:CoreXY` for a build option. */
  key: string;
  /** What the board says (`(missing)` when it did not list the key). */
  board: string;
  expected: string;
  /** What the key means, for the operator. */
  meaning: string;
}

/** A profile-implied setting: its value and what it means. */
export interface ExpectedSetting {
  id: number;
  value: number;
  meaning: string;
}

/** Relative tolerance for real-valued settings (GRBL prints 3 decimals). */
const TOLERANCE = 1e-3;

/**
 * The `$` settings a profile implies (GRBL 1.1 numbering, gnea/grbl `doc/markdown/settings.md`).
 * Homing rigs home toward the bed origin on both axes (`$23=3`) and get GRBL's own soft limits.
 */
export function expectedGrblSettings(profile: RigProfile): ExpectedSetting[] {
  const homing = profile.homing.endstops ? 1 : 0;
  const s = (id: number, value: number, meaning: string): ExpectedSetting => ({ id, value, meaning });
  const out: ExpectedSetting[] = [
    s(10, 1, "status report mask: MPos (our position maths expects machine positions)"),
    s(20, homing, "soft limits (only with homing: GRBL's second fence)"),
    s(21, homing, "hard limits"),
    s(22, homing, "homing cycle"),
    s(30, profile.stylus.spindleMaxS, "max spindle S = full solenoid power (stylus.spindleMaxS)"),
    s(31, 0, "min spindle S (hold power must be able to drop below strike power)"),
    s(32, 0, "laser mode off (laser mode cuts the solenoid when not moving: taps never touch)"),
    s(100, profile.stepsPerMm.x, "X steps/mm"),
    s(101, profile.stepsPerMm.y, "Y steps/mm"),
    s(110, profile.maxRateMmPerMin.x, "X max rate mm/min"),
    s(111, profile.maxRateMmPerMin.y, "Y max rate mm/min"),
    s(120, profile.accelMmPerS2.x, "X acceleration mm/s²"),
    s(121, profile.accelMmPerS2.y, "Y acceleration mm/s²"),
    s(130, profile.travelMm.x, "X max travel mm"),
    s(131, profile.travelMm.y, "Y max travel mm"),
  ];
  if (homing) {
    out.push(
      s(23, 3, "homing direction: toward the bed origin on X and Y"),
      s(25, profile.homing.seekFeedMmPerMin, "homing seek rate mm/min"),
      s(27, profile.homing.pulloffMm, "homing pull-off mm"),
    );
  }
  return out.sort((a, b) => a.id - b.id);
}

/** `$$` lines as a map of setting number → value. */
export function parseSettings(lines: readonly GrblLine[]): Map<number, number> {
  const out = new Map<number, number>();
  for (const l of lines) {
    if (l.kind === "setting" && /^\d+$/.test(l.id)) out.set(Number(l.id), Number(l.value));
  }
  return out;
}

/** What `$I` says about the firmware build. */
export interface GrblBuildInfo {
  version: string;
  /** The option letters of `[OPT:…]` (`C` = CoreXY, `V` = variable spindle). */
  options: string;
}

export function parseBuildInfo(lines: readonly GrblLine[]): GrblBuildInfo {
  const ver = lines.find((l) => l.kind === "ver");
  const opt = lines.find((l) => l.kind === "opt");
  return {
    version: ver?.kind === "ver" ? ver.text : "",
    options: opt?.kind === "opt" ? (opt.text.split(",")[0] ?? "") : "",
  };
}

function close(a: number, b: number): boolean {
  return Math.abs(a - b) <= TOLERANCE * Math.max(1, Math.abs(b));
}

/** Every difference between the board and what the profile implies (empty: the board fits). */
export function compareSettings(
  profile: RigProfile,
  board: ReadonlyMap<number, number>,
  build: GrblBuildInfo,
): SettingMismatch[] {
  const out: SettingMismatch[] = [];
  for (const e of expectedGrblSettings(profile)) {
    const v = board.get(e.id);
    // $10 bit 1 adds the buffer state (Bf:) to reports; only bit 0 (MPos) matters here.
    const ok = v !== undefined && (e.id === 10 ? (v & 1) === 1 : close(v, e.value));
    if (!ok)
      out.push({
        key: `$${e.id}`,
        board: v === undefined ? "(missing)" : String(v),
        expected: String(e.value),
        meaning: e.meaning,
      });
  }
  const corexy = build.options.includes("C");
  if (corexy !== (profile.kinematics === "corexy")) {
    out.push({
      key: "$I:CoreXY",
      board: corexy ? "CoreXY build" : "Cartesian build",
      expected: profile.kinematics === "corexy" ? "CoreXY build" : "Cartesian build",
      meaning: "firmware kinematics (a compile-time option: reflash the board to change it)",
    });
  }
  if (!build.options.includes("V")) {
    out.push({
      key: "$I:VariableSpindle",
      board: "no",
      expected: "yes",
      meaning: "spindle PWM (strike and hold power need it)",
    });
  }
  return out;
}

/** The one error that refuses motion on a misconfigured board, listing every mismatch. */
export function settingsMismatchError(mismatches: readonly SettingMismatch[]): PiclawError {
  const list = mismatches.map((m) => `${m.key}=${m.board} (expected ${m.expected}: ${m.meaning})`);
  return new PiclawError(
    "MOTION_SETTINGS_MISMATCH",
    `the GRBL board's settings do not match the rig profile; motion refused until they do ` +
      `(run \`piclaw rig settings --apply\`): ${list.join("; ")}`,
    { mismatches: mismatches.map((m) => ({ ...m })) },
  );
}

/**
 * The `$N=V` lines that make a board match the profile (settings only: build options need a reflash).
 */
export function settingsToApply(profile: RigProfile, mismatches: readonly SettingMismatch[]): string[] {
  const wanted = new Set(mismatches.map((m) => m.key));
  const expected = expectedGrblSettings(profile).filter((e) => wanted.has(`$${e.id}`));
  // $22 (homing) before $20 (soft limits): GRBL refuses soft limits without homing (error:10).
  const order = (id: number) => (id === 22 ? -1 : id);
  return expected.sort((a, b) => order(a.id) - order(b.id)).map((e) => `$${e.id}=${e.value}`);
}
