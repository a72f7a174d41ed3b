import type { Logger } from "../../log/logger.js";
import type { RigProfile } from "../profile.js";
import { compareFluidncSettings, fluidncNotApplicable } from "./fluidnc-settings.js";
import type { GrblStatusReport } from "./protocol.js";
import type { GrblSession } from "./session.js";
import {
  compareSettings,
  type GrblBuildInfo,
  parseBuildInfo,
  parseSettings,
  type SettingMismatch,
} from "./settings.js";
import type { GrblTimings } from "./timings.js";

/** What the driver learnt about a board on connect. */
export interface BoardFacts {
  fluidnc: boolean;
  build: GrblBuildInfo;
  /** `$$` as read (on FluidNC: its read-only numbered views of config.yaml). */
  settings: Map<number, number>;
  /** Where the board differs from the profile; empty when it fits (or the check does not apply). */
  mismatches: SettingMismatch[];
  /** Checks that do not apply to this board (FluidNC), or that it could not answer, each with why. */
  notApplicable: string[];
  /** `$N0`/`$N1` startup blocks that GRBL runs after every reset (non-empty ones). */
  startupBlocks: string[];
  first: GrblStatusReport;
  /**
   * The board printed its power-on banner when the port opened (a power cycle, or the DTR reset of an
   * Arduino-style board) rather than needing our soft reset: its machine position starts from 0,0.
   */
  bannerOnOpen: boolean;
}

/**
 * Read what the board is: `$I` (build options: CoreXY, variable spindle), `$$` and `$N` on GRBL, and one
 * status report; compare the settings with the profile. On FluidNC `$$` lists read-only views of its
 * config.yaml: those are compared, and what FluidNC cannot tell ($31, build options) is listed in
 * `notApplicable` instead of being refused.
 */
export async function readBoard(
  s: GrblSession,
  profile: RigProfile,
  fluidnc: boolean,
  timeoutMs: number,
  log: Logger,
): Promise<Omit<BoardFacts, "bannerOnOpen">> {
  const build = parseBuildInfo(await s.command("$I", timeoutMs));
  let settings = new Map<number, number>();
  let mismatches: SettingMismatch[] = [];
  const notApplicable: string[] = [];
  let startupBlocks: string[] = [];
  if (fluidnc) {
    // FluidNC's `$$` lists read-only numbered views of its config.yaml (fluidnc-settings.ts).
    settings = parseSettings(await s.command("$$", timeoutMs));
    const checked = compareFluidncSettings(profile, settings);
    mismatches = checked.mismatches;
    notApplicable.push(...fluidncNotApplicable(profile), ...checked.unchecked);
  } else {
    settings = parseSettings(await s.command("$$", timeoutMs));
    mismatches = compareSettings(profile, settings, build);
    startupBlocks = (await s.command("$N", timeoutMs)).flatMap((l) =>
      l.kind === "setting" && /^N[01]$/.test(l.id) && l.value.trim() ? [l.value.trim()] : [],
    );
    if (startupBlocks.length) {
      // Harmless for PiClaw (it sets G21 G90 G94 itself before every G92), but worth knowing.
      log.warn("GRBL runs startup blocks after every reset", { startupBlocks });
    }
  }
  const first = await s.status(timeoutMs);
  return { fluidnc, build, settings, mismatches, notApplicable, startupBlocks, first };
}

/**
 * Wake the board on a freshly opened port: wait `bannerWaitMs` for its banner, soft-reset it when none
 * came, then `readBoard` and log what was found (a settings mismatch as an error: motion is refused).
 * `fluidnc` is read after the banner, which is what tells GRBL and FluidNC apart.
 */
export async function greetBoard(
  s: GrblSession,
  profile: RigProfile,
  fluidnc: () => boolean,
  t: Pick<GrblTimings, "bannerWaitMs" | "resetWaitMs" | "commandTimeoutMs">,
  log: Logger,
  path: string,
): Promise<BoardFacts> {
  const banner = await s.waitFor((l) => l.kind === "banner", t.bannerWaitMs, "a banner").catch(() => null);
  if (!banner) await s.softReset(t.resetWaitMs);
  const facts = {
    ...(await readBoard(s, profile, fluidnc(), t.commandTimeoutMs, log)),
    bannerOnOpen: !!banner,
  };
  log.info("GRBL board connected", {
    path,
    fluidnc: facts.fluidnc,
    build: facts.build,
    state: facts.first.state,
    ...(facts.notApplicable.length ? { checksNotApplicable: facts.notApplicable } : {}),
  });
  if (facts.mismatches.length)
    log.error("GRBL settings differ from the profile: motion refused", { mismatches: facts.mismatches });
  return facts;
}

/**
 * Write `$N=V` lines (`piclaw rig settings --apply`) one at a time, each acknowledged before the next
 * (GRBL writes EEPROM synchronously and refuses while moving), then read the board again.
 */
export async function writeSettings(
  s: GrblSession,
  lines: readonly string[],
  profile: RigProfile,
  timeoutMs: number,
  log: Logger,
): Promise<Omit<BoardFacts, "bannerOnOpen">> {
  for (const line of lines) await s.command(line, timeoutMs);
  log.info("GRBL settings written", { lines });
  return readBoard(s, profile, false, timeoutMs, log);
}
