import { readFileSync } from "node:fs";
import { z } from "zod";
import type { RawHandler } from "../http/server.js";
import type { DashboardAuth } from "../web/auth.js";
import { refusal, send } from "./agent-api.js";
import { readBootStatus } from "./boot/status.js";

/** Where the SD image's boot helpers leave their status (image-build/README.md, "Status files"). */
export const BOOT_STATUS_PATHS = {
  bootSettings: "/var/lib/piclaw-boot/status.json",
  network: "/run/piclaw/network.json",
};

/** `/run/piclaw/network.json` (written by piclaw-network-status on the image), schema version 1. */
const networkStatusSchema = z.object({
  version: z.literal(1),
  updatedAt: z.string(),
  wifi: z.object({
    configured: z.boolean(),
    ssid: z.string().nullable(),
    device: z.boolean(),
    state: z.enum(["not-configured", "no-device", "connecting", "connected", "wrong-password", "not-found"]),
    ipv4: z.string().nullable(),
    detail: z.string().nullable(),
  }),
  ethernet: z.object({ up: z.boolean(), ipv4: z.string().nullable() }),
});

export interface BootStatusApiDeps {
  auth: DashboardAuth;
  cliToken: string;
  /** Default BOOT_STATUS_PATHS. */
  paths?: typeof BOOT_STATUS_PATHS;
}

/**
 * `GET /api/boot-status`: what the card did with the boot partition's settings files and whether
 * Wi-Fi joined (a wrong password shows as `wifi.state: "wrong-password"`), for the dashboard and the
 * setup wizard. Each part is null where the file is missing or invalid (not an SD image, or not
 * written yet). Same access rules as the other daemon APIs.
 */
export function bootStatusApiRoutes(deps: BootStatusApiDeps): Record<string, RawHandler> {
  const paths = deps.paths ?? BOOT_STATUS_PATHS;
  return {
    "/api/boot-status": async (req, res) => {
      if (req.method !== "GET")
        return send(res, 405, { error: "use GET", code: "METHOD_NOT_ALLOWED" }, { allow: "GET" });
      const denied = refusal(req, "GET", deps);
      if (denied) return send(res, denied.status, { error: denied.message, code: "UNAUTHORIZED" });
      send(res, 200, {
        bootSettings: readBootStatus(paths.bootSettings),
        network: readNetwork(paths.network),
      });
    },
  };
}

function readNetwork(path: string): z.infer<typeof networkStatusSchema> | null {
  try {
    const parsed = networkStatusSchema.safeParse(JSON.parse(readFileSync(path, "utf8")));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}
