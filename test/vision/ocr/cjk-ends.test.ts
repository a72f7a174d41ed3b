import { describe, expect, it } from "vitest";
import { recoverSkippedHan, unifyHanScript } from "../../../src/vision/ocr/cjk.js";
import { hanRunsOn, readOnPastCuts } from "../../../src/vision/ocr/cjk-ends.js";
import type { PixelBox } from "../../../src/vision/ocr/detect.js";
import { decoded } from "./ctc-frames.js";

/** Dictionary for synthetic decodes: class k is DICT[k − 1], class 0 the blank. */
const DICT = ["恋", "爱", "の", "审", "判", "者", "一", "拼", "法", "律"];
const C = DICT.length + 1;
const cls = (ch: string) => DICT.indexOf(ch) + 1;

/** Frames: a character (0.9) or "_" (blank 0.9); `second` puts a class's score on a frame, the blank keeping the rest. */
function probs(frames: string[], second: Record<number, [string, number]> = {}): Float32Array {
  const out = new Float32Array(frames.length * C);
  frames.forEach((f, t) => {
    out[t * C + (f === "_" ? 0 : cls(f))] = 0.9;
    const s = second[t];
    if (s && f === "_") {
      out[t * C + cls(s[0])] = s[1];
      out[t * C] = 1 - s[1];
    }
  });
  return out;
}

describe("recoverSkippedHan with kana", () => {
  const frames = "__恋___爱_______审___判___者__".split("");
  it("puts back a kana runner-up with a real share of a pitch-wide blank (`恋爱の审判者` on a camera frame)", () => {
    const r = recoverSkippedHan(decoded(frames), probs(frames, { 10: ["の", 0.33] }), 0, C, DICT);
    expect(r.chars.join("")).toBe("恋爱の审判者");
  });

  it("leaves a kana trace, and a runner-up that is neither kana nor Simplified, out", () => {
    const trace = recoverSkippedHan(decoded(frames), probs(frames, { 10: ["の", 0.1] }), 0, C, DICT);
    expect(trace.chars.join("")).toBe("恋爱审判者");
    const stroke = recoverSkippedHan(decoded(frames), probs(frames, { 10: ["一", 0.5] }), 0, C, DICT);
    expect(stroke.chars.join("")).toBe("恋爱审判者");
  });
});

describe("hanRunsOn", () => {
  // `法律资` with the crop ending where a fourth glyph would stand.
  const frames = "___法___律____资___".split("");
  const r = decoded(frames);
  it("flags a Han line whose next glyph's place reaches the crop's end and holds ink", () => {
    expect(hanRunsOn(r, probs(frames, { 15: ["拼", 0.7] }), 0, C, frames.length * 4, frames.length * 4)).toBe(
      true,
    );
  });

  it("leaves a line that ends in blank frames, or whose crop ends well past the next glyph", () => {
    expect(hanRunsOn(r, probs(frames), 0, C, frames.length * 4, frames.length * 4)).toBe(false);
    const longer = [...frames, ..."________".split("")];
    const wide = probs(longer, { 15: ["拼", 0.7] });
    expect(hanRunsOn(decoded(longer), wide, 0, C, longer.length * 4, longer.length * 4)).toBe(false);
  });

  it("needs two gaps between Han characters for the pitch (`胜利` is too short to say)", () => {
    const two = "___法___律___".split("");
    expect(hanRunsOn(decoded(two), probs(two, { 10: ["拼", 0.7] }), 0, C, 52, 52)).toBe(false);
  });

  it("needs the line to end in Han with a pitch", () => {
    const latin = decoded("___法___律____资___".split(""));
    latin.chars[2] = "x";
    expect(hanRunsOn(latin, probs(frames, { 15: ["拼", 0.7] }), 0, C, 76, 76)).toBe(false);
  });
});

describe("readOnPastCuts", () => {
  const box = (x1: number): PixelBox => ({ x0: 10, y0: 0, x1, y1: 16, score: 1 });
  it("keeps the wider reading and box when it holds more Han characters", async () => {
    const readings = [
      { text: "法律资", conf: 0.8, runsOn: true },
      { text: "设置", conf: 0.9 },
    ];
    const boxes = [box(60), box(40)];
    await readOnPastCuts(readings, boxes, 100, 0.5, async (wider, which) => {
      expect(which).toEqual([0]);
      expect(wider[0]?.x1).toBe(76);
      return [
        { text: "法律资讯", conf: 0.7 },
        { text: "", conf: 0 },
      ];
    });
    expect(readings[0]?.text).toBe("法律资讯");
    expect(boxes[0]?.x1).toBe(76);
    expect(boxes[1]?.x1).toBe(40);
  });

  it("keeps the first reading when the wider one adds no Han or is weak", async () => {
    const readings = [{ text: "法律资", conf: 0.8, runsOn: true }];
    const boxes = [box(60)];
    await readOnPastCuts(readings, boxes, 100, 0.5, async () => [{ text: "法律资 >", conf: 0.9 }]);
    await readOnPastCuts(readings, boxes, 100, 0.5, async () => [{ text: "法律资讯", conf: 0.3 }]);
    // A spaced word after the line is the next label (`胜利 股`), not the rest of this one.
    await readOnPastCuts(readings, boxes, 100, 0.5, async () => [{ text: "法律资 股", conf: 0.9 }]);
    expect(readings[0]?.text).toBe("法律资");
    expect(boxes[0]?.x1).toBe(60);
  });
});

describe("unifyHanScript on a Traditional screen", () => {
  const screen = ["營業時間：24HR", "地圖模式", "距離：3.0km", "號(近市政中心左側)"];
  it("takes a short line read with Simplified forms only for Traditional", () => {
    expect(unifyHanScript(["法律资讯", ...screen])[0]).toBe("法律資訊");
  });

  it("leaves a line with three Simplified-only characters, and a screen of few Traditional ones", () => {
    expect(unifyHanScript(["这个问题", ...screen])[0]).toBe("这个问题");
    expect(unifyHanScript(["已缓存", "從大地到星辰", "设置"])[0]).toBe("已缓存");
  });
});
