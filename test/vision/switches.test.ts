import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { realScreenSchema } from "../../src/lab/real/labels.js";
import type { RgbImage } from "../../src/shared/image.js";
import { decodeRgb } from "../../src/vision/rectify.js";
import type { Candidate } from "../../src/vision/row.js";
import { dropSpuriousRows } from "../../src/vision/spurious.js";
import { findSwitches } from "../../src/vision/switches.js";

type Rgb = [number, number, number];

/** A blank screen `wPt`×`hPt` points at `scale` px/pt, with a painter for point-space shapes. */
function canvas(wPt: number, hPt: number, scale: number, bg: Rgb) {
  const width = Math.round(wPt * scale);
  const height = Math.round(hPt * scale);
  const data = Buffer.alloc(width * height * 3);
  for (let i = 0; i < width * height; i++) data.set(bg, i * 3);
  /** Paint every pixel whose centre (in points) satisfies `inside` with `colour`. */
  const paint = (
    box: [number, number, number, number],
    inside: (x: number, y: number) => boolean,
    colour: Rgb,
  ) => {
    for (let py = Math.floor(box[1] * scale); py < Math.ceil(box[3] * scale); py++)
      for (let px = Math.floor(box[0] * scale); px < Math.ceil(box[2] * scale); px++) {
        if (px < 0 || py < 0 || px >= width || py >= height) continue;
        if (inside((px + 0.5) / scale, (py + 0.5) / scale)) data.set(colour, (py * width + px) * 3);
      }
  };
  const image: RgbImage = { width, height, channels: 3, data };
  return { image, paint };
}

/** Inside a capsule (stadium) of the given box. */
const capsule =
  (x0: number, y0: number, x1: number, y1: number) =>
  (x: number, y: number): boolean => {
    const r = (y1 - y0) / 2;
    const dx = Math.max(0, Math.abs(x - (x0 + x1) / 2) - ((x1 - x0) / 2 - r));
    return dx * dx + (y - (y0 + y1) / 2) ** 2 <= r * r;
  };

describe("findSwitches: Apple's switch styles", () => {
  it("finds an iOS 7–12 off switch drawn as an outline (white track, thin grey border)", () => {
    const { image, paint } = canvas(390, 844, 2, [255, 255, 255]);
    for (const y of [200, 400]) {
      // UISwitch 51×31 pt: a 1.5 pt #E5E5EA border, the white 27 pt knob at the left with a grey rim.
      paint([320, y, 371, y + 31], capsule(320, y, 371, y + 31), [229, 229, 234]);
      paint([320, y, 371, y + 31], capsule(321.5, y + 1.5, 369.5, y + 29.5), [255, 255, 255]);
      paint([320, y, 371, y + 31], capsule(321, y + 1, 350, y + 30), [210, 210, 214]);
      paint([320, y, 371, y + 31], capsule(322, y + 2, 349, y + 29), [255, 255, 255]);
    }
    const found = findSwitches(image);
    expect(found.map((s) => s.on)).toEqual([false, false]);
    expect(found[0]?.box[0]).toBeCloseTo(320 / 390, 1);
    expect(found[0]?.box[1]).toBeCloseTo(200 / 844, 2);
  });

  it("finds an iOS 7–12 outline off switch on a grey cell: clear track, the white knob brighter than it", () => {
    // The same control on a cell that is not white (UIKit's grouped background #EFEFF4, an app's grey
    // cells): the track is clear, so inside it is the cell's grey, and the knob, white, is brighter than
    // both — the knob's rim and its shadow are lines with white on one side and grey on the other.
    const { image, paint } = canvas(375, 667, 2, [239, 239, 244]);
    for (const y of [200, 400]) {
      paint([300, y, 351, y + 31], capsule(300, y, 351, y + 31), [226, 226, 231]);
      paint([300, y, 351, y + 31], capsule(301.5, y + 1.5, 349.5, y + 29.5), [239, 239, 244]);
      // The knob's shadow greys the track's middle a little: the border is then hardly darker than it.
      paint([300, y, 351, y + 31], capsule(303, y + 6, 348, y + 25), [235, 235, 240]);
      // The knob's soft shadow, a rim, the knob.
      paint([299, y, 332, y + 32], capsule(299.5, y + 0.5, 331.5, y + 31.5), [225, 225, 229]);
      paint([300, y, 331, y + 31], capsule(300.5, y + 1, 330.5, y + 30.5), [200, 200, 204]);
      paint([300, y, 331, y + 31], capsule(301.5, y + 2, 329.5, y + 29.5), [255, 255, 255]);
    }
    const found = findSwitches(image);
    expect(found.map((s) => s.on)).toEqual([false, false]);
    expect(found[0]?.box[0]).toBeCloseTo(300 / 375, 1);
  });

  it("finds iOS 26 switches (64×28 pt, pill knob, an O label on the off track) in dark mode", () => {
    const { image, paint } = canvas(414, 896, 3, [28, 28, 30]);
    const draw = (y: number, on: boolean) => {
      paint([330, y, 394, y + 28], capsule(330, y, 394, y + 28), on ? [48, 209, 88] : [57, 57, 61]);
      const kx = on ? 354 : 332;
      paint([kx, y + 2, kx + 38, y + 26], capsule(kx, y + 2, kx + 38, y + 26), [255, 255, 255]);
      // The Accessibility "On/Off Labels" ring, 1 pt stroke.
      if (!on)
        paint(
          [376, y + 9, 386, y + 19],
          (x, yy) => Math.abs(Math.hypot(x - 381, yy - (y + 14)) - 4.5) < 0.6,
          [120, 120, 124],
        );
    };
    draw(300, false);
    draw(500, true);
    expect(findSwitches(image).map((s) => s.on)).toEqual([false, true]);
  });

  it("reads Display Zoom (320 pt wide) and a tinted on track", () => {
    const { image, paint } = canvas(320, 568, 2, [255, 255, 255]);
    paint([255, 100, 306, 131], capsule(255, 100, 306, 131), [94, 92, 230]);
    paint([277, 102, 304, 129], capsule(277, 102, 304, 129), [255, 255, 255]);
    const [s] = findSwitches(image);
    expect(s?.on).toBe(true);
  });

  it("takes no coloured disc beside a white background, nor light map blocks, for a switch", () => {
    const { image, paint } = canvas(390, 844, 3, [245, 240, 230]);
    // A round action button (a red disc with a white arrow) on a beige sheet.
    paint([300, 200, 356, 256], (x, y) => Math.hypot(x - 328, y - 228) <= 28, [190, 80, 50]);
    paint([325, 210, 331, 246], () => true, [255, 255, 255]);
    // City blocks: light rectangles parted by darker streets.
    for (let bx = 20; bx < 260; bx += 40)
      for (let by = 400; by < 700; by += 30) paint([bx, by, bx + 34, by + 24], () => true, [252, 250, 245]);
    expect(findSwitches(image)).toEqual([]);
  });
});

describe("findSwitches on real screenshots", () => {
  const DATASET = join(import.meta.dirname, "..", "..", "datasets", "real-iphone");
  const check = async (id: string) => {
    const label = realScreenSchema.parse(
      JSON.parse(readFileSync(join(DATASET, "labels", `${id}.json`), "utf8")),
    );
    const image = await decodeRgb(readFileSync(join(DATASET, "images", label.image)));
    const found = findSwitches(image);
    const truths = label.elements.filter((e) => e.kind === "switch");
    // Every labelled switch has one found switch whose centre is on it, in the labelled state …
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
    // … and nothing else is taken for a switch.
    expect(found).toHaveLength(truths.length);
  };

  it("reads on and outline-off switches on a Display Zoom settings list (iOS 12)", () =>
    check("ra-atlantis-app-list-zh"));
  it("reads iOS 26 off switches with On/Off labels", () => check("ra-azura-add-station"));
  it("reads dark-mode off switches", () => check("ra-cowabunga-home"));
  it("reads a small tinted switch with a small knob", () => check("rc-bingpaper-settings-dark"));
  it("takes no round buttons on a podcast feed for switches", () => check("rc-tubecast-feed"));
});

describe("dropSpuriousRows", () => {
  const text = (label: string, box: Candidate["box"]): Candidate => ({
    kind: "text",
    label,
    box,
    conf: 0.95,
  });
  const icon = (box: Candidate["box"]): Candidate => ({ kind: "icon", label: "", box, conf: 0.5 });

  it("drops an icon box spanning a table row around its title or a row tall, keeps glyphs and thin tracks", () => {
    const aspect = 844 / 390;
    const row = icon([0.04, 0.3, 0.96, 0.35]);
    const title = text("Wi-Fi", [0.15, 0.315, 0.3, 0.335]);
    const glyph = icon([0.05, 0.31, 0.12, 0.34]);
    // A row-tall (≥ 44 pt) wide box with nothing named in it is a card or band, not a control…
    const banner = icon([0.04, 0.5, 0.96, 0.55]);
    // … while a thinner one may be a slider's or segmented control's track (≤ 32 pt): it stays.
    const track = icon([0.04, 0.5, 0.96, 0.515]);
    expect(dropSpuriousRows([row, title, glyph, banner, track], aspect)).toEqual([title, glyph, track]);
    // A wide box that is not much wider than tall (a photo, a card) stays.
    const card = icon([0.04, 0.6, 0.96, 0.75]);
    const caption = text("Photo", [0.4, 0.7, 0.6, 0.72]);
    expect(dropSpuriousRows([card, caption], aspect)).toEqual([card, caption]);
  });
});
