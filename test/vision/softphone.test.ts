import { describe, expect, it } from "vitest";
import { softphonePng, softphoneVariants } from "../../src/lab/synth/softphone.js";
import type { FracBox } from "../../src/shared/box.js";
import { defaultVisionStack } from "./vision-stack.js";

/**
 * Synthetic softphone keypads (`src/lab/synth/softphone.ts`) through the whole pipeline: every key row
 * taps its own key, the call disc is `[key] "call"` wherever it sits under `0`, and the `+` under `0` is
 * read. On the 12 variants main 64cbcb5 read 136/156 keys and no `+` (`bench/softphone.ts`); these are
 * the variants it failed on for each reason.
 */

const inside = (b: FracBox, r: FracBox): boolean => {
  const x = (r[0] + r[2]) / 2;
  const y = (r[1] + r[3]) / 2;
  return x >= b[0] && x <= b[2] && y >= b[1] && y <= b[3];
};

describe("softphone keypads, whole pipeline", () => {
  const vision = defaultVisionStack();
  const variants = softphoneVariants();

  // 0: grey discs, `2` read `N` by OCR (an inferred key with one wrong character on its cap), call 1.45
  // pitches down. 6: thin rings on black, `2` `5` `8` read with a degree sign (the ring's edge).
  it.each([0, 6])(
    "lists every key of variant %i on its own key, and the + under 0",
    async (i) => {
      const o = variants[i];
      if (!o) throw new Error("variant");
      const s = await softphonePng(o);
      const view = await vision().pipeline.fromScreenshot(s.png);
      for (const k of s.keys) {
        const rows = view.entries.filter((r) => r.kind === "key" && inside(k.box, r.box)).map((r) => r.label);
        expect(rows, `key ${k.char}`).toEqual([k.char]);
      }
      const plus = s.text.find((t) => t.text === "+");
      expect(
        plus && view.entries.some((r) => r.kind === "text" && r.label === "+" && inside(plus.box, r.box)),
      ).toBe(true);
      expect(view.entries.some((r) => /°/.test(r.label))).toBe(false);
    },
    120_000,
  );
});
