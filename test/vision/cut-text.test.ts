import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { realCameraFrame } from "../../src/lab/real/camera.js";
import type { RgbImage } from "../../src/shared/image.js";
import { textCutByOverlay } from "../../src/vision/cut-text.js";
import { decodeRgb, stretchContrast, warpToScreen } from "../../src/vision/rectify.js";
import type { Candidate } from "../../src/vision/row.js";
import { loadRealImage, REAL_SET_DIR, realLabel } from "./real-set.js";

const labelRows = (name: string): Candidate[] =>
  realLabel(name).text.map((t): Candidate => ({ kind: "text", label: t.text, box: t.box, conf: 0.9 }));

/** A `w`×`h` screen of one grey with rectangles of other greys. */
function screen(
  w: number,
  h: number,
  bg: number,
  rects: [number, number, number, number, number][],
): RgbImage {
  const data = Buffer.alloc(w * h * 3, bg);
  for (const [x0, y0, x1, y1, v] of rects)
    for (let y = y0; y < y1; y++) data.fill(v, (y * w + x0) * 3, (y * w + x1) * 3);
  return { width: w, height: h, channels: 3, data };
}

describe("textCutByOverlay", () => {
  it("finds the line the share sheet's top edge cuts, and none of the labelled lines", async () => {
    const name = "rd-zkytech-share-sheet-zh.jpg";
    const image = await loadRealImage(name);
    const cut: Candidate = {
      kind: "text",
      label: '60 \\A / 比赛开始时间的容器宽度 比如： "16:00l"nlet',
      box: [0.054, 0.45, 0.87, 0.464],
      conf: 0.87,
    };
    const found = textCutByOverlay(image, [...labelRows(name), cut]);
    expect([...found]).toEqual([cut]);
  });

  it("keeps every labelled line of screens with sheets, bars and cards", async () => {
    for (const name of [
      "rd-fordpass-action-sheet.jpg",
      "ra-mauidocs-location-alert.png",
      "rc-netnewswire-timeline-light.png",
      "rc-icecubes-trending.jpg",
    ]) {
      const found = textCutByOverlay(await loadRealImage(name), labelRows(name));
      expect(
        [...found].map((r) => r.label),
        name,
      ).toEqual([]);
    }
  });

  it("keeps a line whose background changes under it, and a line on a tag's fill", () => {
    // 400×800, white page; a grey band from y 410 down (a sheet) and a dark line of "text" at 400–420.
    const ink: [number, number, number, number, number][] = [];
    for (let x = 60; x < 300; x += 8) ink.push([x, 400, x + 4, 420, 30]);
    const row: Candidate = { kind: "text", label: "line", box: [0.15, 0.5, 0.75, 0.525], conf: 0.9 };
    // The ink goes on below the edge: drawn on the band, not hidden by it.
    const under = screen(400, 800, 250, [[0, 410, 400, 800, 200], ...ink]);
    expect(textCutByOverlay(under, [row]).size).toBe(0);
    // The ink stops at the edge: the band covers the rest of the line.
    const covered = screen(400, 800, 250, [...ink, [0, 412, 400, 800, 200]]);
    expect(textCutByOverlay(covered, [row]).size).toBe(1);
    // A tag's fill under the lower half of the text only, short of the margins: no overlay's edge.
    const tag = screen(400, 800, 250, [...ink, [50, 412, 310, 440, 200]]);
    expect(textCutByOverlay(tag, [row]).size).toBe(0);
  });

  it("finds the cut line on camera frames, whose box ends a row or two under the blurred edge", async () => {
    const name = "rd-zkytech-share-sheet-zh.jpg";
    for (const seed of [7, 31]) {
      const shot = await realCameraFrame(readFileSync(join(REAL_SET_DIR, "images", name)), { seed });
      const w = 585;
      const h = Math.round((w * shot.screenPx.height) / shot.screenPx.width);
      const image = stretchContrast(warpToScreen(await decodeRgb(shot.frame), shot.screenToCamera, w, h));
      // The OCR's box for the cut line on this frame: it hugs the visible top half of the glyphs.
      const cut: Candidate = {
        kind: "text",
        label: '60 1A/比赛开始时间的容器宽度 比如： 1"16:001"nlet',
        box: [0.053, 0.45, 0.87, 0.462],
        conf: 0.85,
      };
      const found = textCutByOverlay(image, [...labelRows(name), cut]);
      expect([...found], `seed ${seed}`).toEqual([cut]);
    }
  });

  it("keeps a widget's last line whose camera box reaches past the widget's bottom edge", async () => {
    // Filmed and rectified as the pipeline does (585 px wide); the OCR's box for the line on this frame.
    const shot = await realCameraFrame(
      readFileSync(join(REAL_SET_DIR, "images", "rd-fordpass-home-widgets-light.jpg")),
      { seed: 115 },
    );
    const w = 585;
    const h = Math.round((w * shot.screenPx.height) / shot.screenPx.width);
    const image = stretchContrast(warpToScreen(await decodeRgb(shot.frame), shot.screenToCamera, w, h));
    const row: Candidate = {
      kind: "text",
      label: "Updated: 2 Hours ago",
      box: [0.621, 0.261, 0.835, 0.275],
      conf: 0.9,
    };
    expect(textCutByOverlay(image, [row]).size).toBe(0);
  });
});
