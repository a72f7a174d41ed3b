import type { RigProfile } from "../profile.js";
import { expectedGrblSettings, type SettingMismatch } from "./settings.js";

/**
 * The settings check on FluidNC (bdring/FluidNC). FluidNC keeps its machine in config.yaml, not in GRBL's
 * numbered EEPROM settings, but for senders it lists read-only numbered "proxies" of that config in `$$`
 * (`$$` is `$GrblSettings/List`, ProcessSettings.cpp `report_normal_settings`; the proxies are made in
 * SettingsDefinitions.cpp `make_proxies`): `$10` (a real setting, Report/Status), `$20`–`$23`, `$30`,
 * `$32`, and per axis `$100+`, `$110+`, `$120+`, `$130+`, each derived from the config (`%.3f` for the
 * axis values). Writing a proxy answers `error:162` (Settings.h FloatProxySetting/IntProxySetting:
 * ReadOnlySetting), so a mismatch is fixed in config.yaml, not with `$N=V`.
 */

/** Where FluidNC's config.yaml keeps what each numbered proxy shows (for the operator's fix). */
const CONFIG_KEYS: Record<number, string> = {
  10: "$Report/Status=1 (a real setting: `piclaw rig settings --apply` may not, send it by hand)",
  20: "axes/x|y/soft_limits",
  21: "axes/x|y/motor0/limit_*_pin (hard limits)",
  22: "axes/x|y/homing/cycle",
  30: "the spindle's speed_map (its top speed)",
  32: "the spindle type (a Laser spindle is laser mode)",
  100: "axes/x/steps_per_mm",
  101: "axes/y/steps_per_mm",
  110: "axes/x/max_rate_mm_per_min",
  111: "axes/y/max_rate_mm_per_min",
  120: "axes/x/acceleration_mm_per_sec2",
  121: "axes/y/acceleration_mm_per_sec2",
  130: "axes/x/max_travel_mm",
  131: "axes/y/max_travel_mm",
};

/** Relative tolerance (FluidNC prints the axis proxies with 3 decimals). */
const TOLERANCE = 1e-3;

/**
 * Every difference between FluidNC's `$$` and what the profile implies, on the keys FluidNC reports.
 * A key FluidNC did not list (an older release) is not a mismatch: it lands in `unchecked`.
 */
export function compareFluidncSettings(
  profile: RigProfile,
  board: ReadonlyMap<number, number>,
): { mismatches: SettingMismatch[]; unchecked: string[] } {
  const mismatches: SettingMismatch[] = [];
  const unchecked: string[] = [];
  for (const e of expectedGrblSettings(profile)) {
    const where = CONFIG_KEYS[e.id];
    if (!where) continue; // not a FluidNC proxy: see fluidncNotApplicable
    const v = board.get(e.id);
    if (v === undefined) {
      unchecked.push(`$${e.id} (${e.meaning}): this FluidNC did not list it in $$ — check ${where}`);
      continue;
    }
    const ok =
      e.id === 10 ? (v & 1) === 1 : Math.abs(v - e.value) <= TOLERANCE * Math.max(1, Math.abs(e.value));
    if (!ok)
      mismatches.push({
        key: `$${e.id}`,
        board: String(v),
        expected: String(e.value),
        meaning: `${e.meaning}; on FluidNC set ${where} in config.yaml`,
      });
  }
  return { mismatches, unchecked };
}

/** The checks of a GRBL board that do not apply to FluidNC, each with why (shown by `piclaw rig settings`). */
export function fluidncNotApplicable(profile: RigProfile): string[] {
  const out = [
    "$31 (min spindle S): FluidNC has no such setting; the spindle's speed_map in config.yaml maps S to PWM " +
      "(hold power must stay below strike power there)",
    "$I build options (CoreXY, variable spindle): FluidNC's [OPT:] letters do not carry them; kinematics " +
      "(`kinematics: CoreXY:`) and the PWM spindle are chosen in config.yaml — check them there",
    "startup blocks ($N0/$N1): not read on FluidNC (harmless either way: PiClaw sends G21 G90 G94 before G92)",
    "`piclaw rig settings --apply`: FluidNC's numbered settings are read-only views of config.yaml " +
      "(error:162); edit config.yaml, upload it and restart the board",
  ];
  if (profile.homing.endstops)
    out.push(
      "$23/$25/$27 (homing direction, seek rate, pull-off): per axis under axes/*/homing in config.yaml",
    );
  return out;
}
