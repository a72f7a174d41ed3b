import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { loadConfig } from "../../../src/app/config/load.js";
import {
  configOverlayPath,
  mergeDocuments,
  readConfigOverlay,
  updateConfigOverlay,
} from "../../../src/app/config/overlay.js";
import { PiclawError } from "../../../src/util/errors.js";

let dir = "";
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

function setup(configYaml: string): { file: string; stateDir: string } {
  dir = mkdtempSync(join(tmpdir(), "piclaw-overlay-"));
  const stateDir = join(dir, "state");
  const file = join(dir, "piclaw.yaml");
  writeFileSync(file, `stateDir: ${stateDir}\n${configYaml}`);
  return { file, stateDir };
}

const load = (file: string) => loadConfig({ flagPath: file, env: {}, cwd: dir });

describe("the setup wizard's config overlay (<stateDir>/config-overlay.yaml)", () => {
  it("is merged over the file key by key, and the loaded config names it", () => {
    const { file, stateDir } = setup(
      "rig:\n  profile: corexy-fluidnc\n  baudRate: 250000\nlog:\n  level: debug\n",
    );
    expect(load(file).overlayPath).toBeUndefined();
    updateConfigOverlay(stateDir, { rig: { backend: "hardware", serialPath: "/dev/serial/by-id/usb-x" } });
    updateConfigOverlay(stateDir, { bridge: { enabled: true } });
    const loaded = load(file);
    expect(loaded.overlayPath).toBe(configOverlayPath(stateDir));
    expect(loaded.config.rig).toMatchObject({
      backend: "hardware",
      serialPath: "/dev/serial/by-id/usb-x",
      profile: "corexy-fluidnc",
      baudRate: 250000, // the file's, untouched
    });
    expect(loaded.config.bridge.enabled).toBe(true);
    expect(loaded.config.log.level).toBe("debug");
    expect(readFileSync(configOverlayPath(stateDir), "utf8")).toMatch(
      /^# Written by the PiClaw setup wizard/,
    );
  });

  it("refuses keys it does not own (stateDir, anything outside rig/bridge), naming the file", () => {
    const { file, stateDir } = setup("");
    updateConfigOverlay(stateDir, { rig: { backend: "sim" } });
    writeFileSync(configOverlayPath(stateDir), "stateDir: /elsewhere\n");
    const err = (() => {
      try {
        load(file);
      } catch (e) {
        return e;
      }
    })();
    expect(err).toBeInstanceOf(PiclawError);
    expect((err as PiclawError).code).toBe("CONFIG_INVALID");
    expect((err as PiclawError).message).toContain(configOverlayPath(stateDir));
    expect(() => updateConfigOverlay(stateDir, { rig: { backend: "gpio" as "sim" } })).toThrow();
  });

  it("is validated with the config: a value the schema refuses fails the load", () => {
    const { file, stateDir } = setup("");
    updateConfigOverlay(stateDir, { rig: { backend: "hardware" } });
    writeFileSync(configOverlayPath(stateDir), "rig:\n  profile: ''\n");
    expect(() => load(file)).toThrow(/invalid config overlay/);
    expect(readConfigOverlay(join(dir, "none"))).toBeNull();
  });

  it("mergeDocuments replaces leaves and arrays, merges objects, ignores undefined", () => {
    expect(mergeDocuments({ a: { b: 1, c: [1] }, d: 1 }, { a: { c: [2], e: 3 }, d: undefined })).toEqual({
      a: { b: 1, c: [2], e: 3 },
      d: 1,
    });
  });
});
