import { describe, expect, it } from "vitest";
import type { RgbImage } from "../../src/shared/image.js";
import { trimSeenThrough } from "../../src/vision/materials.js";
import type { Candidate } from "../../src/vision/row.js";
import { centreX, centreY, contains } from "../../src/vision/row.js";
import { dropSpuriousRows } from "../../src/vision/spurious.js";
import { loadRealImage, realLabel } from "./real-set.js";

/**
 * Text rows that are no text a person reads, on real screenshots of the development set: a line that
 * joins a bar's title to content seen through the bar, and glyphs the OCR read as one letter. The rows
 * are the screen's labelled text lines (as OCR lists them) plus the rows today's pipeline read there
 * (their labels and boxes from its output on the same screen).
 */
const text = (label: string, box: Candidate["box"]): Candidate => ({ kind: "text", label, box, conf: 0.9 });

async function load(
  name: string,
  without: readonly string[] = [],
): Promise<{ image: RgbImage; lines: Candidate[] }> {
  const image = await loadRealImage(name);
  const lines = realLabel(name)
    .text.filter((t) => !without.includes(t.text))
    .map((t) => text(t.text, t.box));
  return { image, lines };
}

const aspectOf = (image: RgbImage): number => image.height / image.width;

describe("trimSeenThrough", () => {
  it("cuts a line joining a navigation bar's title to the headline blurred under it down to the title", async () => {
    const name = "rc-netnewswire-timeline-light.png";
    const { image, lines } = await load(name, ["Today", "20 Unread"]);
    const joined = [
      text("Prada 2 . T Today", [0.209, 0.058, 0.555, 0.084]),
      text("The full tra 20 Unread ne Devil Wea", [0.216, 0.085, 0.79, 0.098]),
    ];
    const kept = dropSpuriousRows([...lines, ...joined], aspectOf(image), image);
    for (const l of lines) expect(kept, l.label).toContain(l);
    const truth = realLabel(name).text;
    for (const title of ["Today", "20 Unread"]) {
      const row = kept.find((r) => r.label === title);
      const box = truth.find((t) => t.text === title)?.box;
      expect(row, title).toBeDefined();
      expect(box, title).toBeDefined();
      if (row && box) expect(contains(box, centreX(row.box), centreY(row.box)), title).toBe(true);
    }
    expect(kept.some((r) => r.label.includes("Prada") || r.label.includes("Devil"))).toBe(false);
  });

  it("leaves every line alone on screens whose bars hold only sharp text or only blurred text", async () => {
    for (const name of [
      "rc-netnewswire-timeline-dark.png",
      "rc-icecubes-trending.jpg",
      "ra-atlantis-settings-zh.png",
      "ra-tp-calendar-new-event.png",
      "rb-messagekit-chat.png",
    ]) {
      const { image, lines } = await load(name);
      expect(trimSeenThrough(image, lines), name).toEqual(lines);
    }
  });
});

describe("dropSpuriousRows: glyphs read as one letter", () => {
  it("drops letters read off inert glyphs behind an alert, keeps the alert and the dimmed text", async () => {
    const { image, lines } = await load("rd-zkytech-scriptable-menu-zh.jpg");
    const glyphs = [
      text("8", [0.049, 0.076, 0.108, 0.101]), // the nav bar's toggle symbol
      text("x", [0.9, 0.67, 0.93, 0.683]), // a banner's close ✕
      text("8", [0.219, 0.91, 0.282, 0.932]), // the Scripts tab's stacked-layers symbol
    ];
    const kept = dropSpuriousRows([...lines, ...glyphs], aspectOf(image), image);
    expect(kept).toEqual(lines);
    // With no alert up the same letters stay: a lone letter can be a key, a badge or a date.
    const { image: plain, lines: plainLines } = await load("rd-zkytech-scriptable-list.jpg");
    const letter = text("8", [0.049, 0.076, 0.108, 0.101]);
    expect(dropSpuriousRows([...plainLines, letter], aspectOf(plain), plain)).toContain(letter);
  });

  it("keeps a keypad's digits behind a Touch ID alert: one character each, but in a grid", async () => {
    const { image, lines } = await load("rb-bkpasscode-touchid.png");
    expect(dropSpuriousRows(lines, aspectOf(image), image)).toEqual(lines);
  });

  it("drops a letter read off a switch cell's image, keeps the titles and the switches", async () => {
    const name = "ra-atlantis-app-list-zh.png";
    const { image, lines } = await load(name);
    const switches = realLabel(name)
      .elements.filter((e) => e.kind === "switch")
      .map(
        (e): Candidate => ({
          kind: "switch",
          label: e.label,
          state: e.state ?? "off",
          box: e.box,
          conf: 0.9,
        }),
      );
    const zero = text("0", [0.054, 0.295, 0.133, 0.334]); // YouTube's red play tile
    const kept = dropSpuriousRows([...lines, ...switches, zero], aspectOf(image), image);
    expect(kept).toEqual([...lines, ...switches]);
    // A word there is a title, not a glyph: it stays.
    const word = text("QQ", [0.054, 0.295, 0.133, 0.334]);
    expect(dropSpuriousRows([...lines, ...switches, word], aspectOf(image), image)).toContain(word);
  });
});

describe("dropSpuriousRows: wide boxes as tall as a row", () => {
  const icon = (box: Candidate["box"]): Candidate => ({ kind: "icon", label: "", box, conf: 0.4 });

  it("drops a half-screen-wide icon box a table row tall with nothing named in it", async () => {
    for (const [name, box] of [
      ["rd-bark-shortcuts-add-action-zh.png", [0.099, 0.331, 0.883, 0.382]], // over a shortcut card
      ["rc-yattee-home.png", [0.16, 0.061, 0.803, 0.124]], // the large-title bar's blank band
    ] as const) {
      const { image, lines } = await load(name);
      expect(dropSpuriousRows([...lines, icon([...box])], aspectOf(image), image), name).toEqual(lines);
    }
  });

  it("keeps a wide box thinner than a row: a slider's or segmented control's track", async () => {
    const { image, lines } = await load("rd-bark-shortcuts-add-action-zh.png");
    const track = icon([0.05, 0.54, 0.85, 0.56]); // across the two shortcut cards, under their glyphs
    expect(dropSpuriousRows([...lines, track], aspectOf(image), image)).toContain(track);
  });
});

describe("dropSpuriousRows: text drawn by content in an alert", () => {
  it("drops the place names on the location prompt's map, keeps the alert's text and its pill", async () => {
    const { image, lines } = await load("ra-rndocs-location-alert.png");
    const names = [
      text("London", [0.592, 0.565, 0.755, 0.586]),
      text("Brussels", [0.726, 0.586, 0.894, 0.607]),
    ];
    expect(dropSpuriousRows([...lines, ...names], aspectOf(image), image)).toEqual(lines);
  });

  it("keeps off-centre text in the alert's button stack (side-by-side buttons' titles)", async () => {
    const { image, lines } = await load("ra-rndocs-location-alert.png");
    const below = text("Brussels", [0.726, 0.74, 0.894, 0.76]);
    expect(dropSpuriousRows([...lines, below], aspectOf(image), image)).toContain(below);
  });
});
