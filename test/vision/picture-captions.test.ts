import { describe, expect, it } from "vitest";
import type { FracBox } from "../../src/shared/box.js";
import type { RgbImage } from "../../src/shared/image.js";
import { pictureCaptions } from "../../src/vision/picture-captions.js";
import { findPictures, listPictures } from "../../src/vision/pictures.js";
import type { Candidate } from "../../src/vision/row.js";
import { centreX, centreY, contains } from "../../src/vision/row.js";
import { loadRealImage, realLabel } from "./real-set.js";

/**
 * Text and controls an app draws over a picture are listed; lettering in the picture is not. Synthetic
 * screens at 1 px a point (390 × 844, a white page) with a photo-like texture, and dev-set screens whose
 * pictures carry artwork lettering (labelled as not text).
 */

const W = 390;
const H = 844;
const ASPECT = H / W;
const row = (kind: Candidate["kind"], label: string, px: [number, number, number, number]): Candidate => ({
  kind,
  label,
  box: [px[0] / W, px[1] / H, px[2] / W, px[3] / H],
  conf: 0.9,
});

/** A white screen with a continuous-tone texture (many colours, contours at every angle) in `area` (px). */
function photoScreen(area: [number, number, number, number]): RgbImage {
  const data = Buffer.alloc(W * H * 3, 255);
  let seed = 12345;
  const rand = (): number => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed / 0x7fffffff;
  };
  for (let y = area[1]; y < area[3]; y++)
    for (let x = area[0]; x < area[2]; x++) {
      const o = (y * W + x) * 3;
      const n = (rand() - 0.5) * 60;
      const c = (v: number): number => Math.max(0, Math.min(255, Math.round(v + n)));
      data[o] = c(110 + 70 * Math.sin((x + y) / 9) + 30 * Math.sin(x / 23));
      data[o + 1] = c(120 + 60 * Math.sin((x - 2 * y) / 13));
      data[o + 2] = c(100 + 60 * Math.sin((3 * x + y) / 17));
    }
  return { width: W, height: H, channels: 3, data };
}

const on = (p: FracBox, r: Candidate): boolean => contains(p, centreX(r.box), centreY(r.box));

describe("captions an app sets over a picture", () => {
  it("keeps a widget's title and wrapped caption at the picture's margin, drops its lettering", () => {
    // A widget-like photo 16 pt inside the page margins, its text 16 pt inside the photo.
    const screen = photoScreen([24, 100, 366, 340]);
    const title = row("text", "Arches Across an Arctic Sky", [40, 262, 300, 280]);
    const line1 = row("text", "What are these two giant arches across", [40, 286, 330, 301]);
    const line2 = row("text", "the sky?", [40, 305, 100, 320]);
    const lettering = row("text", "NIGHT DRIVE", [150, 170, 260, 200]);
    const rows = [title, line1, line2, lettering];
    const pics = findPictures(
      screen,
      rows.map((r) => r.box),
    );
    expect(pics.some((p) => on(p, title))).toBe(true);
    const kept = listPictures(screen, rows);
    for (const r of [title, line1, line2]) expect(kept).toContain(r);
    expect(kept).not.toContain(lettering);
  });

  it("takes a paragraph at the leading margin, not strewn names, one line or centred lettering", () => {
    const pic: FracBox = [24 / W, 100 / H, 366 / W, 340 / H];
    const para = [
      row("text", "21st Century Wet Collodion Moon", [40, 250, 330, 270]),
      row("text", "In the mid 19th century, one of the", [40, 274, 300, 290]),
      row("text", "photographic technologies used", [40, 292, 310, 308]),
    ];
    expect([...pictureCaptions(para, pic, ASPECT)]).toEqual(para);
    // A map's names: short, scattered, never flush to one edge.
    const names = [
      row("text", "Phoenix", [70, 120, 115, 132]),
      row("text", "Tucson", [95, 140, 135, 152]),
      row("text", "Nogales", [58, 160, 100, 172]),
      row("text", "Hermosillo", [92, 200, 150, 213]),
    ];
    expect(pictureCaptions(names, pic, ASPECT).size).toBe(0);
    // One line alone, or a centred two-line title far inside the picture (a thumbnail's lettering).
    expect(pictureCaptions([para[0] as Candidate], pic, ASPECT).size).toBe(0);
    const centred = [
      row("text", "FROM EARTH", [120, 180, 270, 200]),
      row("text", "TO THE STARS", [120, 204, 275, 224]),
    ];
    expect(pictureCaptions(centred, pic, ASPECT).size).toBe(0);
    // Display lettering taller than any text style.
    const display = [
      row("text", "MONSOON", [40, 200, 300, 240]),
      row("text", "NIGHT DRIVE", [40, 244, 330, 284]),
    ];
    expect(pictureCaptions(display, pic, ASPECT).size).toBe(0);
  });

  it("keeps the artwork lettering of the dev set's video thumbnails out", async () => {
    // TubeCast's player: the video's own title lettering in its artwork (not labelled as text).
    const id = "rc-tubecast-player.jpg";
    const image = await loadRealImage(id);
    const texts: Candidate[] = realLabel(id).text.map((t) => ({
      kind: "text",
      label: t.text,
      box: t.box,
      conf: 1,
    }));
    // What the OCR reads in it.
    const art: Candidate[] = [
      { kind: "text", label: "人类如何丈量世界", box: [0.218, 0.338, 0.723, 0.37], conf: 1 },
      { kind: "text", label: ". 2", box: [0.723, 0.343, 0.769, 0.359], conf: 1 },
    ];
    const kept = listPictures(image, [...texts, ...art]);
    for (const a of art) expect(kept).not.toContain(a);
    for (const t of texts) expect(kept).toContain(t);
  });
});

describe("round buttons over a picture", () => {
  it("keeps a button's disc over a photo, drops a shape of the photo itself", () => {
    const screen = photoScreen([24, 150, 320, 800]);
    // A white disc (44 pt) with a dark glyph at its centre, as a map's locate button.
    const [cx, cy, r] = [270, 700, 22];
    for (let y = cy - r; y <= cy + r; y++)
      for (let x = cx - r; x <= cx + r; x++) {
        const d = Math.hypot(x - cx, y - cy);
        if (d > r) continue;
        const v = d < 9 ? 40 : 250;
        screen.data.fill(v, (y * W + x) * 3, (y * W + x) * 3 + 3);
      }
    const button = row("icon", "", [cx - r, cy - r, cx + r, cy + r]);
    const blob = row("icon", "", [100, 300, 144, 344]);
    const kept = listPictures(screen, [button, blob]);
    expect(kept).toContain(button);
    expect(kept).not.toContain(blob);
  });
});

describe("content views", () => {
  const names = [
    row("text", "West Lake Stadium", [150, 300, 240, 314]),
    row("text", "Qiushi Village", [145, 480, 220, 494]),
    row("text", "Go here", [315, 760, 360, 776]),
    row("icon", "", [335, 640, 370, 675]),
  ];

  it("lists what is drawn over a map running from one side across most of the screen", () => {
    // A map from the right edge across 90% of the width, its left strip page-white (pale land).
    const screen = photoScreen([39, 150, 390, 800]);
    const kept = listPictures(screen, names);
    for (const r of names) expect(kept).toContain(r);
    expect(findPictures(screen).length).toBe(0);
  });

  it("still takes a map set inside the margins for a picture", () => {
    const screen = photoScreen([24, 150, 320, 800]);
    const kept = listPictures(screen, names.slice(0, 2));
    expect(kept.filter((r) => r.kind === "text")).toHaveLength(0);
  });
});
