import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { RgbImage } from "../../src/shared/image.js";
import { findInsetCard } from "../../src/vision/inset-card.js";
import type { Candidate } from "../../src/vision/row.js";
import { dropSpuriousRows } from "../../src/vision/spurious.js";
import { filmedRealScreen, filmScreenshot } from "./ocr/filmed-real.js";
import { loadRealImage, REAL_SET_DIR, realLabel } from "./real-set.js";

/**
 * A modal card inset from the screen's sides over a page left visible (`inset-card.ts`): its page's
 * controls are inert, the slivers beside it are fragments, the page's readable text stays. Real screens
 * of the development set, drawn Settings-like pages, and look-alikes (grouped-inset tables, a field's
 * card over a keyboard, a full-width modal) where nothing may be found.
 */
const text = (label: string, box: Candidate["box"]): Candidate => ({ kind: "text", label, box, conf: 0.9 });
const icon = (box: Candidate["box"]): Candidate => ({ kind: "icon", label: "", box, conf: 0.4 });
const toggle = (label: string, box: Candidate["box"]): Candidate => ({
  kind: "switch",
  label,
  box,
  conf: 0.9,
  state: "on",
});
const linesOf = (name: string): Candidate[] => realLabel(name).text.map((t) => text(t.text, t.box));

describe("findInsetCard on real screens", () => {
  const name = "rv-iqkm-settings.png";
  // The page's bar behind IQKeyboardManager's settings card: its back chevron and its gear.
  const behind = [icon([0.019, 0.074, 0.179, 0.103]), icon([0.903, 0.075, 0.969, 0.104])];
  const inside = [toggle("Enable", [0.805, 0.25, 0.928, 0.286]), icon([0.857, 0.83, 0.955, 0.87])];

  it("finds the settings card by its own navigation bar and drops the page's bar buttons", async () => {
    const image = await loadRealImage(name);
    const lines = linesOf(name);
    const card = findInsetCard(image, lines);
    expect(card?.[0]).toBeCloseTo(0.048, 2); // 13 px of 273 in from each side (17 pt)
    expect(card?.[1]).toBeCloseTo(0.118, 2); // its top, y 70 of 591
    expect(card?.[2]).toBeCloseTo(0.952, 2);
    const kept = new Set(
      dropSpuriousRows([...lines, ...behind, ...inside], image.height / image.width, image),
    );
    for (const r of behind) expect(kept.has(r), `${r.box}`).toBe(false);
    // The page's `Back` and `Present` stay readable text; the card's rows and controls stay.
    for (const r of [...lines, ...inside]) expect(kept.has(r), `${r.label} ${r.box}`).toBe(true);
  });

  it("finds it in a filmed frame", async () => {
    const image = await filmedRealScreen(name, 7 + 127);
    expect(findInsetCard(image, linesOf(name))?.[1]).toBeCloseTo(0.118, 1);
  });

  it("finds no card without the card's title bar when the strips beside it are flat", async () => {
    expect(findInsetCard(await loadRealImage(name), [])).toBeUndefined();
  });

  it("finds none on grouped-inset tables, a field's card over a keyboard or an action sheet's page", async () => {
    for (const n of [
      "ra-mvgwidget-settings.png", // a grouped Settings table: inset section cards
      "rc-bingpaper-settings-light.png",
      "rc-tubecast-settings.png", // inset cards over a mini player and a tab bar
      "ra-cowabunga-home.png", // dark inset sections, a tab bar under them
      "rb-ios-passcode-keyboard.png", // a text field's card with the keyboard's keys beside it below
      "rd-fordpass-settings-alert-dark.jpg",
      "rb-autoglm-shortcuts-zh.png", // Shortcuts' action cards: a centred word in a line, a clear button at its end
    ]) {
      const image = await loadRealImage(n);
      const clear = icon([0.847, 0.217, 0.94, 0.253]); // the autoglm action's clear (x) button
      expect(findInsetCard(image, [...linesOf(n), clear]), n).toBeUndefined();
    }
  });

  it("finds none on a filmed home screen whose large widget looks like an inset card", async () => {
    // The check set's home screen with a large Scriptable widget (338 pt, 26 pt in from each side, over
    // a starry wallpaper) filmed as the bench films it (seed 17): the widget's top passed for a card's,
    // and the icons above it were dropped. The dock's apps say it is a home screen.
    const image = await filmScreenshot(
      readFileSync(join(REAL_SET_DIR, "../real-iphone-check/images/ck-mjsw-home-fitness-moon.jpg")),
      17,
    );
    const dock = [
      { kind: "app", label: "Mail", box: [0.303, 0.893, 0.462, 0.967], conf: 0.9 },
      { kind: "app", label: "Safari", box: [0.541, 0.896, 0.69, 0.964], conf: 0.9 },
    ] satisfies Candidate[];
    expect(findInsetCard(image, [])).toBeDefined(); // the look-alike, without the home screen's rows
    expect(findInsetCard(image, dock)).toBeUndefined();
  });
});

interface Scene {
  /** Whether rows of a page run full width under the card (a page behind it), or the page is flat. */
  pageRows: boolean;
  /** The card's inset from the sides (points; 0: a full-width modal). */
  inset: number;
}

/**
 * A dark 390×844 Settings-like screen at 1 px/pt: black grouped background, full-width #1C1C1E cells
 * 44 pt tall with a white title glyph at 16 pt and a switch at the trailing side, and from y 420 an
 * elevated #2C2C2E card with 12 pt corners running to the bottom (`inset` in from the sides; at 24 pt,
 * wider than the page's 16 pt margin, the rows' first letters peek out beside it).
 */
function scene({ pageRows, inset }: Scene): RgbImage {
  const W = 390;
  const H = 844;
  const data = Buffer.alloc(W * H * 3);
  const put = (x: number, y: number, v: number): void => {
    data.fill(v, (y * W + x) * 3, (y * W + x) * 3 + 3);
  };
  const top = 420;
  const r = 12;
  for (let y = 0; y < H; y++)
    for (let x = 0; x < W; x++) {
      let inCard = y >= top && x >= inset && x < W - inset;
      const cx = x < inset + r ? inset + r : x >= W - inset - r ? W - inset - r - 1 : x;
      if (inCard && y < top + r && cx !== x) inCard = (x - cx) ** 2 + (y - (top + r)) ** 2 <= r * r;
      if (inCard) {
        put(x, y, 44);
        continue;
      }
      const cell = (y - 60) % 60; // 44 pt cells every 60 pt from y 60
      const inCell = pageRows && y >= 60 && cell < 44;
      const glyph =
        inCell && cell >= 14 && cell < 30 && ((x >= 16 && x < 19) || (x >= 16 && x < 27 && cell < 17));
      const knob = inCell && cell >= 7 && cell < 38 && x >= 320 && x < 371;
      put(x, y, glyph ? 255 : knob ? 150 : inCell ? 28 : 0);
    }
  return { width: W, height: H, channels: 3, data };
}

describe("findInsetCard on drawn screens", () => {
  const frac = (y: number): number => y / 844;
  it("finds a card 24 pt in over a page whose rows show beside it, and drops what the page lists", () => {
    const image = scene({ pageRows: true, inset: 24 });
    const card = findInsetCard(image, []);
    expect(card?.[0]).toBeCloseTo(24 / 390, 2);
    expect(card?.[1]).toBeCloseTo(frac(420), 2);
    const above = [
      text("Enable", [0.041, frac(374), 0.2, frac(390)]),
      text("Colours", [0.041, frac(314), 0.22, frac(330)]),
    ];
    const inert = [
      toggle("Enable", [0.82, frac(367), 0.951, frac(398)]), // a page switch above the card
      icon([0.85, frac(307), 0.95, frac(338)]), // a colour well
      text("E", [0.038, frac(494), 0.07, frac(510)]), // a hidden row's first letter beside the card
      icon([0.93, frac(487), 0.99, frac(518)]), // the edge of a hidden row's switch
    ];
    const inCard = [text("Hue", [0.1, frac(470), 0.2, frac(486)]), icon([0.8, frac(460), 0.9, frac(490)])];
    const kept = new Set(dropSpuriousRows([...above, ...inert, ...inCard], 844 / 390, image));
    for (const r of inert) expect(kept.has(r), `${r.label} ${r.box}`).toBe(false);
    for (const r of [...above, ...inCard]) expect(kept.has(r), `${r.label} ${r.box}`).toBe(true);
  });

  it("finds none for a grouped-inset section on a flat background or a full-width modal", () => {
    // A grouped-inset table's section running to the bottom: nothing shows in its margins.
    const grouped = scene({ pageRows: false, inset: 24 });
    expect(findInsetCard(grouped, [])).toBeUndefined();
    const live = toggle("Wi-Fi", [0.82, frac(367), 0.951, frac(398)]);
    expect(dropSpuriousRows([live], 844 / 390, grouped)).toEqual([live]);
    expect(findInsetCard(scene({ pageRows: true, inset: 0 }), [])).toBeUndefined();
  });
});
