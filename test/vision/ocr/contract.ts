import { describe, expect, it } from "vitest";
import { type OcrScreen, renderOcrScreen } from "../../../src/lab/eval/ocr-screens.js";
import { matchTextLines } from "../../../src/lab/eval/text-match.js";
import type { OcrEngine } from "../../../src/vision/types.js";
import { rejection } from "../../helpers/errors.js";
import { fonts } from "../../sim/phone/helpers.js";

/**
 * What every OcrEngine must do, run against the real PP-OCR engine and the fake. `make` gets the
 * screen about to be read (the fake answers from its truth; the real engine ignores it).
 */
export function ocrEngineContract(name: string, make: (screen: OcrScreen) => Promise<OcrEngine>): void {
  describe(`OcrEngine contract: ${name}`, () => {
    it("reads the home screen's app labels as one line each, with boxes inside the image", async () => {
      const screen = await renderOcrScreen("home", "en", fonts);
      const engine = await make(screen);
      try {
        const lines = await engine.recognize(screen.image);
        for (const l of lines) {
          const [x0, y0, x1, y1] = l.box;
          expect(0 <= x0 && x0 < x1 && x1 <= 1 && 0 <= y0 && y0 < y1 && y1 <= 1, `box of "${l.text}"`).toBe(
            true,
          );
          expect(l.conf).toBeGreaterThanOrEqual(0);
          expect(l.conf).toBeLessThanOrEqual(1);
        }
        const labels = screen.texts.filter((e) => e.id.startsWith("home.label."));
        expect(labels.length).toBeGreaterThanOrEqual(16);
        const r = matchTextLines(labels, lines);
        expect(r.merged).toEqual([]);
        const exact = r.matches.filter((m) => m.cer === 0 && m.lines.length === 1);
        expect(exact.length, r.matches.map((m) => `${m.truth.label}→${m.text}`).join(", ")).toBe(
          labels.length,
        );
      } finally {
        await engine.close();
      }
    });

    it("reads nothing from images too small to hold a glyph", async () => {
      const screen = await renderOcrScreen("lock", "en", fonts);
      const engine = await make(screen);
      try {
        for (const [width, height] of [
          [0, 0],
          [1, 1],
          [7, 500],
          [500, 7],
        ] as const)
          expect(
            await engine.recognize({
              width,
              height,
              channels: 3,
              data: Buffer.alloc(width * height * 3, 255),
            }),
          ).toEqual([]);
      } finally {
        await engine.close();
      }
    });

    it("rejects recognize after close with OCR_CLOSED, and close twice is fine", async () => {
      const screen = await renderOcrScreen("lock", "en", fonts);
      const engine = await make(screen);
      await engine.close();
      await engine.close();
      expect((await rejection(engine.recognize(screen.image))).code).toBe("OCR_CLOSED");
    });
  });
}
