import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { type RealScreen, realScreenSchema } from "../../src/lab/real/labels.js";
import type { RgbImage } from "../../src/shared/image.js";
import { wallpaperAboveDock } from "../../src/vision/home-wallpaper.js";
import { passcodeDots } from "../../src/vision/passcode-dots.js";
import { findPictures, listPictures } from "../../src/vision/pictures.js";
import { decodeRgb } from "../../src/vision/rectify.js";
import type { Candidate } from "../../src/vision/row.js";
import { centreX, centreY, contains } from "../../src/vision/row.js";
import { dropSpuriousRows } from "../../src/vision/spurious.js";
import { labelTexts, row } from "./candidates.js";

/**
 * Rows that are no target on real screenshots of the development set (`datasets/real-iphone`): passcode
 * indicators, wallpaper above a home screen's dock, the contents of embedded pictures. Rows are the
 * screen's labelled text lines and elements (as the pipeline lists them) plus the boxes today's pipeline
 * output had on the things that are no target.
 */
const DATASET = join(import.meta.dirname, "..", "..", "datasets", "real-iphone");

async function load(id: string): Promise<{ label: RealScreen; image: RgbImage }> {
  const label = realScreenSchema.parse(
    JSON.parse(readFileSync(join(DATASET, "labels", `${id}.json`), "utf8")),
  );
  return { label, image: await decodeRgb(readFileSync(join(DATASET, "images", label.image))) };
}

const keys = (label: RealScreen): Candidate[] =>
  label.elements.filter((e) => e.kind === "key").map((e) => row("key", e.char ?? e.label, e.box));
const aspectOf = (image: RgbImage): number => image.height / image.width;

describe("passcode indicators", () => {
  it("drops a passcode field's dots and dashes under its prompt, keeps the keypad and Cancel", async () => {
    const { label, image } = await load("rb-bkpasscode-enter");
    // The four indicators as the detector boxed them (two dots filled, two dashes to go).
    const dots = [
      row("icon", "", [0.246, 0.336, 0.348, 0.392]),
      row("icon", "", [0.385, 0.339, 0.483, 0.385]),
      row("icon", "", [0.532, 0.351, 0.599, 0.382]),
      row("icon", "", [0.662, 0.343, 0.751, 0.398]),
    ];
    const rows = [...labelTexts(label), ...keys(label), ...dots];
    expect([...passcodeDots(rows)].sort((a, b) => a.box[0] - b.box[0])).toEqual(dots);
    const kept = dropSpuriousRows(rows, aspectOf(image), image);
    expect(kept.filter((r) => dots.includes(r))).toEqual([]);
    expect(kept.filter((r) => r.kind === "key").length).toBe(keys(label).length);
    expect(kept.some((r) => r.label === "Cancel")).toBe(true);
  });

  it("keeps a centred row of icons with no numeric keypad on screen (social sign-in buttons)", () => {
    const rows = [
      row("text", "or continue with", [0.3, 0.5, 0.7, 0.52]),
      row("icon", "", [0.3, 0.54, 0.38, 0.58]),
      row("icon", "", [0.46, 0.54, 0.54, 0.58]),
      row("icon", "", [0.62, 0.54, 0.7, 0.58]),
    ];
    expect(passcodeDots(rows).size).toBe(0);
  });
});

describe("wallpaper above the dock", () => {
  it("drops a wallpaper's lettering and logo by the page dots, keeps the dots, dock and widget", async () => {
    const { label, image } = await load("rd-fordpass-home-widget-dark");
    const dock = label.elements
      .filter((e) => e.kind === "app" && e.box[1] > 0.8)
      .map((e) => row("app", e.label, e.box));
    expect(dock.length).toBe(4);
    const dots = row("button", "page dots", [0.403, 0.814, 0.597, 0.831]);
    // The wallpaper's Apple logo and printed battery warning, as the pipeline listed them.
    const wallpaper = [
      row("icon", "", [0.144, 0.797, 0.21, 0.827]),
      row("text", "Rechargeable Li-ion Battery Model A2653", [0.146, 0.839, 0.572, 0.85]),
      row("text", "WARNING / AVERTISSE", [0.143, 0.856, 0.403, 0.871]),
    ];
    const rows = [...labelTexts(label), ...dock, dots, ...wallpaper];
    expect(wallpaperAboveDock(rows, aspectOf(image))).toEqual(new Set(wallpaper));
    const kept = dropSpuriousRows(rows, aspectOf(image), image);
    expect(kept.filter((r) => wallpaper.includes(r))).toEqual([]);
    expect(kept).toContain(dots);
    for (const t of labelTexts(label)) expect(kept.some((r) => r.label === t.label)).toBe(true);
  });

  it("keeps the grid's last row of app names above the page dots", async () => {
    const { label, image } = await load("rd-fordpass-home-widget-dark");
    const dock = label.elements
      .filter((e) => e.kind === "app" && e.box[1] > 0.8)
      .map((e) => row("app", e.label, e.box));
    const dots = row("button", "page dots", [0.403, 0.814, 0.597, 0.831]);
    // An app name of a sixth grid row would end ~10 pt above the dots, inside 80 pt of the dock.
    const name = row("text", "Weather", [0.08, 0.795, 0.22, 0.808]);
    expect(wallpaperAboveDock([...dock, dots, name], aspectOf(image)).size).toBe(0);
  });

  it("needs the page indicator: with none found, nothing goes", async () => {
    const { label, image } = await load("rd-fordpass-home-widget-dark");
    const dock = label.elements
      .filter((e) => e.kind === "app" && e.box[1] > 0.8)
      .map((e) => row("app", e.label, e.box));
    const rows = [...dock, row("text", "WARNING / AVERTISSE", [0.143, 0.856, 0.403, 0.871])];
    expect(wallpaperAboveDock(rows, aspectOf(image)).size).toBe(0);
  });
});

describe("embedded pictures", () => {
  it("finds a player's album art and lists it by no more than one row", async () => {
    const { label, image } = await load("rc-tubecast-player");
    const pictures = findPictures(image);
    expect(pictures.length).toBe(1);
    const art = pictures[0] as Candidate["box"];
    // Album art: about 80% of the width, in the top half.
    expect(art[2] - art[0]).toBeGreaterThan(0.7);
    expect(centreY(art)).toBeLessThan(0.5);
    // No labelled text line or element is on it (its lettering is artwork).
    for (const t of label.text) expect(contains(art, centreX(t.box), centreY(t.box))).toBe(false);
    const lettering = row("text", "人类如何丈量世界", [0.218, 0.337, 0.722, 0.369]);
    const kept = listPictures(image, [...labelTexts(label), lettering]);
    expect(kept).not.toContain(lettering);
    expect(kept.length).toBe(label.text.length);
    // With something the detector boxed on it, the picture stays as one icon row of its own box.
    const withIcon = listPictures(image, [lettering, row("icon", "", [0.4, 0.3, 0.5, 0.35])]);
    expect(withIcon).toEqual([{ kind: "icon", label: "", box: art, conf: 0.5 }]);
  });

  // A feed's tappable photo (rc-netnewswire-article-dark) is a picture: pictures.test.ts.
  it("finds none on alert cards or widgets", async () => {
    for (const id of [
      "ra-mauidocs-location-alert",
      "ra-rndocs-location-alert",
      "rd-zkytech-scriptable-menu-zh",
      "rd-fordpass-home-widget-dark",
    ]) {
      const { label, image } = await load(id);
      const pictures = findPictures(image);
      for (const e of label.elements)
        expect(
          pictures.some((p) => contains(p, centreX(e.box), centreY(e.box))),
          `${id} ${e.label}`,
        ).toBe(false);
    }
  });
});
