import { describe, expect, it } from "vitest";
import type { RgbImage } from "../../src/shared/image.js";
import type { Candidate } from "../../src/vision/row.js";
import { findSheet } from "../../src/vision/sheet.js";
import { dropSpuriousRows } from "../../src/vision/spurious.js";
import { filmedRealScreen } from "./ocr/filmed-real.js";
import { loadRealImage, realLabel } from "./real-set.js";

/**
 * Page sheets over a dimmed page (`sheet.ts`) on real screens of the development set, screenshots and
 * filmed frames (seed 7 + the screen's index, as `bench/real-screens.ts --camera` films them), and
 * screens with look-alike edges where nothing may be dropped.
 */
const text = (label: string, box: Candidate["box"]): Candidate => ({ kind: "text", label, box, conf: 0.9 });
const icon = (box: Candidate["box"]): Candidate => ({ kind: "icon", label: "", box, conf: 0.4 });
const button = (label: string, box: Candidate["box"]): Candidate => ({
  kind: "button",
  label,
  box,
  conf: 0.5,
});
const linesOf = (name: string): Candidate[] => realLabel(name).text.map((t) => text(t.text, t.box));

describe("findSheet on real screens", () => {
  it("drops the controls on the editor behind Shortcuts' action sheet and keeps the sheet's", async () => {
    const name = "rd-bark-shortcuts-search-bark-zh.png";
    const image = await loadRealImage(name);
    const sheet = findSheet(image);
    expect(sheet?.[1]).toBeCloseTo(0.245, 2); // the sheet's top edge, at y 678 of 2778
    const lines = linesOf(name);
    const behind = [
      icon([0.368, 0.221, 0.622, 0.262]), // the editor's connector and the sheet's grabber, boxed as one
      icon([0.02, 0.08, 0.06, 0.1]), // the editor's back chevron
    ];
    const inside = [
      button("close", [0.741, 0.275, 0.814, 0.307]), // the search field's clear button
      icon([0.05, 0.4, 0.165, 0.45]), // Bark's app icon
      icon([0.865, 0.49, 0.93, 0.53]), // an action's info button
    ];
    const kept = new Set(
      dropSpuriousRows([...lines, ...behind, ...inside], image.height / image.width, image),
    );
    for (const r of behind) expect(kept.has(r), `${r.box}`).toBe(false);
    for (const r of [...inside, ...lines]) expect(kept.has(r), `${r.label} ${r.box}`).toBe(true);
  });

  it("finds a dark share sheet's top in the screenshot and in filmed frames", async () => {
    const name = "rd-zkytech-share-sheet-zh.jpg";
    const share = button("share", [0.895, 0.064, 0.959, 0.097]); // the preview's share button, behind
    const copy = icon([0.86, 0.69, 0.92, 0.73]); // the Copy action's glyph, in the sheet
    for (const [what, image] of [
      ["shot", await loadRealImage(name)],
      ["seed 127", await filmedRealScreen(name, 127)],
      ["seed 31", await filmedRealScreen(name, 31)],
    ] as const) {
      expect(findSheet(image)?.[1], what).toBeCloseTo(0.46, 1);
      const lines = linesOf(name);
      const kept = new Set(dropSpuriousRows([...lines, share, copy], image.height / image.width, image));
      expect(kept.has(share), what).toBe(false);
      expect(kept.has(copy), what).toBe(true);
      // The sheet's text and the page's bar titles are kept (the page's JSON lines answer to other rules).
      const mine = lines.filter((r) => r.box[1] > 0.46 || r.box[3] < 0.1);
      for (const r of mine) expect(kept.has(r), `${what} ${r.label}`).toBe(true);
    }
  });

  it("finds the Shortcuts sheet in a filmed frame", async () => {
    const sheet = findSheet(await filmedRealScreen("rd-bark-shortcuts-search-bark-zh.png", 109));
    expect(sheet?.[1]).toBeCloseTo(0.245, 1);
  });

  it("finds no sheet on grouped tables, bars, card lists or a keyboard with rounded corners", async () => {
    for (const name of [
      "ra-mvgwidget-settings.png", // a grouped Settings table: inset section cards
      "rc-bingpaper-settings-light.png",
      "rc-netnewswire-feeds-light.png", // a navigation bar's hairline over a list
      "rd-zkytech-scriptable-list.jpg", // a list of cards
      "rb-universekb-l1-reopen.png", // iOS 26 keyboard: rounded top corners, under a black page
      "rd-fordpass-settings-alert-dark.jpg",
    ]) {
      const image = await loadRealImage(name);
      const sheet = findSheet(image);
      // A large detent's top under the status bar leaves nothing behind it to drop.
      expect(sheet === undefined || sheet[1] < 0.09, name).toBe(true);
    }
  });
});

/** A 390×844 screen of `page` luma with a card of `card` luma from `top` (pt) down, as `findSheet` reads it. */
function scene(opts: { page: number; card: number; top: number; inset: number; radius: number }): RgbImage {
  const W = 390;
  const H = 844;
  const data = Buffer.alloc(W * H * 3);
  for (let y = 0; y < H; y++)
    for (let x = 0; x < W; x++) {
      const { top, inset, radius: r } = opts;
      let inCard = y >= top && x >= inset && x < W - inset;
      // Rounded top corners: outside the quarter circle of radius r at each top corner.
      const cx = x < inset + r ? inset + r : x >= W - inset - r ? W - inset - r - 1 : x;
      if (inCard && y < top + r && cx !== x) inCard = (x - cx) ** 2 + (y - (top + r)) ** 2 <= r * r;
      const v = inCard ? opts.card : opts.page;
      data.fill(v, (y * W + x) * 3, (y * W + x) * 3 + 3);
    }
  return { width: W, height: H, channels: 3, data };
}

describe("findSheet on drawn screens", () => {
  it("finds a full-width card with rounded corners over a dimmed page", () => {
    expect(findSheet(scene({ page: 150, card: 248, top: 300, inset: 0, radius: 10 }))?.[1]).toBeCloseTo(
      300 / 844,
      2,
    );
    expect(findSheet(scene({ page: 150, card: 248, top: 300, inset: 0, radius: 38 }))?.[1]).toBeCloseTo(
      300 / 844,
      2,
    );
  });

  it("finds none for an inset card, square corners, or a bright page above", () => {
    // A grouped table's section card: 16 pt in from the sides.
    expect(findSheet(scene({ page: 150, card: 248, top: 300, inset: 16, radius: 10 }))).toBeUndefined();
    // A bar's edge or hairline: straight to both sides.
    expect(findSheet(scene({ page: 150, card: 248, top: 300, inset: 0, radius: 0 }))).toBeUndefined();
    // A rounded panel in an app's page under a bright header: the page above is not dimmed.
    expect(findSheet(scene({ page: 255, card: 200, top: 300, inset: 0, radius: 10 }))).toBeUndefined();
  });
});
