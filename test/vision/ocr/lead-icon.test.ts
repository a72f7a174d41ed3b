import { describe, expect, it } from "vitest";
import type { RgbImage } from "../../../src/shared/image.js";
import { iconReadAsOpener, leadingIcon } from "../../../src/vision/ocr/lead-icon.js";
import { loadRealImage } from "../real-set.js";

/** A line's ink box (image pixels), its text and where its first space was read, on a real screenshot. */
const box = (x0: number, y0: number, x1: number, y1: number) => ({ x0, y0, x1, y1, score: 1 });

describe("leadingIcon on real screenshots", () => {
  it("finds icons read as a first character: a favicon tile, a tyre, the location arrow, a triangle", async () => {
    const cases: [string, ReturnType<typeof box>, string, number][] = [
      ["rc-netnewswire-feeds-light.png", box(95, 1582, 420, 1656), "K kottke.org", 181],
      ["rc-netnewswire-feeds-dark.png", box(107, 1778, 432, 1852), "K kottke.org", 193],
      ["rd-fordpass-home-widget-dark.jpg", box(534, 772, 783, 815), "0 Tires (psi)", 571],
      ["ra-rndocs-location-alert.png", box(82, 385, 258, 408), "1 Precise: On", 106],
      ["rd-zkytech-https-capture-zh.png", box(37, 104, 137, 136), "· 搜索", 71],
    ];
    for (const [name, line, text, spaceX] of cases)
      expect(leadingIcon(await loadRealImage(name), line, text, spaceX), text).toBe(true);
  });

  it("keeps real first characters: digits, a capital, a dot marker, two glyphs before the space", async () => {
    const cases: [string, ReturnType<typeof box>, string, number][] = [
      ["ra-azura-sleep-timer-menu.png", box(546, 1518, 698, 1560), "1 hour", 575],
      ["ra-azura-sleep-timer-menu.png", box(528, 1863, 715, 1905), "2 hours", 562],
      ["ra-tp-calendar-new-event.png", box(419, 351, 717, 377), "9 Mar 2021 06:09", 443],
      ["rc-yattee-home-compact.png", box(193, 721, 410, 750), "0 bookmarks", 219],
      [
        "rc-netnewswire-timeline-light.png",
        box(241, 1500, 1029, 1550),
        "A collection of thousands of pho-",
        280,
      ],
      ["rb-messagekit-chat-media.png", box(582, 942, 779, 992), ". Chihuahua", 602],
      ["rc-bingpaper-list-dark.jpg", box(208, 615, 450, 635), "J R Eyerman/Shutterstock", 241],
    ];
    for (const [name, line, text, spaceX] of cases)
      expect(leadingIcon(await loadRealImage(name), line, text, spaceX), text).toBe(false);
  });
});

describe("iconReadAsOpener", () => {
  /** A white 120×48 image with black rectangles `[x0, y0, x1, y1)`. */
  const drawn = (rects: [number, number, number, number][]): RgbImage => {
    const w = 120;
    const data = Buffer.alloc(w * 48 * 3, 255);
    for (const [x0, y0, x1, y1] of rects)
      for (let y = y0; y < y1; y++) data.fill(0, (y * w + x0) * 3, (y * w + x1) * 3);
    return { width: w, height: 48, channels: 3, data };
  };
  const line = box(0, 0, 120, 48);
  const han: [number, number, number, number][] = [
    [60, 6, 100, 10],
    [78, 6, 82, 42],
    [60, 38, 100, 42],
  ];
  // rd-bark-shortcuts-search-bark-zh's ♪ before 媒: a flag at the top right, a stem, a head at the bottom left.
  const note: [number, number, number, number][] = [
    [14, 4, 28, 14],
    [14, 4, 18, 40],
    [2, 32, 18, 44],
  ];
  // 『: its corner at the top left, a second stroke inside.
  const bracket: [number, number, number, number][] = [
    [4, 4, 26, 8],
    [4, 4, 8, 40],
    [12, 12, 26, 15],
    [12, 12, 15, 40],
  ];

  it("cuts an icon read as 『 before an ideograph, where the bracket's corner has no ink", () => {
    const cut = iconReadAsOpener(drawn([...note, ...han]), line, "『媒");
    expect(cut).toBeGreaterThanOrEqual(28);
    expect(cut).toBeLessThan(60);
  });

  it("keeps a real corner bracket, a closed one, and one before Latin text", () => {
    expect(iconReadAsOpener(drawn([...bracket, ...han]), line, "『媒")).toBeUndefined();
    expect(iconReadAsOpener(drawn([...note, ...han]), line, "『媒』")).toBeUndefined();
    expect(iconReadAsOpener(drawn([...note, ...han]), line, "『A")).toBeUndefined();
  });
});

/** A 3 px/pt line at 17 pt (cap height 36 px from y 20 to 56), white, with strokes drawn in black. */
function line17(strokes: [number, number, number, number][]): RgbImage {
  const width = 600;
  const height = 80;
  const data = Buffer.alloc(width * height * 3, 255);
  const ink = (x: number, y: number) => {
    for (let dy = -2; dy <= 2; dy++)
      for (let dx = -2; dx <= 2; dx++)
        data.fill(0, ((y + dy) * width + x + dx) * 3, ((y + dy) * width + x + dx) * 3 + 3);
  };
  for (const [ax, ay, bx, by] of strokes) {
    const n = Math.max(Math.abs(bx - ax), Math.abs(by - ay));
    for (let k = 0; k <= n; k++)
      ink(Math.round(ax + ((bx - ax) * k) / n), Math.round(ay + ((by - ay) * k) / n));
  }
  // "Name": four cap-height letters as stems and bars after the space (x 80–220).
  for (const x of [80, 110, 120, 150, 160, 190, 200, 220]) for (let y = 20; y <= 56; y++) ink(x, y);
  return { width, height, channels: 3, data };
}

describe("a menu's check mark read as V", () => {
  it("is an icon when its left arm starts halfway down (SF Symbols' checkmark)", () => {
    // ✓: short arm from (14, 38) down to the vertex (26, 56), long arm up to (52, 18).
    const img = line17([
      [14, 38, 26, 56],
      [26, 56, 52, 18],
    ]);
    expect(leadingIcon(img, box(10, 16, 224, 60), "V Name", 66)).toBe(true);
  });

  it("keeps a V whose two arms both start at the cap line", () => {
    const img = line17([
      [12, 20, 32, 56],
      [32, 56, 52, 20],
    ]);
    expect(leadingIcon(img, box(10, 16, 224, 60), "V Name", 66)).toBe(false);
  });
});

describe("a symbol in a ring read as a round letter", () => {
  /** A ring of radius 18 round (32, 38), cap height tall, as 24 chords. */
  const ring: [number, number, number, number][] = Array.from({ length: 24 }, (_, k) => {
    const a = (2 * Math.PI * k) / 24;
    const b = (2 * Math.PI * (k + 1)) / 24;
    return [
      Math.round(32 + 18 * Math.cos(a)),
      Math.round(38 + 18 * Math.sin(a)),
      Math.round(32 + 18 * Math.cos(b)),
      Math.round(38 + 18 * Math.sin(b)),
    ];
  });

  it("is an icon when ink fills the ring's middle (a tyre's `!`, one hole as a camera's blur leaves it)", () => {
    const img = line17([...ring, [32, 28, 32, 40]]);
    expect(leadingIcon(img, box(10, 16, 224, 60), "O Name", 66)).toBe(true);
    expect(leadingIcon(img, box(10, 16, 224, 60), "0 Name", 66)).toBe(true);
  });

  it("keeps an O or 0 whose counter is blank, and other letters with ink in their middle", () => {
    expect(leadingIcon(line17(ring), box(10, 16, 224, 60), "O Name", 66)).toBe(false);
    expect(leadingIcon(line17(ring), box(10, 16, 224, 60), "0 Name", 66)).toBe(false);
    // Read as a capital with one counter that does not span its middle (`P`, `A`): left as read.
    expect(leadingIcon(line17([...ring, [32, 28, 32, 40]]), box(10, 16, 224, 60), "P Name", 66)).toBe(false);
  });
});

describe("a bar read before a space", () => {
  it("keeps a stem of cap height as I: one stroke fills its box (`I Agree`, `I Don’t Know`)", () => {
    const img = line17([[30, 20, 30, 56]]);
    expect(leadingIcon(img, box(10, 16, 224, 60), "I Name", 66)).toBe(false);
    expect(leadingIcon(img, box(10, 16, 224, 60), "l Name", 66)).toBe(false);
  });

  it("still cuts a bar taller than the text (a colour strip, a divider) and a square read as I", () => {
    expect(leadingIcon(line17([[30, 4, 30, 75]]), box(10, 2, 224, 78), "I Name", 66)).toBe(true);
    const square: [number, number, number, number][] = Array.from({ length: 33 }, (_, k) => [
      16,
      22 + k,
      50,
      22 + k,
    ]);
    expect(leadingIcon(line17(square), box(10, 16, 224, 60), "I Name", 66)).toBe(true);
  });
});
