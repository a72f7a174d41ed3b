import { describe, expect, it } from "vitest";
import type { RgbImage } from "../../../src/shared/image.js";
import type { PixelBox } from "../../../src/vision/ocr/detect.js";
import { blankRuns, emHeight, SPLIT_GAP, splitAtGaps } from "../../../src/vision/ocr/split.js";
import { loadRealImage } from "../real-set.js";

/** A white 300×40 image with black blocks (x ranges) 20 px tall: words, as far as the gaps go. */
function words(blocks: [number, number][]): RgbImage {
  const w = 300;
  const h = 40;
  const data = Buffer.alloc(w * h * 3, 255);
  for (const [a, b] of blocks) for (let y = 10; y < 30; y++) data.fill(0, (y * w + a) * 3, (y * w + b) * 3);
  return { width: w, height: h, channels: 3, data };
}
/** The ink box: 20 px tall. */
const LINE = { x0: 10, y0: 10, x1: 290, y1: 30, score: 1 };

describe("splitAtGaps", () => {
  it("cuts two labels apart at a gap of more than an em, at the space read in it", () => {
    // "Notifications" 10–120, a 60 px (3 ink heights) gap, "Favorites" 180–290; the space read at 150.
    const img = words([
      [10, 120],
      [180, 290],
    ]);
    const pieces = splitAtGaps(img, LINE, "Notifications Favorites", [{ index: 13, x: 150 }]);
    expect(pieces.map((p) => p.text)).toEqual(["Notifications", "Favorites"]);
    expect(pieces[0]?.x1).toBe(120);
    expect(pieces[1]?.x0).toBe(180);
  });

  it("keeps word spaces, and a wide gap with no space read in it", () => {
    const spaced = words([
      [10, 60],
      [68, 120],
    ]);
    expect(splitAtGaps(spaced, LINE, "Don't Allow", [{ index: 5, x: 64 }]).map((p) => p.text)).toEqual([
      "Don't Allow",
    ]);
    const icon = words([
      [10, 30],
      [90, 200],
    ]);
    // The space is read between two words of the text, far from the icon's gap.
    expect(splitAtGaps(icon, LINE, "Enable IPv6", [{ index: 6, x: 150 }])).toHaveLength(1);
  });

  it("finds blank runs only between inked columns and at least as wide as asked", () => {
    const img = words([
      [10, 50],
      [50 + SPLIT_GAP * 20 + 1, 200],
    ]);
    expect(blankRuns(img, LINE, SPLIT_GAP * 20)).toHaveLength(1);
    expect(blankRuns(img, LINE, 60)).toHaveLength(0);
  });
});

describe("splitAtGaps: a rank beside a name (camera blur)", () => {
  it("cuts at a gap of 1.05 ink heights, which a blurred camera frame leaves of a 1.15 one", () => {
    // "12" 10–40, a 21 px gap (1.05 × 20 px), "Ludmila" 61–200; the space read in the gap's middle.
    const img = words([
      [10, 40],
      [61, 200],
    ]);
    const pieces = splitAtGaps(img, LINE, "12 Ludmila", [{ index: 2, x: 50 }]);
    expect(pieces.map((p) => p.text)).toEqual(["12", "Ludmila"]);
  });
});

describe("splitAtGaps: loosely set text", () => {
  it("does not cut a line whose word spaces are all nearly as wide as the gap", () => {
    // 20 px of ink reaching from ascender to descender: a 21 px em. Gaps of 12 px (0.56 em, a word
    // space read in it) and 22 px (1.03 em): wide enough to be two labels, but not twice the word space.
    const img = words([
      [10, 60],
      [72, 130],
      [152, 200],
    ]);
    const spaces = [
      { index: 9, x: 66 },
      { index: 13, x: 141 },
    ];
    expect(splitAtGaps(img, LINE, "published the constitution", spaces)).toHaveLength(1);
  });
});

describe("emHeight", () => {
  it("takes the em from how far the line's characters reach", () => {
    // SF Pro: x-height 0.53 em, ascenders 0.74, descenders 0.20; ideographs 0.9.
    expect(emHeight("www", 53)).toBeCloseTo(100);
    expect(emHeight("Settings", 94)).toBeCloseTo(100);
    expect(emHeight("DEVICE 6", 74)).toBeCloseTo(100);
    expect(emHeight("搜索", 90)).toBeCloseTo(100);
  });
});

describe("splitAtGaps on real screenshots", () => {
  const at = (spaces: [number, number][]) => spaces.map(([index, x]) => ({ index, x }));
  const box = (x0: number, y0: number, x1: number, y1: number) => ({ x0, y0, x1, y1, score: 1 });

  it("cuts a profile's counters, 0.8 em apart with no other space on the line", async () => {
    const img = await loadRealImage("rc-icecubes-profile-dark.jpg");
    const line = box(628, 694, 1117, 731);
    const pieces = splitAtGaps(
      img,
      line,
      "Posts Following Followers",
      at([
        [5, 735],
        [15, 934],
      ]),
    );
    expect(pieces.map((p) => p.text)).toEqual(["Posts", "Following", "Followers"]);
  });

  it("cuts a title from the smaller grey label beside it", async () => {
    const img = await loadRealImage("rc-vpsny-deploy.png");
    const pieces = splitAtGaps(img, box(47, 1120, 417, 1162), "Singapore Singapore", at([[9, 252]]));
    expect(pieces.map((p) => p.text)).toEqual(["Singapore", "Singapore"]);
  });

  it("keeps a sentence's word spaces, and text half hidden under a bar in one piece", async () => {
    const profile = await loadRealImage("rc-icecubes-profile-dark.jpg");
    const joined = splitAtGaps(
      profile,
      box(64, 927, 530, 966),
      "Joined March 16, 2016",
      at([
        [6, 244],
        [12, 371],
        [16, 434],
      ]),
    );
    expect(joined).toHaveLength(1);
    const timeline = await loadRealImage("rc-netnewswire-timeline-light.png");
    const spaces = at([
      [3, 330],
      [8, 419],
      [12, 491],
      [15, 550],
      [22, 673],
      [25, 741],
      [31, 876],
    ]);
    const hidden = splitAtGaps(
      timeline,
      box(253, 216, 924, 248),
      "The full tra 20 Unread ne Devil Wea",
      spaces,
    );
    expect(hidden).toHaveLength(1);
  });
});

describe("splitAtGaps: words in two colours", () => {
  /**
   * A 13 pt line on a 2× screen: em 26 px, ink from ascender to descender 24 px (0.94 em), its ink box
   * 26 px (a row above, two below). A black word, then a systemBlue (#007AFF) one `gap` px after it.
   */
  function twoColours(gap: number, blue: boolean): RgbImage {
    const w = 300;
    const h = 50;
    const data = Buffer.alloc(w * h * 3, 255);
    const paint = (a: number, b: number, rgb: [number, number, number]) => {
      for (let y = 12; y < 36; y++) for (let x = a; x < b; x++) data.set(rgb, (y * w + x) * 3);
    };
    paint(10, 120, [0, 0, 0]);
    paint(120 + gap, 220, blue ? [0, 122, 255] : [0, 0, 0]);
    return { width: w, height: h, channels: 3, data };
  }
  const line = { x0: 10, y0: 11, x1: 220, y1: 37, score: 1 };
  const read = (gap: number, blue: boolean) =>
    splitAtGaps(twoColours(gap, blue), line, "Tap Retry", [{ index: 3, x: 120 + gap / 2 }]).map(
      (p) => p.text,
    );

  it("cuts a black label from a blue one 0.46 em after it (HIG's 8 pt spacing at 17 pt is 0.47 em)", () => {
    expect(read(12, true)).toEqual(["Tap", "Retry"]);
    // The same gap between two black words is no label break (under `SPLIT_GAP`).
    expect(read(12, false)).toEqual(["Tap Retry"]);
  });

  it("keeps a link word a plain word space (0.35 em) after black text on a sharp screenshot", () => {
    // SF Pro's word space with the side bearings is 0.3–0.45 em. A gap test whose em is shrunk for a
    // camera's blur on every image (ink height less 2 px) cuts this line: measured in session 16.
    expect(read(9, true)).toEqual(["Tap Retry"]);
  });
});

describe("splitAtGaps: a bold caption and a regular value", () => {
  /**
   * A 17 pt line on a 3× screen (em 51 px; ink from ascender to descender 48 px, 0.94 em): a caption's
   * letters as stems `capStem` px wide (SF Pro Bold ~0.14 em: 7 px; Regular ~0.08 em: 4 px), 10 px
   * apart, a gap of `gap` px, then a Regular value's stems; one black ink. Each side holds a word
   * space of 16 px (0.31 em).
   */
  function twoWeights(gap: number, capStem: number): { img: RgbImage; line: PixelBox; space: number } {
    const w = 700;
    const h = 80;
    const data = Buffer.alloc(w * h * 3, 255);
    const stems = (from: number, n: number, stem: number): number => {
      let x = from;
      for (let i = 0; i < n; i++) {
        if (i === 4) x += 16;
        for (let y = 16; y < 64; y++) data.fill(0, (y * w + x) * 3, (y * w + x + stem) * 3);
        x += stem + 10;
      }
      return x - 10;
    };
    const end = stems(10, 9, capStem);
    const last = stems(end + gap, 8, 4);
    return {
      img: { width: w, height: h, channels: 3, data },
      line: { x0: 10, y0: 15, x1: last, y1: 65, score: 1 },
      space: end + gap / 2,
    };
  }
  const read = (gap: number, capStem: number, pitch?: number) => {
    const { img, line, space } = twoWeights(gap, capStem);
    return splitAtGaps(img, line, "Elapsed Time: 2.3 Months", [{ index: 13, x: space }], pitch).map(
      (p) => p.text,
    );
  };

  it("cuts a bold caption from its regular value 0.8 em after it, even on a line taken for monospaced", () => {
    // A pitch of 27 px (as `monospace.ts` measured on c8-ibru-dashboard's `2.3 Months` line) asks for
    // three cells (81 px) between labels; the weights tell them apart from a gap past any word space.
    expect(read(43, 7, 27)).toEqual(["Elapsed Time:", "2.3 Months"]);
    expect(read(28, 7)).toEqual(["Elapsed Time:", "2.3 Months"]);
    // One weight: a gap under `SPLIT_GAP` (0.53 em) is no label break, nor one under three cells.
    expect(read(28, 4)).toEqual(["Elapsed Time: 2.3 Months"]);
    expect(read(43, 4, 27)).toEqual(["Elapsed Time: 2.3 Months"]);
  });

  it("keeps a bold word a plain word space (0.35 em) before regular text", () => {
    expect(read(18, 7)).toEqual(["Elapsed Time: 2.3 Months"]);
  });
});
