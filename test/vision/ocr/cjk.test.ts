import { describe, expect, it } from "vitest";
import {
  asciiLetters,
  hanScriptCounts,
  iconBeforeHan,
  recoverSkippedHan,
  splitAtHanGaps,
  trailingHelpMark,
  unifyHanScript,
  variantPartners,
} from "../../../src/vision/ocr/cjk.js";
import type { CtcResult } from "../../../src/vision/ocr/ctc.js";
import { finishText } from "../../../src/vision/ocr/recognize.js";
import { decoded } from "./ctc-frames.js";

describe("unifyHanScript", () => {
  it("converts a Traditional line's Simplified-only characters (the dictionary lacks 側)", () => {
    expect(unifyHanScript(["號(近市政中心左侧，機車停車場)"])).toEqual(["號(近市政中心左側，機車停車場)"]);
  });

  it("converts a Simplified line's Traditional-only characters", () => {
    expect(unifyHanScript(["这个问题也许比大爆炸還难"])).toEqual(["这个问题也许比大爆炸还难"]);
  });

  it("gives a tied line the screen's script, and leaves it alone on a tied screen", () => {
    expect(unifyHanScript(["法律資讯", "營業時間", "地圖模式"])[0]).toBe("法律資訊");
    expect(unifyHanScript(["法律資讯", "设置"])[0]).toBe("法律资讯");
    expect(unifyHanScript(["法律資讯"])).toEqual(["法律資讯"]);
  });

  it("never touches characters both scripts use, Latin text, or Japanese lines", () => {
    // 台, 后, 里 are also Traditional characters (OpenCC lists them as their own Traditional form).
    expect(unifyHanScript(["台南市安平區", "皇后", "公里數"])).toEqual(["台南市安平區", "皇后", "公里數"]);
    expect(unifyHanScript(["Settings", "3.0km"])).toEqual(["Settings", "3.0km"]);
    expect(unifyHanScript(["国を選ぶ", "機車"])[0]).toBe("国を選ぶ");
    expect(hanScriptCounts("Wi-Fi 设置")).toEqual({ hans: 1, hant: 0 });
  });
});

/** Dictionary for synthetic decodes: class k is DICT[k − 1], class 0 the blank. */
const DICT = ["从", "大", "地", "到", "星", "一", "√", "转", "换", "3", "个", "B", "站", "点", " "];
const C = DICT.length + 1;
const cls = (ch: string) => DICT.indexOf(ch) + 1;

/**
 * Probabilities for `frames`: each is a character (one-hot 0.9) or "_" (blank 0.9); `runnerUp` adds
 * a second class's score on a blank frame.
 */
function probs(frames: string[], runnerUp: Record<number, [string, number]> = {}): Float32Array {
  const out = new Float32Array(frames.length * C);
  frames.forEach((f, t) => {
    out[t * C + (f === "_" ? 0 : cls(f))] = 0.9;
    const second = runnerUp[t];
    if (second) out[t * C + cls(second[0])] = second[1];
  });
  return out;
}

describe("variantPartners", () => {
  it("pairs a character's Simplified and Traditional classes, both ways, and nothing else", () => {
    const p = variantPartners(["营", "a", "營", "从", "台"]);
    expect(Array.from(p)).toEqual([0, 3, 0, 1, 0, 0]);
  });

  it("pairs a full-width Latin letter or digit with its ASCII form", () => {
    const p = variantPartners(["M", "Ｏ", "O", "７", "7", "Ｍ"]);
    expect(Array.from(p)).toEqual([0, 6, 3, 2, 5, 4, 1]);
  });
});

describe("asciiLetters", () => {
  it("sets full-width letters and digits in ASCII, and leaves full-width punctuation", () => {
    expect(asciiLetters("MNＯ ＤＥＦ ７，")).toBe("MNO DEF 7，");
  });
});

describe("recoverSkippedHan", () => {
  const frames = "_____大____地____到____星____".split("");
  it("puts back a skipped glyph a pitch before the first Han character, in Traditional form", () => {
    const r = recoverSkippedHan(decoded(frames), probs(frames, { 1: ["从", 0.12] }), 0, C, DICT);
    expect(r.chars.join("")).toBe("從大地到星");
    expect(r.steps[0]).toBe(1);
    expect(r.scores).toHaveLength(5);
  });

  it("puts back a skipped glyph inside a wide gap between Han characters", () => {
    const wide = "_大____地_________到____星____".split("");
    const r = recoverSkippedHan(decoded(wide), probs(wide, { 10: ["从", 0.3] }), 0, C, DICT);
    expect(r.chars.join("")).toBe("大地從到星");
  });

  it("leaves the decode alone for a weak, non-Simplified or too-close runner-up", () => {
    const weak = recoverSkippedHan(decoded(frames), probs(frames, { 1: ["从", 0.03] }), 0, C, DICT);
    expect(weak.chars.join("")).toBe("大地到星");
    // 一 has no Traditional form: an icon's stroke, not a glyph the dictionary lacks.
    const icon = recoverSkippedHan(decoded(frames), probs(frames, { 1: ["一", 0.5] }), 0, C, DICT);
    expect(icon.chars.join("")).toBe("大地到星");
    // Between two glyphs a normal pitch apart there is no room for a third.
    const close = recoverSkippedHan(decoded(frames), probs(frames, { 8: ["从", 0.5] }), 0, C, DICT);
    expect(close.chars.join("")).toBe("大地到星");
  });

  it("needs two Han gaps to know the pitch", () => {
    const short = "_____大____地__".split("");
    expect(recoverSkippedHan(decoded(short), probs(short, { 1: ["从", 0.5] }), 0, C, DICT).chars).toEqual([
      "大",
      "地",
    ]);
  });
});

describe("leading icons and trailing help marks on Chinese lines", () => {
  const withSpace = (frames: string[], at: number): CtcResult => {
    const r = decoded(frames);
    const i = r.steps.indexOf(at);
    r.chars.splice(i, 0, " ");
    r.scores.splice(i, 0, 0.9);
    r.steps.splice(i, 0, at);
    r.spaceBefore.splice(i, 0, 0);
    return r;
  };

  it("cuts a symbol set 1.3 pitches or more before a Chinese word, moving the box's left edge", () => {
    const frames = "__√______转____换___".split(""); // icon at 2, label at 9 and 14: 1.4 pitches
    const r = withSpace(frames, 9);
    expect(iconBeforeHan(r, 0, 2)).toBe(true);
    const out = finishText(r, 80, 80, true);
    expect(out.text).toBe("转换");
    expect(out.begin ?? 0).toBeGreaterThan(0);
  });

  it("keeps a digit, a letter set a space apart, and a line without two Han glyphs", () => {
    const digit = withSpace("__3___个____站___".split(""), 6);
    expect(finishText(digit, 80, 80, true).text).toBe("3 个站");
    const letter = withSpace("__B___站____点___".split(""), 6); // 4 steps: under 1.3 pitches of 5
    expect(finishText(letter, 80, 80, true).text).toBe("B 站点");
    const single = withSpace("__√______站___".split(""), 9);
    expect(finishText(single, 80, 80, true).text).toBe("√ 站");
  });

  it("cuts a question mark set apart after a Han line only", () => {
    const chars = Array.from("近60场平均KDA ？");
    expect(trailingHelpMark(chars, 0, chars.length)).toBe(9);
    const en = Array.from("What ?");
    expect(trailingHelpMark(en, 0, en.length)).toBe(en.length);
    const zh = Array.from("是什么？");
    expect(trailingHelpMark(zh, 0, zh.length)).toBe(zh.length);
  });
});

describe("splitAtHanGaps", () => {
  const text = (frames: string) =>
    splitAtHanGaps(decoded(frames.split("")), 80, 80).map((p) => p.r.chars.join(""));

  it("splits a number from a Chinese name 1.6 pitches or more away, with edges in the gap", () => {
    expect(text("_3_________大____地____")).toEqual(["3", "大地"]);
    const [a, b] = splitAtHanGaps(decoded("_3_________大____地____".split("")), 80, 80);
    expect(a?.begin).toBe(0);
    expect(a?.end).toBeCloseTo(b?.begin ?? -1);
    expect(b?.end).toBe(1);
    // Between the `3` (step 1) and `大` (step 11), in steps of the 23-step sequence.
    expect((a?.end ?? 0) * 23).toBeGreaterThan(2);
    expect((a?.end ?? 0) * 23).toBeLessThan(11);
  });

  it("keeps one label: Han glyphs a pitch apart, a skipped glyph's 2-pitch gap, a Latin-only gap", () => {
    expect(text("_大____地____到____")).toEqual(["大地到"]);
    expect(text("_大____地_________到____")).toEqual(["大地到"]);
    expect(text("_B___3___________3___")).toEqual(["B33"]);
  });

  it("splits two Chinese labels more than 2.5 pitches apart", () => {
    expect(text("_大____地______________到____星__")).toEqual(["大地", "到星"]);
  });
});
