import { describe, expect, it } from "vitest";
import { ctcConfidence, ctcDecode, restoreSpaces } from "../../../src/vision/ocr/ctc.js";
import {
  capitalI,
  finishText,
  planBatches,
  REC_HEIGHT,
  recognitionWidth,
  writeCrop,
} from "../../../src/vision/ocr/recognize.js";

const DICT = ["a", "b", ">", " "];

/** Softmax-like rows: one-hot `classes[t]` with score `p` at each step. */
function scores(classes: number[], p = 0.9): Float32Array {
  const c = DICT.length + 1;
  const out = new Float32Array(classes.length * c);
  classes.forEach((k, t) => {
    out[t * c + k] = p;
  });
  return out;
}

describe("ctcDecode", () => {
  it("drops blanks, collapses repeats, and keeps a repeat separated by a blank", () => {
    const r = ctcDecode(scores([1, 1, 0, 1, 2, 2, 0]), 0, 7, 5, DICT);
    expect(r.chars.join("")).toBe("aab");
    expect(r.steps).toEqual([0, 3, 4]);
    expect(ctcConfidence(r)).toBeCloseTo(0.9);
  });

  it("reads an all-blank sequence as empty with confidence 0", () => {
    const r = ctcDecode(scores([0, 0, 0]), 0, 3, 5, DICT);
    expect(r.chars).toEqual([]);
    expect(ctcConfidence(r)).toBe(0);
  });
});

describe("ctcDecode with script partners", () => {
  // Classes: 1 营, 2 營, 3 誉 (a look-alike with no partner), 4 中; 营 ↔ 營 are partners.
  const dict = ["营", "營", "誉", "中"];
  const partners = Int32Array.from([0, 2, 1, 0, 0]);
  /** One row per step: the five classes' scores. */
  const rows = (r: number[][]) => Float32Array.from(r.flat());

  it("lets a character's two script forms win a frame together, emitting the stronger form", () => {
    const probs = rows([
      [0.2, 0.17, 0.15, 0.27, 0.01],
      [0.01, 0, 0, 0, 0.99],
    ]);
    expect(ctcDecode(probs, 0, 2, 5, dict).chars.join("")).toBe("誉中");
    const r = ctcDecode(probs, 0, 2, 5, dict, partners);
    expect(r.chars.join("")).toBe("营中");
    expect(r.scores[0]).toBeCloseTo(0.32);
  });

  it("beats the blank with the summed score, and collapses the two forms on adjacent frames", () => {
    const probs = rows([
      [0.4, 0.35, 0.25, 0, 0],
      [0.45, 0.25, 0.3, 0, 0],
      [0.9, 0, 0, 0, 0.1],
    ]);
    expect(ctcDecode(probs, 0, 3, 5, dict).chars).toEqual([]);
    expect(ctcDecode(probs, 0, 3, 5, dict, partners).chars).toEqual(["营"]);
  });
});

describe("word spaces", () => {
  /** `classes[t]` wins at step t; the space class (4) also scores `space[t]` there. */
  function withSpace(classes: number[], space: number[]): Float32Array {
    const out = scores(classes);
    space.forEach((p, t) => {
      out[t * 5 + 4] = p;
    });
    return out;
  }
  const read = (probs: Float32Array, steps: number) => {
    const r = restoreSpaces(ctcDecode(probs, 0, steps, 5, DICT));
    return r.chars.join("");
  };

  it("records the space class's best score between characters and restores a dropped space", () => {
    const probs = withSpace([1, 0, 0, 2], [0, 0.01, 0.3, 0]);
    const decoded = ctcDecode(probs, 0, 4, 5, DICT);
    expect(decoded.spaceBefore).toEqual([0, expect.closeTo(0.3)]);
    expect(read(probs, 4)).toBe("a b");
  });

  it("places a restored space halfway between its neighbours, in the gap it stands for", () => {
    const probs = withSpace([1, 0, 0, 0, 2], [0, 0.3, 0, 0, 0]);
    const r = restoreSpaces(ctcDecode(probs, 0, 5, 5, DICT));
    expect(r.chars.join("")).toBe("a b");
    expect(r.steps).toEqual([0, 2, 4]);
  });

  it("marks a restored space with the score it was put back on, for the ink to judge", () => {
    const r = restoreSpaces(ctcDecode(withSpace([1, 0, 0, 2], [0, 0.01, 0.04, 0]), 0, 4, 5, DICT));
    expect(r.restored).toEqual([0, expect.closeTo(0.04), 0]);
    expect(finishText(r, 16, 16, false).spaces).toEqual([
      { index: 1, at: expect.any(Number), restored: expect.closeTo(0.04) },
    ]);
    // A space read as such carries no mark.
    const emitted = restoreSpaces(ctcDecode(withSpace([1, 4, 2], [0, 0.9, 0]), 0, 3, 5, DICT));
    expect(finishText(emitted, 12, 12, false).spaces?.[0]).not.toHaveProperty("restored");
  });

  it("leaves a gap alone when the space class barely moved, and never doubles an emitted space", () => {
    expect(read(withSpace([1, 0, 2], [0, 0.004, 0]), 3)).toBe("ab");
    expect(read(withSpace([1, 4, 0, 2], [0, 0.9, 0.5, 0]), 4)).toBe("a b");
  });
});

describe("spaces after commas", () => {
  const line = (chars: string[]) =>
    restoreSpaces({
      chars,
      scores: chars.map(() => 0.9),
      steps: chars.map((_, i) => i),
      length: chars.length,
      spaceBefore: chars.map(() => 0),
    }).chars.join("");

  it("adds one after an ASCII comma in text but not inside a number or after a full-width comma", () => {
    expect(line([..."Today,-5HRS"])).toBe("Today, -5HRS");
    expect(line([..."1,000"])).toBe("1,000");
    expect(line([..."今天，好"])).toBe("今天，好");
    expect(line([..."a, b"])).toBe("a, b");
  });
});

describe("finishText", () => {
  it("strips a trailing chevron and moves the right edge between the text and the chevron", () => {
    // "ab >" at steps 0, 2, 5, 8 of 10; crop 40 columns wide in a 40-column tensor (4 columns/step).
    const r = {
      chars: ["a", "b", " ", ">"],
      scores: [0.9, 0.8, 0.9, 0.6],
      steps: [0, 2, 5, 8],
      length: 10,
      spaceBefore: [0, 0, 0, 0],
    };
    const f = finishText(r, 40, 40, true);
    expect(f.text).toBe("ab");
    expect(f.conf).toBeCloseTo(0.85);
    expect(f.end).toBeCloseTo((((2 + 8) / 2 + 0.5) * 4) / 40);
    expect(finishText(r, 40, 40, false).text).toBe("ab >");
  });

  it("keeps a lone chevron (it may be the whole label) and trims spaces", () => {
    expect(
      finishText({ chars: [">"], scores: [0.9], steps: [1], length: 4, spaceBefore: [0] }, 16, 16, true).text,
    ).toBe(">");
    expect(
      finishText(
        { chars: [" ", "a", " "], scores: [1, 1, 1], steps: [0, 1, 2], length: 4, spaceBefore: [0, 0, 0] },
        16,
        16,
        true,
      ),
    ).toEqual({
      text: "a",
      conf: 1,
      end: 1,
      // Where the letter was read, for its case from the ink (`letter-case.ts`).
      glyphs: [{ index: 0, at: 0.375 }],
    });
  });
});

describe("finishText: leading icon glyphs", () => {
  /** A decoded line of `text`, one character every two steps, in a crop as wide as its tensor (4 cols/step). */
  const line = (text: string) => {
    const chars = Array.from(text);
    return {
      chars,
      scores: chars.map(() => 0.9),
      steps: chars.map((_, i) => 2 * i),
      length: 2 * chars.length,
      spaceBefore: chars.map(() => 0),
    };
  };
  const finish = (text: string) =>
    finishText(line(text), 8 * Array.from(text).length, 8 * Array.from(text).length, true);

  it("cuts a back chevron, a magnifier, an info or star glyph, and moves the left edge past it", () => {
    expect(finish("< Back").text).toBe("Back");
    expect(finish("<设置").text).toBe("设置");
    expect(finish("Q Search").text).toBe("Search");
    expect(finish("i VERSION 10.1").text).toBe("VERSION 10.1");
    expect(finish("★ Starred").text).toBe("Starred");
    expect(finish("③ · 8h").text).toBe("· 8h");
    // "< Back": the glyph at step 0, "B" at step 4 (8 columns per 2 steps, crop 48 columns).
    expect(finish("< Back").begin).toBeCloseTo((((0 + 4) / 2 + 0.5) * 4) / 48);
    expect(finish("< Back").end).toBe(1);
  });

  it("reads a truncated line's two dots as the ellipsis iOS draws, and leaves three dots or one alone", () => {
    expect(finish("Working..").text).toBe("Working…");
    expect(finish("Type a message...").text).toBe("Type a message...");
    expect(finish("Done.").text).toBe("Done.");
    expect(finish("..").text).toBe("..");
  });

  it("keeps a word that starts with the same letter, a hashtag, a lone glyph, and lines without the option", () => {
    expect(finish("Quit").text).toBe("Quit");
    expect(finish("#swiftui").text).toBe("#swiftui");
    expect(finish("i").text).toBe("i");
    expect(finish("Q").text).toBe("Q");
    expect(finish("< ").text).toBe("<");
    expect(finish("Back").begin).toBeUndefined();
    expect(finishText(line("< Back"), 48, 48, false).text).toBe("< Back");
  });
});

describe("finishText: a round symbol read O before a label", () => {
  const finish = (text: string) => {
    const chars = Array.from(text);
    const r = {
      chars,
      scores: chars.map(() => 0.9),
      steps: chars.map((_, i) => 2 * i),
      length: 2 * chars.length,
      spaceBefore: chars.map(() => 0),
    };
    return finishText(r, 8 * chars.length, 8 * chars.length, true).text;
  };

  it("cuts a lone O before a capitalised word (a tyre symbol, a radio circle)", () => {
    expect(finish("O Tires (psi)")).toBe("Tires (psi)");
    expect(finish("O Enable IPv6")).toBe("Enable IPv6");
  });

  it("keeps O in a word, before a small letter or a digit, in capitals, and alone", () => {
    expect(finish("OK")).toBe("OK");
    expect(finish("Open Settings")).toBe("Open Settings");
    expect(finish("O items")).toBe("O items");
    expect(finish("O 2")).toBe("O 2");
    expect(finish("O NEGATIVE")).toBe("O NEGATIVE");
    expect(finish("O")).toBe("O");
  });
});

describe("capitalI", () => {
  it("reads l as I where English has an I: word-initial before c f m n s t, and inside capitals", () => {
    expect(capitalI("Show lcons")).toBe("Show Icons");
    expect(capitalI("'lf it's a failure")).toBe("'If it's a failure");
    expect(capitalI("lce Cube - Light")).toBe("Ice Cube - Light");
    expect(capitalI("AzuraCast APl-Format:")).toBe("AzuraCast API-Format:");
    expect(capitalI("nostalgia UlKit trip")).toBe("nostalgia UIKit trip");
  });

  it("keeps real l words and short capitalised names", () => {
    for (const t of ["5 lbs", "llama", "Hello world", "Al Gore", "all", "Blue", "lOl", "lazy"])
      expect(capitalI(t)).toBe(t);
  });
});

describe("planBatches", () => {
  it("sorts by width and only batches crops of nearly the same width", () => {
    const b = planBatches([100, 40, 42, 300, 41, 104], 8, 0.1);
    expect(b).toEqual([
      { indices: [1, 4, 2], width: 42 },
      { indices: [0, 5], width: 104 },
      { indices: [3], width: 300 },
    ]);
  });

  it("caps the batch size", () => {
    expect(planBatches([8, 8, 8, 8, 8], 2).map((x) => x.indices.length)).toEqual([2, 2, 1]);
  });
});

describe("writeCrop", () => {
  it("resamples to the model height, normalises to −1…1 and pads by repeating the last column", () => {
    // 20×10 image: left half black, right half white.
    const image = { width: 20, height: 10, channels: 3 as const, data: Buffer.alloc(20 * 10 * 3) };
    for (let y = 0; y < 10; y++)
      for (let x = 10; x < 20; x++) image.data.fill(255, (y * 20 + x) * 3, (y * 20 + x) * 3 + 3);
    const box = { x0: 0, y0: 0, x1: 20, y1: 10, score: 1 };
    const width = recognitionWidth(box);
    expect(width).toBe(96); // 48 × 20 / 10
    const stride = width + 16;
    const dst = new Float32Array(3 * REC_HEIGHT * stride);
    writeCrop(image, box, width, dst, 0, stride);
    const at = (c: number, y: number, x: number) =>
      dst[c * REC_HEIGHT * stride + y * stride + x] ?? Number.NaN;
    expect(at(0, 24, 0)).toBeCloseTo(-1);
    expect(at(2, 24, width - 1)).toBeCloseTo(1);
    expect(at(1, 24, stride - 1)).toBeCloseTo(1); // padding repeats the white edge
  });
});

describe("finishText: icons read as characters (2)", () => {
  const line = (text: string) => {
    const chars = Array.from(text);
    return {
      chars,
      scores: chars.map(() => 0.9),
      steps: chars.map((_, i) => 2 * i),
      length: 2 * chars.length,
      spaceBefore: chars.map(() => 0),
    };
  };
  const finish = (text: string) =>
    finishText(line(text), 8 * Array.from(text).length, 8 * Array.from(text).length, true);

  it("cuts a lone ideograph before Latin text (an avatar or icon) and a circled digit without a space", () => {
    expect(finish("蔡 Michael Tsai").text).toBe("Michael Tsai");
    expect(finish("副 48%").text).toBe("48%");
    expect(finish("③· 5h").text).toBe("· 5h");
  });

  it("keeps Chinese text, and an ideograph with no space after it", () => {
    expect(finish("约 5 分钟").text).toBe("约 5 分钟");
    expect(finish("用iPhone").text).toBe("用iPhone");
  });

  it("spells Apple's names as Apple does, and reports where quote marks and spaces were read", () => {
    expect(finish("Hello ios").text).toBe("Hello iOS");
    const f = finish(`Don't go`);
    expect(f.marks?.map((m) => m.index)).toEqual([3]);
    expect(f.spaces?.map((m) => m.index)).toEqual([5]);
    // "'" at step 6: ((6 + 0.5) × 4 columns per step) / 64 columns.
    expect(f.marks?.[0]?.at).toBeCloseTo((6.5 * 4) / 64);
  });
});
