import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { realCameraFrame } from "../../src/lab/real/camera.js";
import type { RgbImage } from "../../src/shared/image.js";
import { edgeAngles, toPoints } from "../../src/vision/edge-angles.js";
import { findPictures, listPictures } from "../../src/vision/pictures.js";
import { decodeRgb, stretchContrast, warpToScreen } from "../../src/vision/rectify.js";
import type { Candidate } from "../../src/vision/row.js";
import { centreX, centreY, contains } from "../../src/vision/row.js";
import { row } from "./candidates.js";
import { loadRealImage, REAL_SET_DIR, realLabel } from "./real-set.js";

/**
 * Pictures whose one fill dominates — map snapshots in chat bubbles, a painting on paper — found by
 * their slanted edges (`edge-angles.ts`), on dataset screenshots. Rows stand in for the pipeline's: the
 * labelled text lines, plus boxes where today's pipeline read a map's place names.
 */

const labelledTexts = (id: string): Candidate[] => realLabel(id).text.map((t) => row("text", t.text, t.box));
const holds = (p: Candidate["box"], b: Candidate["box"]): boolean => contains(p, centreX(b), centreY(b));

/** A white image with dark lines drawn by `ink(x, y)`. */
function drawn(w: number, h: number, ink: (x: number, y: number) => boolean): RgbImage {
  const data = Buffer.alloc(w * h * 3, 255);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) if (ink(x, y)) data.fill(60, (y * w + x) * 3, (y * w + x) * 3 + 3);
  return { width: w, height: h, channels: 3, data };
}

describe("edge angles", () => {
  it("counts a card's edges as across and down, a road's as slanted", () => {
    const card = toPoints(drawn(390, 390, (x, y) => x >= 50 && x < 340 && y >= 100 && y < 200));
    const road = toPoints(drawn(390, 390, (x, y) => Math.abs(x - y) < 3 || Math.abs(x + 2 * y - 500) < 4));
    const all: [number, number, number, number] = [0, 0, 1, 1];
    const a = edgeAngles(card, all);
    const b = edgeAngles(road, all);
    expect(a.axis).toBeGreaterThan(500);
    expect(a.slant).toBeLessThan(0.1 * a.axis);
    expect(b.slant).toBeGreaterThan(500);
    expect(b.axis).toBeLessThan(0.2 * b.slant);
    // Skipped boxes are not looked at.
    expect(edgeAngles(road, all, [all]).area).toBe(0);
  });
});

describe("maps and paintings as pictures", () => {
  it("lists a chat's map snapshot as one row, its place names gone", async () => {
    const id = "rb-messagekit-chat-media.png";
    const image = await loadRealImage(id);
    const texts = labelledTexts(id);
    const places = [
      row("text", "Phoenix", [0.2, 0.262, 0.299, 0.276]),
      row("text", "Hermosillo", [0.262, 0.374, 0.398, 0.389]),
      row("text", "Los Mochis", [0.372, 0.473, 0.489, 0.487]),
      row("icon", "", [0.34, 0.33, 0.4, 0.37]),
    ];
    const pictures = findPictures(
      image,
      [...texts, ...places].map((r) => r.box),
    );
    // The snapshot: x 0.05–0.70, y 0.24–0.53 (MessageKit's location bubble).
    const map = pictures.find((p) => holds(p, [0.3, 0.35, 0.4, 0.4]));
    expect(map).toBeDefined();
    const kept = listPictures(image, [...texts, ...places]);
    for (const p of places) expect(kept).not.toContain(p);
    expect(kept.filter((r) => r.kind === "icon" && holds(r.box, [0.3, 0.35, 0.4, 0.4]))).toHaveLength(1);
    // Every labelled line is still listed.
    for (const t of texts) expect(kept).toContain(t);
  });

  it("finds the chat's map snapshot on a camera frame, where it falls apart into pieces", async () => {
    const id = "rb-messagekit-chat-media.png";
    for (const seed of [7, 8]) {
      const shot = await realCameraFrame(readFileSync(join(REAL_SET_DIR, "images", id)), { seed });
      const w = 585;
      const h = Math.round((w * shot.screenPx.height) / shot.screenPx.width);
      const image = stretchContrast(warpToScreen(await decodeRgb(shot.frame), shot.screenToCamera, w, h));
      const pictures = findPictures(
        image,
        labelledTexts(id).map((r) => r.box),
      );
      const map = pictures.find((p) => holds(p, [0.3, 0.35, 0.4, 0.4]));
      expect(map, `seed ${seed}`).toBeDefined();
      const [l = 0, t = 0, r = 0, b = 0] = map ?? [];
      // MessageKit's location bubble: x 0.05–0.70, y 0.24–0.53; the audio bubble above it is not in it.
      expect(l).toBeLessThan(0.1);
      expect(r).toBeGreaterThan(0.6);
      expect(t).toBeGreaterThan(0.22);
      expect(b).toBeLessThan(0.56);
      expect(b).toBeGreaterThan(0.48);
    }
  });

  it("finds a map snapshot whose pale land matches the white page in places", async () => {
    const id = "rb-jsqmessages-map.png";
    const image = await loadRealImage(id);
    const pictures = findPictures(
      image,
      labelledTexts(id).map((r) => r.box),
    );
    const map = pictures.find((p) => holds(p, [0.4, 0.75, 0.5, 0.8]));
    expect(map).toBeDefined();
    // It ends above the input bar (labelled: field, send); the map bubble itself is an element too.
    for (const e of realLabel(id).elements.filter((e) => e.label !== "map"))
      expect(holds(map as Candidate["box"], e.box), e.label).toBe(false);
  });

  it("lists a painting on paper as one row on its element, keeps text on a plate over a photo", async () => {
    const nnw = "rc-netnewswire-article-dark.jpg";
    const image = await loadRealImage(nnw);
    const texts = labelledTexts(nnw);
    const stray = row("icon", "", [0.4, 0.5, 0.5, 0.55]);
    const kept = listPictures(image, [...texts, stray]);
    const photo = realLabel(nnw).elements.find((e) => e.label === "image");
    expect(photo).toBeDefined();
    expect(kept).not.toContain(stray);
    expect(
      kept.some((r) => r.kind === "icon" && holds((photo as { box: Candidate["box"] }).box, r.box)),
    ).toBe(true);
    for (const t of texts) expect(kept).toContain(t);

    // Ice Cubes draws "ALT" on a grey plate over a post's photo: a button, not the photo's lettering.
    const ice = "rc-icecubes-trending.jpg";
    const feed = await loadRealImage(ice);
    const rows = labelledTexts(ice);
    const alt = rows.find((t) => t.label === "ALT") as Candidate;
    expect(alt).toBeDefined();
    const lettering = row("text", "ESO", [0.4, 0.5, 0.5, 0.52]);
    rows.push(lettering);
    expect(
      findPictures(
        feed,
        rows.map((r) => r.box),
      ).some((p) => holds(p, alt.box)),
    ).toBe(true);
    const listed = listPictures(feed, rows);
    expect(listed).toContain(alt);
    expect(listed).not.toContain(lettering);
  });

  it("finds no picture on settings, widgets or keyboards (rows leave them no bare edges)", async () => {
    for (const id of [
      "rc-bingpaper-settings-dark.png",
      "rd-fordpass-home-widget-dark.jpg",
      "ra-tp-keyboardcontroller-prefs.png",
      "rb-messagekit-chat.png",
    ]) {
      const image = await loadRealImage(id);
      const label = realLabel(id);
      const pictures = findPictures(image, [
        ...label.text.map((t) => t.box),
        ...label.elements.map((e) => e.box),
      ]);
      for (const t of label.text)
        expect(
          pictures.some((p) => holds(p, t.box)),
          `${id} ${t.text}`,
        ).toBe(false);
    }
  });
});
