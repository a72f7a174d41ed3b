import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { realScreenSchema } from "../../src/lab/real/labels.js";
import type { RgbImage } from "../../src/shared/image.js";
import { decodeRgb } from "../../src/vision/rectify.js";
import { findSwitches } from "../../src/vision/switches.js";
import { filmScreenshot } from "./ocr/filmed-real.js";

const DATASET = join(import.meta.dirname, "..", "..", "datasets", "real-iphone");

const load = (id: string) => {
  const label = realScreenSchema.parse(
    JSON.parse(readFileSync(join(DATASET, "labels", `${id}.json`), "utf8")),
  );
  return { label, bytes: readFileSync(join(DATASET, "images", label.image)) };
};

/** Every labelled switch has one found switch in its state, and nothing else is found. */
function expectLabelled(id: string, image: RgbImage): void {
  const { label } = load(id);
  const found = findSwitches(image);
  const truths = label.elements.filter((e) => e.kind === "switch");
  for (const t of truths) {
    const on = found.filter((s) => {
      const [cx, cy] = [(s.box[0] + s.box[2]) / 2, (s.box[1] + s.box[3]) / 2];
      return cx >= t.box[0] && cx <= t.box[2] && cy >= t.box[1] && cy <= t.box[3];
    });
    expect(
      on.map((s) => (s.on ? "on" : "off")),
      t.label,
    ).toEqual([t.state]);
  }
  expect(found).toHaveLength(truths.length);
}

const screenshot = async (id: string) => expectLabelled(id, await decodeRgb(load(id).bytes));

describe("findSwitches on real screens: knobs, tracks and rings", () => {
  it("reads knobs with a grey dot in their middle (a tweak's iOS 10 switch)", () =>
    screenshot("ra-swipyfolders-settings-nl"));

  it("reads them through the camera too", async () =>
    expectLabelled(
      "ra-swipyfolders-settings-nl",
      await filmScreenshot(load("ra-swipyfolders-settings-nl").bytes, 25),
    ));

  it("reads iOS 7–12 outline off switches whose knob rim and shadow blur into one wide dip", async () =>
    expectLabelled(
      "ra-atlantis-app-list-zh",
      await filmScreenshot(load("ra-atlantis-app-list-zh").bytes, 7),
    ));

  it("reads a camera-blurred iOS 8 switch whose knob is as tall as its track, an I label on it", async () =>
    expectLabelled(
      "rb-bkpasscode-touchid-switch",
      await filmScreenshot(load("rb-bkpasscode-touchid-switch").bytes, 43),
    ));

  it("reads switches stacked in 35 pt rows, 4 pt apart (the next one is not the background)", () =>
    screenshot("ra-tzimagepicker-options-zh"));

  it("reads a switch cut by the bottom edge, in the column of the whole ones above it", () =>
    screenshot("ra-tp-dockcontroller-prefs"));

  it("takes a knob's shadow on a pale off track for no mark on the knob", () =>
    screenshot("rb-twilio-client-to-pstn"));

  it("takes no cream patch of a photo, nor a map's numbered cluster marker, for a knob", async () => {
    for (const id of ["rc-netnewswire-article-dark", "rc-gogoro-map-station"])
      expect(findSwitches(await decodeRgb(load(id).bytes)), id).toEqual([]);
  });
});
