import { readFileSync } from "node:fs";
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

/** Where the loader runs; injectable so every refusal is testable on any machine. */
export interface PigpioHost {
  importer?: ModuleImporter;
  platform?: string;
  arch?: string;
  /** The board model (`/proc/device-tree/model`), or null when unknown. */
  model?: () => string | null;
}

function boardModel(): string | null {
  try {
    return readFileSync("/proc/device-tree/model", "utf8").replace(/\0/g, "").trim();
  } catch {
    return null;
  }
}

/**
 * The real pigpio module (Pi Zero–4 only); throws MOTION_GPIO_UNAVAILABLE anywhere else. The platform is
 * checked before importing because pigpio's addon may half-load (or touch /dev/mem) on the wrong machine.
 */
export async function loadPigpio(host: PigpioHost = {}): Promise<PigpioLike> {
  const platform = host.platform ?? process.platform;
  const arch = host.arch ?? process.arch;
  if (platform !== "linux" || (arch !== "arm" && arch !== "arm64")) {
    throw new PiclawError("MOTION_GPIO_UNAVAILABLE", `pigpio cannot run on ${platform}/${arch}. ${PI_ONLY}`, {
      module: "pigpio",
    });
  }
  const model = (host.model ?? boardModel)();
  if (model && /Raspberry Pi 5|Compute Module 5/i.test(model)) {
    throw new PiclawError(
      "MOTION_GPIO_UNAVAILABLE",
      `pigpio does not support this board (${model}). ${PI_ONLY}`,
      {
        module: "pigpio",
        model,
      },
    );
  }
  const importer = host.importer ?? defaultImporter;
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
