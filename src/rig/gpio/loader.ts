import { errorMessage, PiclawError } from "../../util/errors.js";
import type { OnoffLike, PigpioLike } from "./pigpio-types.js";

const PI_ONLY =
  "pigpio only runs on Raspberry Pi OS on a Pi Zero–4; on a Pi 5 use a GRBL/FluidNC board (profile backend: grbl)";

/** How a module is imported; injectable so the failure path is testable where the module does load. */
export type ModuleImporter = (specifier: string) => Promise<unknown>;

// A variable specifier keeps TypeScript from resolving the optional modules (they have no types here).
const defaultImporter: ModuleImporter = (specifier) => import(specifier);

/** CommonJS modules arrive under `default` when imported from ESM; accept either shape. */
function unwrap(mod: unknown): Record<string, unknown> | null {
  if (!mod || typeof mod !== "object") return null;
  const record = mod as Record<string, unknown>;
  const inner = record.default;
  if (typeof record.Gpio !== "function" && inner && typeof inner === "object") {
    return inner as Record<string, unknown>;
  }
  return record;
}

async function load(name: string, required: readonly string[], importer: ModuleImporter): Promise<unknown> {
  let mod: Record<string, unknown> | null;
  try {
    mod = unwrap(await importer(name));
  } catch (err) {
    throw new PiclawError(
      "MOTION_GPIO_UNAVAILABLE",
      `cannot load ${name}: ${errorMessage(err)}. ${PI_ONLY}`,
      {
        module: name,
      },
    );
  }
  const missing = required.filter((key) => typeof mod?.[key] !== "function");
  if (!mod || missing.length > 0) {
    throw new PiclawError(
      "MOTION_GPIO_UNAVAILABLE",
      `${name} lacks ${missing.join(", ") || "its exports"}. ${PI_ONLY}`,
      { module: name },
    );
  }
  return mod;
}

/** The real pigpio module (Pi Zero–4 only); throws MOTION_GPIO_UNAVAILABLE anywhere else. */
export async function loadPigpio(importer: ModuleImporter = defaultImporter): Promise<PigpioLike> {
  const required = ["Gpio", "initialize", "terminate", "waveClear", "waveAddGeneric", "waveCreate"];
  return (await load(
    "pigpio",
    [...required, "waveTxSend", "waveTxStop", "waveTxAt"],
    importer,
  )) as PigpioLike;
}

/** The real onoff module (sysfs GPIO inputs); throws MOTION_GPIO_UNAVAILABLE where it cannot load. */
export async function loadOnoff(importer: ModuleImporter = defaultImporter): Promise<OnoffLike> {
  return (await load("onoff", ["Gpio"], importer)) as OnoffLike;
}
