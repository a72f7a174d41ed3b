import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { doctorCommand } from "../../src/app/commands/doctor.js";
import { loadConfig } from "../../src/app/config/load.js";
import { writeBundle } from "../../src/calibration/bundle.js";
import { Logger } from "../../src/log/logger.js";
import { systemClock } from "../../src/util/clock.js";
import { sampleBundle } from "./doctor-fixtures.js";

const quiet = Logger.create({
  level: "error",
  format: "json",
  sink: { write: () => undefined },
  now: () => 0,
});

function configIn(dir: string, stateDir: string): ReturnType<typeof loadConfig> {
  const path = join(dir, "piclaw.yaml");
  writeFileSync(path, `stateDir: ${stateDir}\nserver: { port: 0 }\n`);
  return loadConfig({ flagPath: path, env: {}, cwd: dir });
}

async function doctor(stateDir: string, dir: string) {
  const out: string[] = [];
  const code = await doctorCommand(configIn(dir, stateDir), {
    clock: systemClock,
    log: quiet,
    write: (t) => out.push(t),
    ntpSynchronized: async () => "yes",
    env: {},
  });
  const text = out.join("");
  const statusOf = (name: string) => new RegExp(`^(OK|WARN|FAIL) +${name}:`, "m").exec(text)?.[1];
  return { code, text, statusOf };
}

describe("piclaw doctor on the simulated rig", () => {
  it("all good: rig, camera, calibration, models, state and disk OK; only the provider without an API key WARNs", async () => {
    const dir = mkdtempSync(join(tmpdir(), "piclaw-doctor-"));
    const stateDir = join(dir, "state");
    writeBundle(stateDir, sampleBundle(Date.now() - 3_600_000));
    const { code, text, statusOf } = await doctor(stateDir, dir);
    expect(code, text).toBe(0);
    for (const name of [
      "daemon",
      "state dir",
      "disk space",
      "motion",
      "camera",
      "calibration",
      "vision models",
      "clock",
    ])
      expect(statusOf(name), `${name}\n${text}`).toBe("OK");
    expect(statusOf("provider")).toBe("WARN");
    expect(text).toMatch(
      /^WARN provider: the built-in agent is off: no API key: set OPENAI_API_KEY.*\n {5}fix: /m,
    );
    expect(text).toMatch(/camera: simulated camera .* streaming 2304×1296/);
    expect(text).toMatch(/motion: idle, homed/);
  });

  it("a state dir that cannot be written makes it FAIL and exit 1", async () => {
    const dir = mkdtempSync(join(tmpdir(), "piclaw-doctor-"));
    const file = join(dir, "file");
    writeFileSync(file, "x");
    const { code, statusOf } = await doctor(join(file, "state"), dir);
    expect(statusOf("state dir")).toBe("FAIL");
    expect(code).toBe(1);
  });
});
