import { readFileSync } from "node:fs";
import { z } from "zod";

/**
 * The boot-settings status file, `/var/lib/piclaw-boot/status.json` (0644): what `piclaw-boot-settings`
 * did with each settings file it found on the boot partition at the last boot. Written by
 * src/app/boot/main.ts (root), read by the dashboard. Schema version 1:
 * ```json
 * { "version": 1, "updatedAt": "2026-11-25T18:00:00.000Z",
 *   "sources": [ { "file": "network-config", "format": "cloud-init",
 *                  "state": "applied", "applied": ["wifi Home"], "ignored": [], "errors": [] } ] }
 * ```
 * `state`: `applied` (this boot), `unchanged` (applied at an earlier boot, file unchanged since),
 * `rejected` (an error; nothing from this file was applied; `errors` says why), `left-to-os` (the OS
 * applies it itself: cloud-init or raspberrypi-sys-mods on Raspberry Pi OS).
 */
export const bootSourceSchema = z.object({
  file: z.string(),
  format: z.enum(["cloud-init", "firstrun.sh", "custom.toml", "piclaw.txt"]),
  state: z.enum(["applied", "unchanged", "rejected", "left-to-os"]),
  applied: z.array(z.string()),
  ignored: z.array(z.string()),
  errors: z.array(z.string()),
});

export type BootSource = z.infer<typeof bootSourceSchema>;

export const bootStatusSchema = z.object({
  version: z.literal(1),
  updatedAt: z.string(),
  sources: z.array(bootSourceSchema),
});

export type BootStatus = z.infer<typeof bootStatusSchema>;

/** The status file's content, or null when it is missing or not valid (never throws). */
export function readBootStatus(path: string): BootStatus | null {
  try {
    const parsed = bootStatusSchema.safeParse(JSON.parse(readFileSync(path, "utf8")));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}
