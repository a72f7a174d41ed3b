import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { readHomographyFile } from "../../../src/app/commands/listing.js";
import { realCameraFrame } from "../../../src/lab/real/camera.js";
import { spawnProjectBin } from "../../helpers/process.js";
import { makePhone, PASSCODE } from "../../sim/phone/helpers.js";
import { sampleBundle } from "../doctor-fixtures.js";

/**
 * `piclaw listing` as a user runs it (the built CLI; `npm run build` first): the simulated phone's home
 * screen as a screenshot, and the same screen filmed by the simulated camera read through a calibration
 * bundle or a bare homography file. The home screen's app names are text rows the OCR reads reliably.
 */
const dir = mkdtempSync(join(tmpdir(), "piclaw-listing-"));
const path = (name: string): string => join(dir, name);
const run = async (args: string[]) => {
  const child = spawnProjectBin("bin/piclaw.js", ["listing", ...args], { PICLAW_CONFIG: "" });
  const { code } = await child.exit;
  return { code, out: child.stdout(), err: child.stderr() };
};
interface JsonListing {
  image: string;
  entries: { id: number; kind: string; label: string; box: number[]; conf: number }[];
}

beforeAll(async () => {
  const { phone, finger } = makePhone();
  writeFileSync(path("lock.png"), await phone.screenshot());
  finger.unlock(PASSCODE);
  const home = await phone.screenshot();
  writeFileSync(path("home.png"), home);
  const shot = await realCameraFrame(home);
  writeFileSync(path("frame.jpg"), shot.frame);
  writeFileSync(path("h.json"), JSON.stringify({ screenToCamera: shot.screenToCamera }));
  const bundle = sampleBundle(Date.UTC(2026, 10, 25));
  writeFileSync(
    path("bundle.json"),
    JSON.stringify({ ...bundle, camera: { ...bundle.camera, screenToCamera: shot.screenToCamera } }),
  );
  writeFileSync(path("notes.txt"), "not a picture\n");
  writeFileSync(path("bad-h.json"), JSON.stringify({ screenToCamera: [1, 0, 0, 0, 1, 0, 0, 0] }));
  writeFileSync(path("flat-h.json"), JSON.stringify({ screenToCamera: [1, 2, 0, 2, 4, 0, 0, 0, 1] }));
  writeFileSync(path("broken.json"), "{ screenToCamera: ");
}, 60_000);

const expectHomeScreen = (labels: string[]): void => {
  for (const app of ["Calendar", "Clock", "Settings", "Weather"]) expect(labels).toContain(app);
};

describe("piclaw listing", () => {
  it("--json prints one object per image with the agreed fields, boxes in screen fractions", async () => {
    const { code, out, err } = await run([path("home.png"), "--json"]);
    expect(err).toBe("");
    expect(code).toBe(0);
    const lines = out.trim().split("\n");
    expect(lines).toHaveLength(1);
    const doc = JSON.parse(lines[0] ?? "") as JsonListing;
    expect(doc.image).toBe(path("home.png"));
    expectHomeScreen(doc.entries.map((e) => e.label));
    doc.entries.forEach((e, i) => {
      expect(Object.keys(e).slice(0, 5)).toEqual(["id", "kind", "label", "box", "conf"]);
      expect(e.id).toBe(i + 1);
      expect(e.box).toHaveLength(4);
      const [l = -1, t = -1, r = -1, b = -1] = e.box;
      expect(0 <= l && l < r && r <= 1 && 0 <= t && t < b && b <= 1).toBe(true);
    });
  }, 120_000);

  it("prints the listing rows, one block per image", async () => {
    const { code, out } = await run([path("lock.png"), path("home.png")]);
    expect(code).toBe(0);
    expect(out).toContain(`# ${path("lock.png")}\n`);
    expect(out).toContain(`# ${path("home.png")}\n`);
    // The home screen's app names: an icon row named by the text under it (`[app]`), or the text row.
    expect(out).toMatch(/^\d+ \[(app|text)\] "Settings" \[[\d.]+,[\d.]+,[\d.]+,[\d.]+\] [\d.]+$/m);
  }, 120_000);

  it("reads a camera frame through the calibration bundle or a bare homography", async () => {
    const viaBundle = await run([
      "--camera",
      "--homography",
      path("bundle.json"),
      path("frame.jpg"),
      "--json",
    ]);
    expect(viaBundle.err).toBe("");
    expect(viaBundle.code).toBe(0);
    expectHomeScreen((JSON.parse(viaBundle.out) as JsonListing).entries.map((e) => e.label));
    const viaFile = await run(["--camera", "--homography", path("h.json"), path("frame.jpg")]);
    expect(viaFile.code).toBe(0);
    expect(viaFile.out).toMatch(/\[(app|text)\] "Weather"/);
  }, 120_000);

  it("names the problem: missing file, not an image, bad homography, flags that need each other", async () => {
    const missing = await run([path("nope.png")]);
    expect(missing.code).toBe(1);
    expect(missing.err).toContain(`[LISTING_IMAGE_MISSING]: image ${path("nope.png")} does not exist`);
    const notImage = await run([path("notes.txt")]);
    expect(notImage.err).toContain(`[LISTING_NOT_AN_IMAGE]: ${path("notes.txt")} is not a PNG or JPEG`);
    const dirArg = await run([dir]);
    expect(dirArg.err).toContain("is a directory, not an image");
    const short = await run(["--camera", "--homography", path("bad-h.json"), path("frame.jpg")]);
    expect(short.code).toBe(1);
    expect(short.err).toContain(`[LISTING_HOMOGRAPHY_INVALID]: homography file ${path("bad-h.json")}`);
    expect(short.err).toContain("screenToCamera: must be 9 numbers");
    const noCamera = await run(["--camera", path("frame.jpg")]);
    expect(noCamera.code).toBe(2);
    expect(noCamera.err).toContain("--camera needs --homography FILE");
    const none = await run([]);
    expect(none.err).toContain("listing needs at least one IMAGE");
  }, 120_000);

  it("--help explains the command", async () => {
    const child = spawnProjectBin("bin/piclaw.js", ["listing", "--help"]);
    expect((await child.exit).code).toBe(0);
    expect(child.stdout()).toContain("listing IMAGE…");
    expect(child.stdout()).toContain("--camera --homography FILE");
  });
});

describe("readHomographyFile", () => {
  it("takes a bare homography or a bundle (screen aspect from its glass)", () => {
    expect(readHomographyFile(path("h.json")).screenPx).toEqual({ width: 1170, height: 2532 });
    const fromBundle = readHomographyFile(path("bundle.json"));
    expect(fromBundle.screenPx).toEqual({ width: 1170, height: 2532 });
    expect(fromBundle.screenToCamera).toEqual(readHomographyFile(path("h.json")).screenToCamera);
  });

  it("refuses a missing, broken, short or singular file, naming it", () => {
    expect(() => readHomographyFile(path("none.json"))).toThrow(/LISTING|does not exist/);
    expect(() => readHomographyFile(path("broken.json"))).toThrow(
      `homography file ${path("broken.json")}: not JSON`,
    );
    expect(() => readHomographyFile(path("flat-h.json"))).toThrow("singular");
    const bundle = sampleBundle(0);
    writeFileSync(
      path("bad-bundle.json"),
      JSON.stringify({ ...bundle, camera: { ...bundle.camera, screenToCamera: [1] } }),
    );
    expect(() => readHomographyFile(path("bad-bundle.json"))).toThrow(
      /camera\.screenToCamera: must be 9 numbers/,
    );
  });
});
