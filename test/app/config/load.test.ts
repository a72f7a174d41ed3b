import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadConfig, parseConfig } from "../../../src/app/config/load.js";
import { PiclawError } from "../../../src/util/errors.js";

function tempFile(name: string, text: string): string {
  const dir = mkdtempSync(join(tmpdir(), "piclaw-config-"));
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

function failure(fn: () => unknown): PiclawError {
  try {
    fn();
  } catch (err) {
    if (err instanceof PiclawError) return err;
    throw err;
  }
  throw new Error("expected a PiclawError");
}

describe("config", () => {
  it("fills every default from the schema", () => {
    const config = parseConfig({});
    expect(config.server).toEqual({ host: "127.0.0.1", port: 8048 });
    expect(config.sim.camera.glare.enabled).toBe(false);
    expect(config.sim.phone.locale).toBe("en");
  });

  it("names the key path and reason of an invalid value", () => {
    const err = failure(() => parseConfig({ server: { port: 70000 } }));
    expect(err.code).toBe("CONFIG_INVALID");
    expect(err.details.path).toBe("server.port");
    expect(err.message).toMatch(/server\.port: .*65535/);
  });

  it("rejects unknown keys, naming them", () => {
    const err = failure(() => parseConfig({ sim: { camra: {} } }));
    expect(err.details.path).toBe("sim.camra");
    expect(err.message).toContain("unknown key");
  });

  it("names array elements in the path", () => {
    const err = failure(() =>
      parseConfig({ sim: { phone: { notifications: [{ afterSeconds: 1, from: "A" }] } } }),
    );
    expect(err.details.path).toBe("sim.phone.notifications[0].text");
  });

  it("never echoes a bad passcode value back", () => {
    const err = failure(() => parseConfig({ sim: { phone: { passcode: "12ab9" } } }));
    expect(err.details.path).toBe("sim.phone.passcode");
    expect(err.message).not.toContain("12ab9");
  });

  it("reads YAML from --config, which wins over PICLAW_CONFIG", () => {
    const flag = tempFile("a.yaml", "server:\n  port: 9000\n");
    const env = tempFile("b.yaml", "server:\n  port: 9001\n");
    const loaded = loadConfig({ flagPath: flag, env: { PICLAW_CONFIG: env, HOME: "/home/u" }, cwd: "/" });
    expect(loaded.config.server.port).toBe(9000);
    expect(loaded.path).toBe(flag);
    expect(loadConfig({ env: { PICLAW_CONFIG: env, HOME: "/home/u" }, cwd: "/" }).config.server.port).toBe(
      9001,
    );
  });

  it("reports YAML syntax errors with the file and line", () => {
    const path = tempFile("bad.yaml", "server:\n  port: [1, 2\n");
    const err = failure(() => loadConfig({ flagPath: path, env: {}, cwd: "/" }));
    expect(err.code).toBe("CONFIG_INVALID");
    expect(err.message).toContain(path);
  });

  it("reports a missing file clearly", () => {
    const err = failure(() => loadConfig({ flagPath: "/nonexistent/piclaw.yaml", env: {}, cwd: "/" }));
    expect(err.code).toBe("CONFIG_UNREADABLE");
  });

  it("picks the state directory: config, systemd, then ~/.piclaw", () => {
    const base = { env: { HOME: "/home/u" }, cwd: "/srv" };
    expect(loadConfig(base).stateDir).toBe("/home/u/.piclaw");
    expect(loadConfig({ ...base, env: { HOME: "/home/u", INVOCATION_ID: "x" } }).stateDir).toBe(
      "/var/lib/piclaw",
    );
    expect(
      loadConfig({ ...base, env: { STATE_DIRECTORY: "/var/lib/pc", INVOCATION_ID: "x" } }).stateDir,
    ).toBe("/var/lib/pc");
    const path = tempFile("s.yaml", "stateDir: ~/custom\n");
    expect(loadConfig({ ...base, flagPath: path }).stateDir).toBe("/home/u/custom");
  });
});
