import { describe, expect, it } from "vitest";
import { cer, levenshtein, matchTextLines, normalizeText } from "../../../src/lab/eval/text-match.js";
import { type FracBox, iou, overlap } from "../../../src/shared/box.js";
import type { TextLine } from "../../../src/vision/types.js";

const line = (text: string, box: FracBox, conf = 0.9): TextLine => ({ text, box, conf });

describe("levenshtein / cer", () => {
  it("counts code points, so a CJK character or an emoji is one edit", () => {
    expect(levenshtein("设置", "设罝")).toBe(1);
    expect(levenshtein("a😀b", "ab")).toBe(1);
    expect(levenshtein("", "abc")).toBe(3);
    expect(levenshtein("kitten", "sitting")).toBe(3);
  });

  it("is edits over the expected length, 0 for a perfect read, above 1 for a long wrong one", () => {
    expect(cer("Settings", "Settings")).toBe(0);
    expect(cer("天气", "天")).toBe(0.5);
    expect(cer("ab", "xxxxxx")).toBe(3);
    expect(cer("", "")).toBe(0);
    expect(cer("", "x")).toBe(1);
  });

  it("normalizeText folds full-width forms and drops spaces unless asked to keep them", () => {
    expect(normalizeText("好的，六点见？")).toBe("好的,六点见?");
    expect(normalizeText("App  Store")).toBe("AppStore");
    expect(normalizeText(" App  Store ", { keepSpaces: true })).toBe("App Store");
  });
});

describe("box overlap", () => {
  it("IoU and overlap-of-the-smaller agree on identical boxes and differ on nested ones", () => {
    expect(iou([0, 0, 1, 1], [0, 0, 1, 1])).toBe(1);
    expect(iou([0, 0, 0.5, 0.5], [0.5, 0.5, 1, 1])).toBe(0);
    expect(overlap([0, 0, 1, 1], [0.2, 0.2, 0.4, 0.4])).toBe(1);
    expect(iou([0, 0, 1, 1], [0.2, 0.2, 0.4, 0.4])).toBeCloseTo(0.04);
  });
});

describe("matchTextLines", () => {
  const truths = [
    { id: "a", label: "Calendar", box: [0.05, 0.1, 0.2, 0.12] as FracBox },
    { id: "b", label: "Photos", box: [0.3, 0.1, 0.42, 0.12] as FracBox },
    { id: "c", label: "Hourly Forecast", box: [0.05, 0.3, 0.5, 0.33] as FracBox },
    { id: "d", label: "Missing", box: [0.6, 0.6, 0.8, 0.62] as FracBox },
  ];

  it("pairs by overlap, joins a label split into words, and scores misses as full errors", () => {
    const r = matchTextLines(truths, [
      line("Calendar", [0.04, 0.095, 0.21, 0.125]),
      line("Photos", [0.29, 0.095, 0.43, 0.125]),
      line("Forecast", [0.27, 0.295, 0.51, 0.335]),
      line("Hourly", [0.04, 0.295, 0.25, 0.335]),
      line("noise", [0.9, 0.9, 0.95, 0.92]),
    ]);
    const byId = Object.fromEntries(r.matches.map((m) => [m.truth.id, m]));
    expect(byId.a?.text).toBe("Calendar");
    expect(byId.c?.text).toBe("Hourly Forecast");
    expect(byId.c?.cer).toBe(0);
    expect(byId.d?.lines).toEqual([]);
    expect(byId.d?.cer).toBe(1);
    expect(byId.a?.iou).toBeGreaterThan(0.5);
    expect(r.unmatched.map((l) => l.text)).toEqual(["noise"]);
    expect(r.merged).toEqual([]);
    const chars = ["Calendar", "Photos", "HourlyForecast", "Missing"].join("").length;
    expect(r.summary).toEqual({ truths: 4, found: 3, exact: 3, cer: 7 / chars });
  });

  it("flags a line that covers two separate labels as merged", () => {
    const r = matchTextLines(truths, [line("Calendar Photos", [0.04, 0.095, 0.43, 0.125])]);
    expect(r.merged).toHaveLength(1);
    expect(r.summary.found).toBe(1);
    expect(r.summary.exact).toBe(0);
  });

  it("compares loosely: full-width punctuation and spaces do not count as errors", () => {
    const r = matchTextLines(
      [{ label: "好的，六点见", box: [0.1, 0.1, 0.5, 0.15] as FracBox }],
      [line("好的, 六点见", [0.1, 0.1, 0.5, 0.15])],
    );
    expect(r.matches[0]?.cer).toBe(0);
  });
});
