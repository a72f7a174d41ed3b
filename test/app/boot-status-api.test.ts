import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { bootStatusApiRoutes } from "../../src/app/boot-status-api.js";
import type { DashboardAuth } from "../../src/web/auth.js";

const servers: Server[] = [];
const dirs: string[] = [];
afterEach(() => {
  for (const s of servers.splice(0)) s.close();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const denyAll = {
  check: () => ({ ok: false, status: 401, message: "log in" }),
  checkAction: () => ({ ok: false, status: 401, message: "log in" }),
} as unknown as DashboardAuth;

async function serve(paths: { bootSettings: string; network: string }): Promise<string> {
  const handler = bootStatusApiRoutes({ auth: denyAll, cliToken: "cli-secret", paths })["/api/boot-status"];
  const server = createServer((req, res) => void handler?.(req, res));
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/boot-status`;
}

describe("GET /api/boot-status", () => {
  it("shows a wrong Wi-Fi password and the boot settings, to an authorised caller only", async () => {
    const dir = mkdtempSync(join(tmpdir(), "piclaw-boot-status-"));
    dirs.push(dir);
    const network = {
      version: 1,
      updatedAt: "2026-11-25T18:00:00Z",
      wifi: {
        configured: true,
        ssid: "Lab",
        device: true,
        state: "wrong-password",
        ipv4: null,
        detail: "rejected",
      },
      ethernet: { up: true, ipv4: "10.0.0.5" },
    };
    writeFileSync(join(dir, "network.json"), JSON.stringify(network));
    writeFileSync(join(dir, "status.json"), "{not json");
    const url = await serve({ bootSettings: join(dir, "status.json"), network: join(dir, "network.json") });
    expect((await fetch(url)).status).toBe(401);
    const res = await fetch(url, { headers: { authorization: "Bearer cli-secret" } });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ bootSettings: null, network });
  });
});
