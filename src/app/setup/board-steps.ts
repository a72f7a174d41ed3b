import { readdirSync } from "node:fs";
import { join } from "node:path";
import type { Logger } from "../../log/logger.js";
import type { GrblBackend } from "../../rig/grbl/backend.js";
import { readBoardBanner, type SerialCandidate, scanUsbSerial } from "../../rig/grbl/detect.js";
import { type SettingMismatch, settingsToApply } from "../../rig/grbl/settings.js";
import { type RigProfile, resolveRigProfile } from "../../rig/profile.js";
import { errorMessage, PiclawError } from "../../util/errors.js";
import { projectRoot } from "../../util/paths.js";
import { backupBoardSettings } from "../commands/rig.js";
import type { PiclawConfig } from "../config/schema.js";
import { grblBackendFor } from "../hardware-rig-stack.js";

/**
 * The wizard's board steps: find the USB serial boards and their banners, list the rig profiles, and
 * check (then, on the user's click, apply) a GRBL board's settings against a profile — with the same
 * check, writes and backup as `piclaw rig settings --apply`. They open the serial port themselves, so
 * they refuse while the daemon drives a real rig (it holds the port).
 */

export interface BoardStepDeps {
  config: PiclawConfig;
  /** Base for a profile given as a path (the config file's folder). */
  cwd: string;
  stateDir: string;
  log: Logger;
  /** Where to look (tests point these at a fake `/dev/serial/by-id` and sysfs). */
  scan?: { byIdDir?: string; sysRoot?: string };
  /** How long a board gets to print its banner (on open, then after a soft reset). */
  bannerWaitMs: number;
  now: () => Date;
}

export interface FoundBoard extends SerialCandidate {
  banner: { text: string; fluidnc: boolean; version: string } | null;
  error: { code: string; message: string; fix: string } | null;
}

export async function detectBoards(deps: BoardStepDeps): Promise<FoundBoard[]> {
  refuseOnHardware(deps.config);
  const candidates = await scanUsbSerial(deps.scan ?? {});
  const baudRate = deps.config.rig.baudRate ?? 115_200;
  const out: FoundBoard[] = [];
  // One at a time: a board being reset is slow enough, and they share no state.
  for (const c of candidates) {
    try {
      const b = await readBoardBanner(c.path, { baudRate, waitMs: deps.bannerWaitMs });
      out.push({ ...c, banner: { text: b.text, fluidnc: b.fluidnc, version: b.version }, error: null });
    } catch (err) {
      out.push({ ...c, banner: null, error: problem(err) });
    }
  }
  return out;
}

/** The profiles in `calibration/profiles/`, with the fields a person chooses by. */
export function listProfiles(): Array<{
  name: string;
  description: string;
  backend: string;
  kinematics: string;
}> {
  const dir = join(projectRoot(), "calibration", "profiles");
  return readdirSync(dir)
    .filter((f) => f.endsWith(".yaml"))
    .sort()
    .map((f) => {
      const p = resolveRigProfile(f.replace(/\.yaml$/, ""), dir);
      return { name: p.name, description: p.description ?? "", backend: p.backend, kinematics: p.kinematics };
    });
}

export interface SettingsRequest {
  profile: string;
  serialPath: string;
  /** Write the profile's values (after saving the board's own to a backup file). */
  apply: boolean;
  /** The person says the carriage sits at the park spot: reference there, as `piclaw rig reference --parked`. */
  parked: boolean;
}

export interface SettingsReport {
  board: string;
  fluidnc: boolean;
  mismatches: SettingMismatch[];
  notApplicable: string[];
  /** What was written, and where the board's previous settings were saved (apply only). */
  written: string[];
  backup: string | null;
  parkedRecorded: boolean;
}

/** Check (and with `apply`, fix) a board's settings against a profile; see `piclaw rig settings`. */
export async function boardSettings(deps: BoardStepDeps, req: SettingsRequest): Promise<SettingsReport> {
  refuseOnHardware(deps.config);
  let profile: RigProfile;
  try {
    profile = resolveRigProfile(req.profile, deps.cwd);
  } catch (err) {
    throw new PiclawError("SETUP_PROFILE_INVALID", errorMessage(err), {
      fix: "pick one of the listed profiles",
    });
  }
  if (profile.backend !== "grbl")
    throw new PiclawError(
      "SETUP_NOT_GRBL",
      `profile ${profile.name} drives the steppers from the Pi's GPIO: there is no board to check`,
      { fix: "nothing to do here; go on to the next step" },
    );
  const config: PiclawConfig = { ...deps.config, rig: { ...deps.config.rig, serialPath: req.serialPath } };
  const failed = (err: unknown) =>
    new PiclawError("SETUP_BOARD_FAILED", `${req.serialPath}: ${errorMessage(err)}`, {
      fix: "check the board is plugged in, powered, and is the one detected in step 2, then try again",
    });
  let backend: GrblBackend;
  try {
    // The position record only when the person vouches for the park: a mere check must not touch it.
    backend = grblBackendFor(config, profile, {
      log: deps.log,
      ...(req.parked ? { stateDir: deps.stateDir } : {}),
    }).backend;
  } catch (err) {
    throw failed(err);
  }
  try {
    await backend.start();
  } catch (err) {
    await backend.stop().catch(() => undefined);
    throw failed(err);
  }
  try {
    return await checkAndApply(backend, profile, req, deps);
  } finally {
    await backend.stop();
  }
}

async function checkAndApply(
  backend: GrblBackend,
  profile: RigProfile,
  req: SettingsRequest,
  deps: BoardStepDeps,
): Promise<SettingsReport> {
  let facts = backend.boardFacts();
  if (!facts) throw new PiclawError("SETUP_BOARD_FAILED", "the board did not answer the handshake");
  const report: SettingsReport = {
    board: facts.fluidnc ? "FluidNC" : `GRBL ${facts.build.version}`.trim(),
    fluidnc: facts.fluidnc,
    mismatches: facts.mismatches,
    notApplicable: facts.notApplicable,
    written: [],
    backup: null,
    parkedRecorded: false,
  };
  if (req.apply && facts.mismatches.length > 0) {
    const lines = settingsToApply(profile, facts.mismatches);
    report.backup = backupBoardSettings(facts, deps.stateDir, deps.now());
    if (lines.length > 0) facts = await backend.writeSettings(lines);
    report.written = lines;
    report.mismatches = facts.mismatches;
  }
  if (req.parked && report.mismatches.length === 0 && !profile.homing.endstops) {
    await backend.confirmParked();
    report.parkedRecorded = true;
  }
  return report;
}

/** A step's failure as the page shows it: what failed, and how to fix it. */
export function problem(err: unknown): { code: string; message: string; fix: string } {
  if (err instanceof PiclawError) {
    const fix = typeof err.details.fix === "string" ? err.details.fix : "see the PiClaw log for more";
    return { code: err.code, message: err.message, fix };
  }
  return { code: "INTERNAL", message: errorMessage(err), fix: "see the PiClaw log for more" };
}

function refuseOnHardware(config: PiclawConfig): void {
  if (config.rig.backend === "hardware")
    throw new PiclawError("SETUP_PORT_HELD", "the daemon drives the real rig now and holds its serial port", {
      fix: "to re-detect or re-configure the board, switch back to the simulated rig (last step) and run this step again",
    });
}
