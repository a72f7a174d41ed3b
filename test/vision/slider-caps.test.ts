import { describe, expect, it } from "vitest";
import type { FracBox } from "../../src/shared/box.js";
import { decodeRgb } from "../../src/vision/rectify.js";
import type { Candidate } from "../../src/vision/row.js";
import { trimTrackCaps } from "../../src/vision/slider-caps.js";
import { applySliders } from "../../src/vision/sliders.js";
import { sliderScreen } from "./slider-synth.js";

const text = (label: string, box: FracBox): Candidate => ({ kind: "text", label, box, conf: 0.9 });

describe("trimTrackCaps", () => {
  it("drops the end cap read into a value label beside a slider's track, left or right of it", async () => {
    // `20 in` 8 pt before a UISlider's track (x 62–374 pt at y 300): the OCR read its cap as `·` and
    // ran the line's box 1 pt into the track (measured on this drawing through the pipeline).
    const png = await sliderScreen("light", [
      { kind: "text", x: 16, y: 306, text: "20 in" },
      { kind: "uislider", y: 300, value: 0.6, x0: 62, x1: 374 },
    ]);
    const rows = applySliders(await decodeRgb(png), [text("20 in·", [0.043, 0.348, 0.162, 0.364])]);
    const line = rows.find((r) => r.kind === "text");
    expect(line?.label).toBe("20 in");
    expect(line?.box[2]).toBeLessThanOrEqual(62 / 390 + 0.005);
    expect(rows.filter((r) => r.kind === "slider")).toHaveLength(1);
    // A label right of a track, read `•75 %`.
    const right = trimTrackCaps([text("•75 %", [0.78, 0.34, 0.9, 0.36])], [[0.1, 0.33, 0.8, 0.37]]);
    expect(right[0]?.label).toBe("75 %");
  });

  it("keeps lines that stop short of the track, lie off its centre line, or end in a letter", () => {
    const slider: FracBox = [0.16, 0.33, 0.96, 0.37];
    const rows = [
      text("approx.", [0.04, 0.34, 0.15, 0.36]), // ends before the track
      text("Volume.", [0.04, 0.3, 0.2, 0.32]), // the title above the slider
      text("20 in", [0.04, 0.34, 0.17, 0.36]), // runs in, but no cap read
      text("Satur.", [0.04, 0.34, 0.17, 0.36]), // an abbreviation's full stop, running in on a filmed frame
    ];
    expect(trimTrackCaps(rows, [slider])).toEqual(rows);
  });
});
