import { expectedGrblSettings } from "../../rig/grbl/settings.js";
import type { RigProfile } from "../../rig/profile.js";

/**
 * What a GRBL 1.1h board keeps in EEPROM across resets and power cycles: the `$` settings, the two
 * startup blocks `$N0`/`$N1`, and the compile-time build options `$I` reports. A board from the factory
 * has the generic defaults below, not anything a rig profile says; a test or the simulated appliance
 * seeds other values the way a person would (`$100=80` … or `piclaw rig settings --apply`).
 */

/** A GRBL setting the simulator reports in `$$` and accepts in `$N=V`. */
export type GrblSettings = Map<number, number>;

/**
 * Factory settings of GRBL 1.1h (gnea/grbl `grbl/defaults.h`, `DEFAULTS_GENERIC`, the build's default):
 * 250 steps/mm, 500 mm/min, 10 mm/s² (`10*60*60` mm/min²), 200 mm travel, no limits or homing,
 * $30=1000, laser mode off, status mask 1 (MPos).
 */
const FACTORY: readonly (readonly [number, number])[] = [
  [0, 10],
  [1, 25],
  [2, 0],
  [3, 0],
  [4, 0],
  [5, 0],
  [6, 0],
  [10, 1],
  [11, 0.01],
  [12, 0.002],
  [13, 0],
  [20, 0],
  [21, 0],
  [22, 0],
  [23, 0],
  [24, 25],
  [25, 500],
  [26, 250],
  [27, 1],
  [30, 1000],
  [31, 0],
  [32, 0],
  [100, 250],
  [101, 250],
  [102, 250],
  [110, 500],
  [111, 500],
  [112, 500],
  [120, 10],
  [121, 10],
  [122, 10],
  [130, 200],
  [131, 200],
  [132, 200],
];

/** Compile-time options (gnea/grbl `grbl/config.h`); `$I` lists them (`report.c` `report_build_info`). */
export interface GrblBuild {
  /** `#define COREXY`: `$I` says `C`. Off in the stock build. */
  coreXY: boolean;
  /** The board runs FluidNC, not GRBL 1.1h: its banner, `$I` and `$$` (grbl-fluidnc.ts). */
  fluidnc?: boolean;
}

/** One board's non-volatile memory. Shared by the simulator across resets and re-plugs (power cycles). */
export class GrblEeprom {
  readonly settings: GrblSettings = new Map(FACTORY.map(([k, v]) => [k, v]));
  /** `$N0`, `$N1`: blocks GRBL runs after every reset that does not end in an alarm lock. */
  readonly startup: [string, string] = ["", ""];
  readonly build: GrblBuild;

  constructor(build: Partial<GrblBuild> = {}) {
    this.build = { coreXY: false, ...build };
  }

  /** Overwrite settings (as `$N=V` lines typed by a person would); returns this for chaining. */
  seed(values: Iterable<readonly [number, number]>): this {
    for (const [k, v] of values) this.settings.set(k, v);
    return this;
  }
}

/** Format a setting value as GRBL prints it (integers bare, reals with 3 decimals). */
export function formatSetting(value: number): string {
  return Number.isInteger(value) ? String(value) : value.toFixed(3);
}

/**
 * The `$` commands that only read or write EEPROM: `$` (help), `$$`, `$I`, `$N`, `$N0=…`, `$x=V`.
 * Returns the lines to print and the reply, or null when `cmd` (upper-cased, spaces removed, as GRBL's
 * protocol loop hands it over) is not one of them. `busy`: motion is queued or running.
 */
export function eepromCommand(
  cmd: string,
  eeprom: GrblEeprom,
  busy: boolean,
): { lines: string[]; reply: "ok" | number } | null {
  const { settings } = eeprom;
  const reply = (code: "ok" | number, lines: string[] = []) => ({ lines, reply: code });
  if (cmd === "$")
    return reply("ok", ["[HLP:$$ $# $G $I $N $x=val $Nx=line $J=line $SLP $C $X $H ~ ! ? ctrl-x]"]);
  if (cmd === "$$")
    return reply(
      "ok",
      [...settings].map(([id, v]) => `$${id}=${formatSetting(v)}`),
    );
  if (cmd === "$I") {
    // report.c report_build_info: `[VER:<version>.<build>:<user string>]`, then the options, the
    // usable planner blocks (BLOCK_BUFFER_SIZE-1 = 15) and the RX buffer size (128).
    const opt = `V${eeprom.build.coreXY ? "C" : ""}`;
    return reply("ok", ["[VER:1.1h.20190825:]", `[OPT:${opt},15,128]`]);
  }
  if (cmd === "$N")
    return reply(
      "ok",
      eeprom.startup.map((l, i) => `$N${i}=${l}`),
    );
  const startup = /^\$N([01])=(.*)$/.exec(cmd);
  if (startup) {
    if (busy) return reply(8);
    eeprom.startup[Number(startup[1]) as 0 | 1] = startup[2] ?? "";
    return reply("ok");
  }
  const set = /^\$(\d+)=(.*)$/.exec(cmd);
  if (!set) return null;
  const id = Number(set[1]);
  const value = Number(set[2]);
  if (!settings.has(id)) return reply(3);
  if (set[2] === "" || !Number.isFinite(value)) return reply(2);
  if (value < 0) return reply(4);
  if (busy) return reply(8);
  // settings.c: soft limits need homing (STATUS_SOFT_LIMIT_ERROR): only a homed origin knows the travel.
  if (id === 20 && value === 1 && settings.get(22) !== 1) return reply(10);
  settings.set(id, value);
  return reply("ok");
}

/**
 * A board as its owner left it after `piclaw rig settings --apply`: built for the profile's kinematics,
 * every setting the profile implies written to EEPROM. What the simulated appliance plugs in.
 */
export function eepromConfiguredFor(profile: RigProfile): GrblEeprom {
  return new GrblEeprom({ coreXY: profile.kinematics === "corexy" }).seed(
    expectedGrblSettings(profile).map((e) => [e.id, e.value] as const),
  );
}
