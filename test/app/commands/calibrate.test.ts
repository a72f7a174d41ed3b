import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readBundle } from "../../../src/calibration/bundle.js";
import { spawnProjectBin, tempConfig } from "../../helpers/process.js";

/**
 * `piclaw calibrate` end to end, as a user runs it: the built CLI (run `npm run build` first) against the
 * default simulated rig, whose phone lies 50 mm from the travel centre the search starts at.
 */
describe("piclaw calibrate", () => {
  it("calibrates, writes the bundle, re-checks it, and fails the check once the phone moved", async () => {
    const config = (d: string, pose = "") =>
      `stateDir: ${d}\nsim: { phone: { passcode: "975310" }${pose} }\n`;
    const { dir, configPath } = tempConfig((d) => config(d));
    const run = spawnProjectBin("bin/piclaw.js", ["calibrate", "--config", configPath], {
      PICLAW_CONFIG: "",
    });
    const { code } = await run.exit;
    const out = run.stdout();
    expect(run.stderr()).toBe("");
    expect(code).toBe(0);
    expect(out).toMatch(/pattern shown: 5×9 dots/);
    expect(out).toMatch(/45\/45 markers found/);
    expect(out).toMatch(/camera reprojection error: rms \d+\.\d+ px \(\d+\.\d+ mm\)/);
    expect(out).toMatch(/search tap \d+ at .*off the screen/);
    expect(out).toMatch(/bootstrap tap 3\/3/);
    expect(out).toMatch(/grid 24\/24/);
    expect(out).toMatch(/arm fit: 2\d\/2\d taps inliers, residual rms/);
    expect(out.match(/validation tap \d\/5 .* error \d+\.\d+ mm ok/g)).toHaveLength(5);
    expect(out).toMatch(/^PASS: /m);
    const bundlePath = join(dir, "calibration", "bundle.json");
    expect(out).toContain(`calibration written to ${bundlePath}`);
    const bundle = readBundle(bundlePath);
    expect(bundle).toMatchObject({ version: 1, rigProfile: "corexy-fluidnc", validation: { passed: true } });
    expect(bundle.camera).toMatchObject({ width: 2304, height: 1296 });
    expect(out + run.stderr()).not.toContain("975310");

    const check = spawnProjectBin("bin/piclaw.js", ["calibrate", "--check", "--config", configPath]);
    expect((await check.exit).code).toBe(0);
    expect(check.stdout()).toMatch(/stored camera map vs fresh markers/);
    expect(check.stdout()).toMatch(/^PASS: /m);

    // Nudge the phone 2 mm along the bed (the camera stays where it was): the stored maps are now wrong.
    writeFileSync(configPath, config(dir, ", pose: { centerXMm: 152 }, camera: { offsetXMm: -2 }"));
    const moved = spawnProjectBin("bin/piclaw.js", ["calibrate", "--check", "--config", configPath]);
    expect((await moved.exit).code).toBe(1);
    expect(moved.stdout()).toMatch(/validation tap \d\/5 .* MISS/);
    expect(moved.stdout()).toMatch(/failure: camera map off by rms/);
    expect(moved.stdout()).toMatch(/^FAIL: /m);
    // The check writes nothing.
    expect(readFileSync(bundlePath, "utf8")).toBe(`${JSON.stringify(bundle, null, 2)}\n`);
  }, 120_000);

  it("--check with a corrupt bundle fails fast naming the problem", async () => {
    const { dir, configPath } = tempConfig((d) => `stateDir: ${d}\n`);
    const missing = spawnProjectBin("bin/piclaw.js", ["calibrate", "--check", "--config", configPath]);
    expect((await missing.exit).code).toBe(1);
    expect(missing.stderr()).toMatch(/CALIBRATION_BUNDLE_MISSING.*piclaw calibrate/);

    mkdirSync(join(dir, "calibration"));
    writeFileSync(join(dir, "calibration", "bundle.json"), '{"version": 1, "createdAt": "yesterday"}');
    const corrupt = spawnProjectBin("bin/piclaw.js", ["calibrate", "--check", "--config", configPath]);
    expect((await corrupt.exit).code).toBe(1);
    expect(corrupt.stderr()).toMatch(/CALIBRATION_BUNDLE_INVALID.*createdAt/);
  });
});
