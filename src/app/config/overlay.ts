import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parse as parseYaml, stringify as toYaml } from "yaml";
import { z } from "zod";
import { writeFileAtomic } from "../../util/atomic-file.js";
import { errorMessage, PiclawError } from "../../util/errors.js";

/**
 * The config overlay: the few keys the setup wizard (`/setup`) decides, kept in the state directory
 * (`<stateDir>/config-overlay.yaml`) rather than in the config file, which on the appliance is read-only
 * to the service (`/etc/piclaw`, ProtectSystem=strict) and belongs to the owner. At load it is merged
 * over the file's document, key by key, before the whole is validated. It can never move the state
 * directory (it lives there). Delete the file to go back to the config file alone.
 */

export const CONFIG_OVERLAY_FILE = "config-overlay.yaml";

export const configOverlaySchema = z.strictObject({
  rig: z
    .strictObject({
      backend: z.enum(["sim", "hardware"]).optional(),
      profile: z.string().min(1).optional(),
      serialPath: z.string().min(1).optional(),
    })
    .optional(),
  bridge: z.strictObject({ enabled: z.boolean().optional() }).optional(),
});

export type ConfigOverlay = z.infer<typeof configOverlaySchema>;

export function configOverlayPath(stateDir: string): string {
  return join(stateDir, CONFIG_OVERLAY_FILE);
}

/** The overlay in `stateDir`, or null when there is none. Throws CONFIG_INVALID naming the file. */
export function readConfigOverlay(stateDir: string): ConfigOverlay | null {
  const path = configOverlayPath(stateDir);
  if (!existsSync(path)) return null;
  let doc: unknown;
  try {
    doc = parseYaml(readFileSync(path, "utf8"));
  } catch (err) {
    throw new PiclawError("CONFIG_INVALID", `${path}: not valid YAML: ${errorMessage(err)}`, { path });
  }
  const result = configOverlaySchema.safeParse(doc ?? {});
  if (!result.success) {
    const summary = result.error.issues.map((i) => `${i.path.join(".") || "(root)"}: ${i.message}`);
    throw new PiclawError(
      "CONFIG_INVALID",
      `${path}: invalid config overlay: ${summary.join("; ")} (fix or delete the file; the setup wizard writes it)`,
      { path },
    );
  }
  return result.data;
}

/**
 * Merge `patch` into the overlay in `stateDir` and write it atomically (a reader sees the old or the
 * new file, never half of one). Returns the overlay now on disk.
 */
export function updateConfigOverlay(stateDir: string, patch: ConfigOverlay): ConfigOverlay {
  const merged = configOverlaySchema.parse(mergeDocuments(readConfigOverlay(stateDir) ?? {}, patch));
  writeFileAtomic(
    configOverlayPath(stateDir),
    `# Written by the PiClaw setup wizard; merged over the config file at start.\n${toYaml(merged)}`,
  );
  return merged;
}

/** `over` merged into `base`: objects key by key, anything else replaced. Neither input is changed. */
export function mergeDocuments(base: unknown, over: unknown): unknown {
  if (!isPlainObject(base) || !isPlainObject(over)) return over === undefined ? base : over;
  const out: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(over)) {
    if (value !== undefined) out[key] = mergeDocuments(base[key], value);
  }
  return out;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}
