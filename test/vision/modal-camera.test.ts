import { describe, expect, it } from "vitest";
import { findModalCard } from "../../src/vision/modal.js";
import type { Candidate } from "../../src/vision/row.js";
import { dropSpuriousRows } from "../../src/vision/spurious.js";
import { filmedRealScreen } from "./ocr/filmed-real.js";
import { realLabel } from "./real-set.js";

/**
 * The modal card on a camera frame: the real alert screenshot filmed by the simulated camera and
 * rectified as the pipeline does (585 px wide, `DEFAULT_VISION_OPTIONS.rectifiedWidth`). The camera's
 * blur spreads the card's one-pixel hairlines over two rows and its noise is as large as their step.
 */
const NAME = "ra-mauidocs-location-alert.png";

const rowsOf = (): Candidate[] =>
  realLabel(NAME).text.map((t): Candidate => ({ kind: "text", label: t.text, box: t.box, conf: 0.9 }));

describe("findModalCard on a camera frame", () => {
  it("finds the alert's card over a map, for several sensor noises", async () => {
    for (const seed of [7, 17, 27]) {
      const card = findModalCard(await filmedRealScreen(NAME, seed), rowsOf());
      expect(card, `seed ${seed}`).toBeDefined();
      const [l = 0, , r = 0, b = 0] = card ?? [];
      // The alert is drawn at x 0.155–0.85 (270 pt of a 382 px, 375 pt screen), Don't Allow ends at 0.76.
      expect(l).toBeCloseTo(0.155, 1);
      expect(r).toBeCloseTo(0.85, 1);
      expect(b).toBeGreaterThan(0.75);
      expect(b).toBeLessThan(0.8);
    }
  });

  it("then drops the controls behind it and the line its side cuts", async () => {
    const image = await filmedRealScreen(NAME, 7);
    const behind: Candidate[] = [
      { kind: "icon", label: "", box: [0.865, 0.75, 0.904, 0.768], conf: 0.4 },
      { kind: "icon", label: "", box: [0.809, 0.472, 0.944, 0.508], conf: 0.4 },
      { kind: "text", label: "Scroll er…", box: [0.026, 0.752, 0.177, 0.768], conf: 0.9 },
    ];
    const rows = [...rowsOf(), ...behind];
    const kept = dropSpuriousRows(rows, image.height / image.width, image);
    for (const b of behind) expect(kept, b.label || b.kind).not.toContain(b);
    for (const t of ["Allow Once", "Don’t Allow", "Zoom enabled:", "Show traffic:"])
      expect(kept.map((r) => r.label)).toContain(t);
  });
});
