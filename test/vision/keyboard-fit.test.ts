import { describe, expect, it } from "vitest";
import type { FracBox } from "../../src/shared/box.js";
import { fitKeyboard } from "../../src/vision/keyboard.js";
import type { Candidate } from "../../src/vision/row.js";

/** A text row for one key cap read by OCR, centred at (x, y) in screen fractions. */
const cap = (label: string, x: number, y: number): Candidate => {
  const box: FracBox = [x - 0.015, y - 0.009, x + 0.015, y + 0.009];
  return { kind: "text", label, box, conf: 0.95 };
};

describe("fitKeyboard", () => {
  it("is not thrown off by a cap misread as another letter", () => {
    // Caps as OCR read them on a real 1206×2622 screenshot (ra-mauidocs-keyboard-aware): `N` read as
    // `Z` puts a second `Z` five pitches right of the real one. A least-squares start tilted the fit
    // and rejected every good anchor; the robust start keeps them.
    const p = 0.0975;
    const left = 0.014;
    const rowY = [0.689, 0.753, 0.817];
    const rows = [
      ...["Q", "R"].map((c) => cap(c, left + ("QWERTYUIOP".indexOf(c) + 0.5) * p, rowY[0] ?? 0)),
      ...["A", "S", "D", "F", "G", "H", "K"].map((c) =>
        cap(c, left + ("ASDFGHJKL".indexOf(c) + 1) * p, rowY[1] ?? 0),
      ),
      ...["Z", "x", "C", "B", "M"].map((c) =>
        cap(c, left + ("ZXCVBNM".indexOf(c.toUpperCase()) + 2) * p, rowY[2] ?? 0),
      ),
      cap("Z", left + (5 + 2) * p, rowY[2] ?? 0), // the misread N
      { kind: "text", label: "123", box: [0.1, 0.873, 0.171, 0.89], conf: 1 } satisfies Candidate,
    ];
    const fit = fitKeyboard(rows, 2622 / 1206);
    expect(fit).not.toBeNull();
    expect(fit?.anchors).toBe(rows.length - 1);
    expect(fit?.pitch).toBeCloseTo(p, 3);
    expect(fit?.left).toBeCloseTo(left, 2);
    expect(fit?.upper).toBe(true);
  });
});
