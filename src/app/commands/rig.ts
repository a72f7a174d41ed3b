import { dirname, join } from "node:path";
import { createInterface } from "node:readline/promises";
import type { Logger } from "../../log/logger.js";
import type { GrblBackend } from "../../rig/grbl/backend.js";
import type { BoardFacts } from "../../rig/grbl/handshake.js";
import { type SettingMismatch, settingsToApply } from "../../rig/grbl/settings.js";
import { type RigProfile, resolveRigProfile } from "../../rig/profile.js";
import { writeFileAtomic } from "../../util/atomic-file.js";
import { PiclawError } from "../../util/errors.js";
import type { LoadedConfig } from "../config/load.js";
import { grblBackendFor } from "../hardware-rig-stack.js";
import { daemonLockPath, InstanceLock } from "../instance-lock.js";
import { referenceParkedThroughDaemon } from "./rig-remote.js";

export interface RigCommandDeps {
  log: Logger;
  /** Output lines (stdout). */
  write: (text: string) => void;
  /** Ask the operator a yes/no question (default: a prompt on the terminal; anything but y/yes is no). */
  confirm?: (question: string) => Promise<boolean>;
  /**
   * The PID of a daemon running on the state directory (it then holds the serial port), or null;
   * default: its lock file's live holder.
   */
  daemonPid?: () => number | null;
  /** HTTP client for the daemon's API (tests). */
  fetch?: typeof fetch;
  /** Time of the settings backup's name (default: now). */
  now?: () => Date;
}

export interface RigFlags {
  apply?: boolean;
  yes?: boolean;
  parked?: boolean;
}

async function terminalConfirm(question: string): Promise<boolean> {
  const rl = createInterface({ input: process.stdin, output: process.stdout });
  try {
    return /^y(es)?$/i.test((await rl.question(`${question} [y/N] `)).trim());
  } finally {
    rl.close();
  }
}

/** The diff of the board against the profile, one line per key: key, board value, expected value. */
export function formatMismatches(mismatches: readonly SettingMismatch[]): string {
  if (!mismatches.length) return "the board's settings match the rig profile\n";
  const rows = mismatches.map(
    (m) => `  ${m.key.padEnd(20)} ${m.board.padStart(10)} ${m.expected.padStart(10)}  ${m.meaning}`,
  );
  return `${"  key".padEnd(22)} ${"board".padStart(10)} ${"expected".padStart(10)}\n${rows.join("\n")}\n`;
}

/**
 * `piclaw rig settings [--apply] [--yes]` and `piclaw rig reference --parked`, on a real GRBL board
 * (`rig.backend: hardware`). Both need the serial port, which a running daemon holds: then `reference`
 * asks the daemon to do it (rig-remote.ts) and `settings` refuses.
 * `settings` prints the diff; `--apply` first saves the board's current `$$` to
 * `<stateDir>/grbl-settings-backup-<time>.txt`, asks unless `--yes`, writes the profile's values and
 * shows the diff again (exit 1 while anything still differs, e.g. a build option that needs a reflash).
 * `reference --parked` records the operator's word that the carriage is at park: the driver references
 * there and the position record says "cleanly parked", so the next start may move.
 */
export async function rigCommand(
  sub: string | undefined,
  flags: RigFlags,
  loaded: LoadedConfig,
  deps: RigCommandDeps,
): Promise<number> {
  if (sub !== "settings" && sub !== "reference")
    throw new PiclawError("USAGE", `unknown rig command: ${sub ?? "(none)"} (try piclaw rig --help)`);
  if (sub === "reference" && !flags.parked)
    throw new PiclawError(
      "USAGE",
      "piclaw rig reference needs --parked: move the carriage to the park spot first, then say so",
    );
  const { config, stateDir } = loaded;
  if (config.rig.backend !== "hardware")
    throw new PiclawError("USAGE", "rig.backend: piclaw rig talks to a real board (rig.backend: hardware)");
  const profile = resolveRigProfile(config.rig.profile, loaded.path ? dirname(loaded.path) : process.cwd());
  if (profile.backend !== "grbl")
    throw new PiclawError(
      "USAGE",
      `rig.profile: profile ${profile.name} has no GRBL board (backend: ${profile.backend})`,
    );
  const daemonPid = (deps.daemonPid ?? (() => new InstanceLock(daemonLockPath(stateDir)).liveHolder()))();
  if (daemonPid !== null && sub === "reference")
    return referenceParkedThroughDaemon(loaded, daemonPid, {
      write: deps.write,
      ...(deps.fetch ? { fetch: deps.fetch } : {}),
    });
  if (daemonPid !== null) {
    deps.write(
      `the piclaw daemon (PID ${daemonPid}) is running and holds the serial port: stop it first ` +
        "(sudo systemctl stop piclaw), then run piclaw rig settings again\n",
    );
    return 1;
  }
  const { backend, transport } = grblBackendFor(config, profile, { log: deps.log, stateDir });
  deps.write(`board: ${transport}\n`);
  await backend.start();
  try {
    if (sub === "reference") {
      await backend.confirmParked();
      deps.write(
        `referenced at park (${profile.park.xMm}, ${profile.park.yMm} mm); the next start may move\n`,
      );
      return 0;
    }
    return await settings(backend, profile, flags, stateDir, deps);
  } finally {
    await backend.stop();
  }
}

/**
 * Save the board's `$$` as read to `<stateDir>/grbl-settings-backup-<time>.txt` (atomically), before
 * anything is written to it; returns the file's path. Shared by `piclaw rig settings --apply` and the
 * setup wizard, so an owner can always put a board back as it was.
 */
export function backupBoardSettings(
  facts: Pick<BoardFacts, "settings">,
  stateDir: string,
  now: Date,
): string {
  const stamp = now.toISOString().replace(/[:.]/g, "-");
  const backup = join(stateDir, `grbl-settings-backup-${stamp}.txt`);
  const current = [...facts.settings].sort(([a], [b]) => a - b).map(([id, v]) => `$${id}=${v}\n`);
  writeFileAtomic(backup, current.join(""));
  return backup;
}

async function settings(
  backend: GrblBackend,
  profile: RigProfile,
  flags: RigFlags,
  stateDir: string,
  deps: RigCommandDeps,
): Promise<number> {
  const facts = backend.boardFacts() as BoardFacts;
  deps.write(formatMismatches(facts.mismatches));
  if (facts.notApplicable.length)
    deps.write(`not checked here:\n${facts.notApplicable.map((n) => `  ${n}\n`).join("")}`);
  if (facts.fluidnc && flags.apply && facts.mismatches.length) {
    deps.write("FluidNC: nothing written — its numbered settings are read-only; fix config.yaml as listed\n");
    return 1;
  }
  if (!facts.mismatches.length || !flags.apply) return facts.mismatches.length ? 1 : 0;
  const lines = settingsToApply(profile, facts.mismatches);
  const backup = backupBoardSettings(facts, stateDir, deps.now?.() ?? new Date());
  deps.write(`saved the board's settings to ${backup}\n`);
  if (!lines.length) return 1;
  deps.write(`will write: ${lines.join(" ")}\n`);
  if (
    !flags.yes &&
    !(await (deps.confirm ?? terminalConfirm)(`write ${lines.length} settings to the board?`))
  ) {
    deps.write("nothing written\n");
    return 1;
  }
  const after = await backend.writeSettings(lines);
  deps.write(`written; now:\n${formatMismatches(after.mismatches)}`);
  return after.mismatches.length ? 1 : 0;
}
