import { describe, expect, it } from "vitest";
import { filmedRealScreen } from "./filmed-real.js";
import { useRealOcrEngine } from "./real-engine.js";

const bare = (t: string) => t.replace(/\s+/gu, "");

/**
 * FordPass Scriptable widgets (real dev-set screens) filmed as the bench films them: the tyre pressures
 * `31 | 31` and `LR (✓) | RR (✓)` lose their word spaces in the blur and the bar is read `1` or `I`
 * (`31131`, `LR (✓)IRR(✓)`), which `verticalBars` (it needs the spaces) left alone. The bar's ink
 * reaches below the digits' baseline; the `1`s of `2021 F-150` and `31` do not.
 */
describe("a bar read as 1 or I between glued labels, on filmed real widgets", () => {
  const engine = useRealOcrEngine();

  it("reads 31 | 31 with its bar and keeps the 1s of 2021 F-150 (rd-fordpass-home-widgets-light)", async () => {
    const texts = (
      await engine().recognize(await filmedRealScreen("rd-fordpass-home-widgets-light.jpg", 115))
    ).map((l) => bare(l.text));
    expect(texts).toContain("31|31");
    expect(texts).not.toContain("31131");
    expect(texts).toContain("2021F-150");
  }, 120_000);

  it("reads LR (✓) | RR (✓) with its bar (rd-fordpass-home-widget-medium)", async () => {
    const texts = (
      await engine().recognize(await filmedRealScreen("rd-fordpass-home-widget-medium.jpg", 114))
    ).map((l) => bare(l.text));
    expect(texts).toContain("LR(✓)|RR(✓)");
    expect(texts).toContain("31.2|31.9");
  }, 120_000);
});
