import { describe, expect, it } from "vitest";
import { PageClient } from "../../bridge/helpers.js";
import { spawnProjectBin, tempConfig, waitFor } from "../../helpers/process.js";

const parseLines = (text: string) =>
  text
    .split("\n")
    .filter((l) => l.startsWith("{"))
    .map((l) => JSON.parse(l) as Record<string, unknown>);

describe("piclaw bridge pair + the daemon's bridge", () => {
  it("pairs a phone with the running daemon using a code from another process", async () => {
    const { configPath } = tempConfig(
      (d) => `stateDir: ${d}\nserver: { port: 0 }\nbridge: { enabled: true, host: 127.0.0.1, port: 0 }\n`,
    );
    const daemon = spawnProjectBin("bin/piclaw.js", ["start", "--config", configPath], { PICLAW_CONFIG: "" });
    try {
      const line = await waitFor(
        () => parseLines(daemon.stdout()).find((l) => l.msg === "bridge serving"),
        "the bridge serving log line",
      );
      const page = new PageClient(String(line.url));
      expect((await page.poll()).status).toBe(401);

      const pair = spawnProjectBin("bin/piclaw.js", ["bridge", "pair", "--config", configPath], {
        PICLAW_CONFIG: "",
      });
      expect((await pair.exit).code, pair.stderr()).toBe(0);
      const code = /[2-9A-Z]{4}-[2-9A-Z]{4}/.exec(pair.stdout())?.[0] ?? "";
      expect(code).not.toBe("");
      expect((await page.pair(code)).status).toBe(200);
      expect((await page.poll()).status).toBe(200);

      const devices = spawnProjectBin("bin/piclaw.js", ["bridge", "devices", "--config", configPath], {
        PICLAW_CONFIG: "",
      });
      await devices.exit;
      expect(devices.stdout()).toMatch(/^[0-9a-f]{8} {2}\d{4}-/m);
    } finally {
      daemon.child.kill("SIGTERM");
      await daemon.exit;
    }
    expect(daemon.stdout()).not.toContain("pcb_");
    // A daemon and CLI processes started and stopped: over vitest's 30 s default at load ~25.
  }, 180_000);
});
