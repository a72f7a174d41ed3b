import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { type RealScreen, realScreenSchema } from "../../src/lab/real/labels.js";
import type { RgbImage } from "../../src/shared/image.js";
import { inkContrast } from "../../src/vision/ink-spread.js";
import { findModalCard } from "../../src/vision/modal.js";
import { decodeRgb } from "../../src/vision/rectify.js";
import type { Candidate } from "../../src/vision/row.js";
import { dropSpuriousRows } from "../../src/vision/spurious.js";

/**
 * The spurious-row rules on real screenshots of the development set (`datasets/real-iphone`). The rows
 * are the screen's labelled text lines (as OCR would list them) plus detector-style boxes taken from
 * today's pipeline output on the same screen.
 */
const DATASET = join(import.meta.dirname, "..", "..", "datasets", "real-iphone");

async function load(id: string): Promise<{ label: RealScreen; image: RgbImage; texts: Candidate[] }> {
  const label = realScreenSchema.parse(
    JSON.parse(readFileSync(join(DATASET, "labels", `${id}.json`), "utf8")),
  );
  const image = await decodeRgb(readFileSync(join(DATASET, "images", label.image)));
  const texts = label.text.map((t): Candidate => ({ kind: "text", label: t.text, box: t.box, conf: 0.95 }));
  return { label, image, texts };
}

const icon = (box: Candidate["box"]): Candidate => ({ kind: "icon", label: "", box, conf: 0.4 });
const aspectOf = (image: RgbImage): number => image.height / image.width;

describe("findModalCard", () => {
  it("finds a centred alert's card over a dimmed list", async () => {
    const { image, texts } = await load("rd-zkytech-scriptable-menu-zh");
    const card = findModalCard(image, texts);
    expect(card).toBeDefined();
    const [l, t, r, b] = card ?? [0, 0, 0, 0];
    // The alert is drawn at x 0.14–0.86, from its title (y ≈ 0.27) to 取消 (y ≈ 0.75).
    expect(l).toBeCloseTo(0.14, 1);
    expect(r).toBeCloseTo(0.86, 1);
    expect(t).toBeGreaterThan(0.24);
    expect(t).toBeLessThan(0.3);
    expect(b).toBeGreaterThan(0.74);
    expect(b).toBeLessThan(0.8);
  });

  it("takes an action sheet's card down to the bottom of the screen", async () => {
    const { image, texts } = await load("rd-fordpass-settings-alert-dark");
    const card = findModalCard(image, texts);
    expect(card?.[0]).toBeLessThan(0.04);
    expect(card?.[2]).toBeGreaterThan(0.96);
    expect(card?.[3]).toBe(1);
  });

  it("finds no card on screens without one: an inset list, a settings list, a keyboard", async () => {
    for (const id of ["rc-tubecast-feed", "ra-atlantis-app-list-zh", "ra-mauidocs-keyboard-aware"]) {
      const { image, texts } = await load(id);
      expect(findModalCard(image, texts), id).toBeUndefined();
    }
  });
});

describe("dropSpuriousRows on real screenshots", () => {
  it("drops controls behind an alert and text cut by its card, keeps its buttons and whole lines", async () => {
    const { image, texts } = await load("rd-zkytech-scriptable-menu-zh");
    const behind = icon([0.893, 0.074, 0.958, 0.102]); // the list's + button, dimmed
    const tabIcon = icon([0.112, 0.905, 0.378, 0.963]); // a tab of the dimmed tab bar
    const onCard = icon([0.3, 0.5, 0.42, 0.53]); // a box on one of the alert's buttons
    const cut = (label: string, box: Candidate["box"]): Candidate => ({
      kind: "text",
      label,
      box,
      conf: 0.9,
    });
    const get = cut("Get", [0.07, 0.677, 0.132, 0.69]); // ends under the card's left side (0.14)
    const take = cut("Take", [0.07, 0.7, 0.141, 0.713]); // runs into it
    const hy = cut("hy", [0.077, 0.408, 0.128, 0.43]); // a whole word, clear of it
    const rows = [...texts, behind, tabIcon, onCard, get, take, hy];
    const kept = dropSpuriousRows(rows, aspectOf(image), image);
    expect(kept).toEqual([...texts, onCard, hy]);
  });

  it("keeps every control when no modal is up", async () => {
    const { image, texts, label } = await load("rc-tubecast-feed");
    const buttons = label.elements.filter((e) => e.iconOnly).map((e) => icon(e.box));
    const rows = [...texts, ...buttons];
    expect(dropSpuriousRows(rows, aspectOf(image), image)).toHaveLength(rows.length);
  });

  it("drops a wide box with no ink in it, keeps glyphs and narrow blank keys", async () => {
    const { image, texts, label } = await load("ra-atlantis-settings-zh");
    const blank = icon([0.06, 0.12, 0.91, 0.17]); // empty band above the first section
    expect(inkContrast(image, blank.box)).toBeLessThan(4);
    const back = label.elements[0];
    if (!back) throw new Error("label has no back button");
    const glyph = icon(back.box);
    expect(inkContrast(image, glyph.box)).toBeGreaterThan(50);
    const narrowBlank = icon([0.3, 0.12, 0.4, 0.17]); // as blank, but no wider than a key cap
    const kept = dropSpuriousRows([...texts, blank, glyph, narrowBlank], aspectOf(image), image);
    expect(kept).toEqual([...texts, glyph, narrowBlank]);
  });

  it("drops the app images that lead switch rows, keeps the switches and the back button", async () => {
    const { image, texts, label } = await load("ra-atlantis-app-list-zh");
    const switches = label.elements
      .filter((e) => e.kind === "switch")
      .map(
        (e): Candidate => ({
          kind: "switch",
          label: e.label,
          state: e.state ?? "off",
          box: e.box,
          conf: 0.9,
        }),
      );
    // Detector boxes on the 查找朋友 and 地图 app images (left of their titles, on switch rows).
    const images = [icon([0.046, 0.619, 0.138, 0.671]), icon([0.048, 0.54, 0.138, 0.592])];
    const back = icon([0.02, 0.06, 0.07, 0.09]); // the back chevron: no switch on its row
    const rows = [...texts, ...switches, ...images, back];
    expect(dropSpuriousRows(rows, aspectOf(image), image)).toEqual([...texts, ...switches, back]);
    // Without a switch on the row the same image stays (a plain table cell's image is on its row).
    expect(dropSpuriousRows([...texts, ...images], aspectOf(image), image)).toEqual([...texts, ...images]);
  });
});
