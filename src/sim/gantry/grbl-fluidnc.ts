import type { RigProfile } from "../../rig/profile.js";
import { eepromConfiguredFor, type GrblEeprom } from "./grbl-eeprom.js";

/**
 * A small FluidNC persona for the GRBL simulator: what a FluidNC board says where GRBL 1.1h says
 * otherwise, read from bdring/FluidNC. Motion, resets and reports stay GRBL's (FluidNC follows GRBL
 * there); only the banner, `$I`, `$$` and writes to numbered settings differ.
 */

/**
 * Report.cpp report_init_message expands the Start/Message setting, default `Grbl \V [FluidNC \B (\X) \H]`
 * (SettingsDefinitions.cpp): grbl_version is the release tag without its last part (git-version.py).
 */
export const FLUIDNC_SIM_BANNER = "Grbl 3.9 [FluidNC v3.9.1 (esp32-wifi) '$' for help]";

/** FluidNC's log lines reach the serial port as `[MSG:INFO: …]` (Logging.h log_info). */
export const FLUIDNC_SIM_CHATTER = "[MSG:INFO: Machine PiClaw sim]";

/** Numbered settings FluidNC lists in `$$` (SettingsDefinitions.cpp make_proxies, plus $10 and $13). */
const INT_PROXIES = [20, 21, 22, 23, 30, 32];
const AXIS_PROXIES = [100, 101, 102, 110, 111, 112, 120, 121, 122, 130, 131, 132];

/** A FluidNC board whose config.yaml matches `profile` (the settings map stands for config.yaml). */
export function fluidncBoardFor(profile: RigProfile): GrblEeprom {
  const e = eepromConfiguredFor(profile);
  e.build.fluidnc = true;
  return e;
}

/**
 * FluidNC's answer to `$I`, `$$` and `$N=V` (upper-cased, no spaces), or null for anything else:
 * `$I` is Report.cpp report_build_info (`[VER:3.9 FluidNC v3.9.1 (…):]`, `[OPT:…]` without C/V letters,
 * `[MSG:Machine: …]`); `$$` lists `$13`, then the proxies (ProcessSettings.cpp report_normal_settings;
 * the order of a real board is not checked here); a write to a proxy is error:162 (ReadOnlySetting).
 */
export function fluidncCommand(
  cmd: string,
  eeprom: GrblEeprom,
): { lines: string[]; reply: "ok" | number } | null {
  const { settings } = eeprom;
  if (cmd === "$I")
    return {
      lines: ["[VER:3.9 FluidNC v3.9.1 (esp32-wifi) :]", "[OPT:PHSEW]", "[MSG:Machine: PiClaw sim]"],
      reply: "ok",
    };
  if (cmd === "$$") {
    const ints = INT_PROXIES.map((id) => `$${id}=${Math.round(settings.get(id) ?? 0)}`);
    const axes = AXIS_PROXIES.map((id) => `$${id}=${(settings.get(id) ?? 0).toFixed(3)}`);
    return { lines: ["$13=0", `$10=${settings.get(10) ?? 1}`, ...ints, ...axes], reply: "ok" };
  }
  // ProcessSettings.cpp: `$MD` is Motor/Disable (the driver's disableDrivers on FluidNC).
  if (cmd === "$MD") return { lines: [], reply: "ok" };
  const set = /^\$(\d+)=/.exec(cmd);
  if (set && [...INT_PROXIES, ...AXIS_PROXIES].includes(Number(set[1]))) return { lines: [], reply: 162 };
  return null;
}
