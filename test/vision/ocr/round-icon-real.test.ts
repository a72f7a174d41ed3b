import { describe, expect, it } from "vitest";
import { filmedRealScreen } from "./filmed-real.js";
import { useRealOcrEngine } from "./real-engine.js";

/**
 * FordPass Scriptable widgets (real dev-set screens) filmed as the bench films them (seed 7 + the screen's
 * index): the tyre symbol before `Tires (psi)` blurs into an `O` (`O Tires (psi)`), which is cut as a
 * leading icon; `Odometer` and `Oil Life` keep their O.
 */
describe("a round symbol read O before a label, on filmed real widgets", () => {
  const engine = useRealOcrEngine();
  const bare = (t: string) => t.replace(/\s+/gu, "").normalize("NFKC");

  it("reads Tires (psi) without the tyre on the dark and light FordPass widgets", async () => {
    for (const [name, seed] of [
      ["rd-fordpass-home-widget-dark.jpg", 114],
      ["rd-fordpass-home-widgets-light.jpg", 116],
    ] as const) {
      const texts = (await engine().recognize(await filmedRealScreen(name, seed))).map((l) => bare(l.text));
      expect(texts, name).toContain("Tires(psi)");
      expect(
        texts.filter((t) => t.startsWith("OTires")),
        name,
      ).toEqual([]);
      expect(
        texts.some((t) => t.startsWith("Oil") || t.startsWith("Odometer")),
        name,
      ).toBe(true);
    }
  }, 240_000);
});
