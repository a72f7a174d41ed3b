import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { RgbImage } from "../../../src/shared/image.js";
import { appleNames } from "../../../src/vision/ocr/apple-names.js";
import {
  closingQuote,
  curlQuotes,
  initialCase,
  quoteShape,
  typographicQuotes,
} from "../../../src/vision/ocr/typography.js";
import { decodeRgb } from "../../../src/vision/rectify.js";

const DATASET = "datasets/real-iphone/images";

/** A white `w`×`h` image with black ink wherever `ink(x, y)` holds. */
function drawn(w: number, h: number, ink: (x: number, y: number) => boolean): RgbImage {
  const data = Buffer.alloc(w * h * 3, 255);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) if (ink(x, y)) data.fill(0, (y * w + x) * 3, (y * w + x) * 3 + 3);
  return { width: w, height: h, channels: 3, data };
}

/** A 40 px tall line box from x 10 to 190 with a mark 12 px tall at x 100: upright, or its top 4 px right. */
const LINE = { x0: 10, y0: 10, x1: 190, y1: 50, score: 1 };
const mark = (lean: number) =>
  drawn(200, 60, (x, y) => {
    // A letter left of the mark (reaching the baseline) keeps the line realistic.
    if (x >= 30 && x < 40 && y >= 12 && y < 50) return true;
    if (y < 12 || y >= 24) return false;
    const shift = (lean * (24 - y)) / 12;
    return x >= 98 + shift && x < 102 + shift;
  });

describe("quoteShape", () => {
  it("tells an upright wedge from a mark whose top leans right (drawn)", () => {
    expect(quoteShape(mark(0), LINE, 100)).toBe("straight");
    expect(quoteShape(mark(4), LINE, 101)).toBe("curly");
  });

  it("measures a double mark whose strokes blur into one blob (a camera frame) as one mark", () => {
    // Two strokes 3 px apart, their tops 4 px right of their bottoms, joined by a 2 px bridge of
    // blurred ink: one component 11 px wide and 12 px tall.
    const joined = (lean: number) =>
      drawn(200, 60, (x, y) => {
        if (x >= 30 && x < 40 && y >= 12 && y < 50) return true;
        if (y < 12 || y >= 24) return false;
        const shift = (lean * (24 - y)) / 12;
        const inStroke = (x0: number) => x >= x0 + shift && x < x0 + 4 + shift;
        return inStroke(94) || inStroke(101) || (y >= 16 && y < 18 && x >= 94 + shift && x < 105 + shift);
      });
    expect(quoteShape(joined(4), LINE, 101, true)).toBe("curly");
    expect(quoteShape(joined(0), LINE, 99, true)).toBe("straight");
    // As a single mark (`'`) the blob is too wide to be one.
    expect(quoteShape(joined(4), LINE, 101)).toBeUndefined();
  });

  it("answers nothing where no lone small mark hangs from the cap height", () => {
    expect(
      quoteShape(
        drawn(200, 60, () => false),
        LINE,
        100,
      ),
    ).toBeUndefined();
    // Only a full-height letter near x: it reaches the baseline, so it is no quote mark.
    expect(quoteShape(mark(0), LINE, 35)).toBeUndefined();
  });

  it("reads the curly apostrophe of iOS's “Don’t Allow” and a straight one in a developer's string (real)", async () => {
    // Ink boxes and mark positions as the OCR engine read them (detail pixels).
    const alert = await decodeRgb(readFileSync(join(DATASET, "ra-rndocs-location-alert.png")));
    const tweak = await decodeRgb(readFileSync(join(DATASET, "ra-cowabunga-settings-extra-tools.png")));
    const lineOf = (img: RgbImage, box: number[]) => ({
      x0: (box[0] ?? 0) * img.width,
      y0: (box[1] ?? 0) * img.height,
      x1: (box[2] ?? 0) * img.width,
      y1: (box[3] ?? 0) * img.height,
      score: 1,
    });
    // Label boxes (they hug the ink): "Don’t Allow" and "Don't Lock After Respring".
    const dont = lineOf(alert, [0.3672, 0.8151, 0.6359, 0.8389]);
    const lock = lineOf(tweak, [0.088, 0.3198, 0.6044, 0.3403]);
    expect(apostropheShape(alert, dont)).toBe("curly");
    expect(apostropheShape(tweak, lock)).toBe("straight");
  });
});

/** The shape of the first small mark found scanning the line's first third (where `Don'` puts it). */
function apostropheShape(
  img: RgbImage,
  line: { x0: number; y0: number; x1: number; y1: number; score: number },
) {
  const step = (line.y1 - line.y0) / 8;
  for (let x = line.x0; x < line.x0 + (line.x1 - line.x0) / 3; x += step) {
    const s = quoteShape(img, line, x);
    if (s) return s;
  }
  return undefined;
}

describe("curlQuotes", () => {
  const all = (text: string) =>
    new Map(Array.from(text).flatMap((c, i) => (c === "'" || c === '"' ? [[i, "curly" as const]] : [])));
  it("opens after a space or bracket before a word, closes elsewhere (apostrophes close)", () => {
    expect(curlQuotes(`Allow "Maps" to`, all(`Allow "Maps" to`))).toBe("Allow “Maps” to");
    expect(curlQuotes(`Don't Allow`, all(`Don't Allow`))).toBe("Don’t Allow");
    expect(curlQuotes(`'Sarah Stone's'`, all(`'Sarah Stone's'`))).toBe("‘Sarah Stone’s’");
    expect(curlQuotes(`("ok")`, all(`("ok")`))).toBe("(“ok”)");
    expect(curlQuotes(`Peoples'`, all(`Peoples'`))).toBe("Peoples’");
    // A space read after an opening mark (blurred frames) still opens it; before a closing one it stays.
    expect(curlQuotes(`wild. " Stories`, all(`wild. " Stories`))).toBe("wild. “ Stories");
    expect(curlQuotes(`day" became`, all(`day" became`))).toBe("day” became");
  });
  it("straightens the recogniser's own curly marks measured straight, and only those", () => {
    const text = "is disabled ‘Hide cancel’ and “ok”";
    const straight = new Map(
      Array.from(text).flatMap((c, i) => (/[‘’“”]/u.test(c) ? [[i, "straight" as const]] : [])),
    );
    expect(curlQuotes(text, straight)).toBe(`is disabled 'Hide cancel' and "ok"`);
    // Measured curly, or not measured: kept as read.
    expect(curlQuotes("Don’t Allow", new Map([[3, "curly" as const]]))).toBe("Don’t Allow");
    expect(curlQuotes("Don’t Allow", new Map())).toBe("Don’t Allow");
    // Chinese sets only curly marks, drawn upright in PingFang (Bark's `我收到包含“北京`): kept.
    expect(curlQuotes("我收到包含“北京", new Map([[5, "straight" as const]]))).toBe("我收到包含“北京");
  });
  it("leaves marks measured straight or not measured alone", () => {
    expect(curlQuotes(`"a" : "b"`, new Map([[0, "straight" as const]]))).toBe(`"a" : "b"`);
  });
  it("does nothing without marks", () => {
    expect(
      typographicQuotes(
        "Don't",
        [],
        drawn(8, 8, () => false),
        LINE,
      ),
    ).toBe("Don't");
  });
});

describe("appleNames", () => {
  it("spells Apple's names as Apple does", () => {
    expect(appleNames("Hello ios")).toBe("Hello iOS");
    expect(appleNames("teach the iphone.")).toBe("teach the iPhone.");
    expect(appleNames("a little nostalgia UiKit trip")).toBe("a little nostalgia UIKit trip");
  });
  it("takes a bar read for a long name's i (a camera frame's Ulkit), not in short names", () => {
    expect(appleNames("a little nostalgia Ulkit trip")).toBe("a little nostalgia UIKit trip");
    expect(appleNames("on your lPhone now")).toBe("on your iPhone now");
    expect(appleNames("Los Angeles lOS")).toBe("Los Angeles lOS");
    expect(appleNames("a real Callklt app")).toBe("a real CallKit app");
  });
  it("writes UIKit's class prefix read with a bar for its I (a camera frame's UiFont)", () => {
    expect(appleNames("UiFont for IQToolbar placeholder text")).toBe("UIFont for IQToolbar placeholder text");
    expect(appleNames("Automatic add the IQToolbar on UiKeyboard")).toBe(
      "Automatic add the IQToolbar on UIKeyboard",
    );
    expect(appleNames("UlTextField")).toBe("UITextField");
    // Not a prefix: a word after it, small letters, an identifier's middle, a lone `Ui`.
    expect(appleNames("Ui Kit, Uniform, myUiView, Ui")).toBe("Ui Kit, Uniform, myUiView, Ui");
  });

  it("keeps identifiers, hashtags, domains, longer words and all-capital lines", () => {
    expect(appleNames("flutter_callkit_incoming")).toBe("flutter_callkit_incoming");
    expect(appleNames("#swiftui")).toBe("#swiftui");
    expect(appleNames("swiftui")).toBe("swiftui");
    expect(appleNames("ios.dev")).toBe("ios.dev");
    expect(appleNames("iphones")).toBe("iphones");
    expect(appleNames("IOS 17 BETA")).toBe("IOS 17 BETA");
  });
});

describe("initialCase", () => {
  /** A line 10–50 px: a first glyph from `top` to the baseline (50) at x 12–30, then an `l` at x 40–46. */
  const line = (top: number) =>
    drawn(
      200,
      60,
      (x, y) => (x >= 12 && x < 30 && y >= top && y < 50) || (x >= 40 && x < 46 && y >= 10 && y < 50),
    );
  const INK = { x0: 11, y0: 10, x1: 47, y1: 50, score: 1 };
  it("makes a size-only first letter a capital when it reaches the cap line", () => {
    expect(initialCase("off", line(12), INK)).toBe("Off");
    // Never the other way: a capital read as one stays.
    expect(initialCase("Sold", line(21), INK)).toBe("Sold");
  });
  it("skips the top of a shape below the line that the ink box took in (a widget's glyph under `Off`)", () => {
    // rd-fordpass-home-widgets-light: a door glyph under the next label rises into `Off`'s box from the
    // left of the `O`; its top, not the `O`, was measured as the first glyph.
    const below = drawn(
      200,
      60,
      (x, y) =>
        (x >= 14 && x < 30 && y >= 12 && y < 50) ||
        (x >= 40 && x < 46 && y >= 10 && y < 50) ||
        (x >= 5 && x < 12 && y >= 44),
    );
    expect(initialCase("off", below, INK)).toBe("Off");
  });
  it("keeps a small letter at x-height, one without a tall letter to compare with, and other letters", () => {
    expect(initialCase("off", line(21), INK)).toBe("off");
    expect(initialCase("ocean", line(12), INK)).toBe("ocean");
    expect(initialCase("all", line(12), INK)).toBe("all");
  });
});

describe("closingQuote", () => {
  /** Letters 12–50 px tall from x 10 to 150; with `mark`, a raised mark (rows 12–24) at x 160–165. */
  const quoted = (mark: boolean) =>
    drawn(
      200,
      60,
      (x, y) =>
        (x >= 10 && x < 150 && x % 12 < 8 && y >= 12 && y < 50) ||
        (mark && x >= 160 && x < 166 && y >= 12 && y < 24),
    );
  const INK = { x0: 9, y0: 11, x1: 167, y1: 51, score: 1 };
  it("closes a quotation the line opened when its last glyph is a raised mark the recogniser dropped", () => {
    expect(closingQuote("‘Sarah Stone’s Unseen World", quoted(true), INK)).toBe(
      "‘Sarah Stone’s Unseen World’",
    );
    expect(closingQuote("Allow “Maps", quoted(true), INK)).toBe("Allow “Maps”");
  });
  it("leaves closed quotations, unquoted lines and lines ending on a letter alone", () => {
    expect(closingQuote("‘Sarah Stone’s Unseen World", quoted(false), { ...INK, x1: 151 })).toBe(
      "‘Sarah Stone’s Unseen World",
    );
    expect(closingQuote("‘Sarah’ and Stone’s", quoted(true), INK)).toBe("‘Sarah’ and Stone’s");
    expect(closingQuote("Stone’s World", quoted(true), INK)).toBe("Stone’s World");
  });
});
