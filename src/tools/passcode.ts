import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import type { RigConfig } from "../rig/config.js";
import { PiclawError } from "../util/errors.js";
import type { PhoneConfig } from "./config.js";

/** The environment variable that carries the phone's passcode (wins over the config). */
export const PASSCODE_ENV = "PICLAW_PHONE_PASSCODE";

/** Where the passcode came from: a name for logs, never the value. */
export type PasscodeSourceName =
  | typeof PASSCODE_ENV
  | "phone.passcodeFile"
  | "phone.passcode"
  | "sim.phone.passcode"
  | "none";

export interface ResolvedPasscode {
  /** 4–6 digits, or null when none is configured. A secret: register it with the logger's redaction. */
  value: string | null;
  source: PasscodeSourceName;
}

export interface PasscodeSources {
  env: NodeJS.ProcessEnv;
  /** Folder relative `phone.passcodeFile` paths are resolved against (the config file's). */
  baseDir: string;
  readFile?: (path: string) => string;
}

/**
 * The passcode `unlock_phone` types, from (first match wins) `PICLAW_PHONE_PASSCODE`, the file named by
 * `phone.passcodeFile`, `phone.passcode`, and — on the simulated rig only — the simulated phone's own
 * passcode. Throws PASSCODE_INVALID / PASSCODE_UNREADABLE naming the source, never the value.
 */
export function resolvePasscode(
  config: {
    phone: Pick<PhoneConfig, "passcode" | "passcodeFile">;
    rig: Pick<RigConfig, "backend">;
    sim: { phone: { passcode: string } };
  },
  sources: PasscodeSources,
): ResolvedPasscode {
  const fromEnv = sources.env[PASSCODE_ENV];
  if (fromEnv !== undefined && fromEnv !== "") return checked(fromEnv.trim(), PASSCODE_ENV);
  const file = config.phone.passcodeFile;
  if (file) {
    const path = resolve(sources.baseDir, file);
    let text: string;
    try {
      text = (sources.readFile ?? ((p) => readFileSync(p, "utf8")))(path);
    } catch (err) {
      throw new PiclawError(
        "PASSCODE_UNREADABLE",
        `cannot read phone.passcodeFile ${path}: ${(err as NodeJS.ErrnoException).code ?? "error"}`,
        { path },
      );
    }
    return checked((text.split(/\r?\n/)[0] ?? "").trim(), "phone.passcodeFile");
  }
  if (config.phone.passcode) return checked(config.phone.passcode, "phone.passcode");
  if (config.rig.backend === "sim") return checked(config.sim.phone.passcode, "sim.phone.passcode");
  return { value: null, source: "none" };
}

function checked(value: string, source: PasscodeSourceName): ResolvedPasscode {
  if (!/^\d{4,6}$/.test(value)) {
    throw new PiclawError(
      "PASSCODE_INVALID",
      `the passcode from ${source} must be 4 to 6 digits (got ${value.length} characters)`,
      { source },
    );
  }
  return { value, source };
}
