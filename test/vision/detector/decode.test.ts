import { describe, expect, it } from "vitest";
import { iou } from "../../../src/shared/box.js";
import { PiclawError } from "../../../src/util/errors.js";
import {
  candidates,
  decodeDetections,
  nmsByClass,
  type PixelDetection,
} from "../../../src/vision/detector/decode.js";
import { letterboxGeometry } from "../../../src/vision/detector/preprocess.js";

const CLASSES = ["icon", "text", "control"];
const opts = { classes: CLASSES, confThreshold: 0.3, iouThreshold: 0.5, maxDetections: 100 };

/** A hand-made YOLOv8 output [1, 4+C, N] from rows of [cx, cy, w, h, ...scores]. */
function yolo(columns: number[][]): { data: Float32Array; dims: number[] } {
  const rows = columns[0]?.length ?? 0;
  const n = columns.length;
  const data = new Float32Array(rows * n);
  columns.forEach((col, i) => {
    col.forEach((v, r) => {
      data[r * n + i] = v;
    });
  });
  return { data, dims: [1, rows, n] };
}

/** No letterbox: a 100×200 image fed at 100×200. */
const identity = { scaleX: 1, scaleY: 1, padX: 0, padY: 0, srcWidth: 100, srcHeight: 200 };

describe("iou", () => {
  it("is 1 for the same box, 0 for disjoint ones and 1/7 for half-overlapping squares", () => {
    expect(iou([0, 0, 10, 10], [0, 0, 10, 10])).toBe(1);
    expect(iou([0, 0, 10, 10], [20, 20, 30, 30])).toBe(0);
    expect(iou([0, 0, 10, 10], [5, 0, 15, 10])).toBeCloseTo(50 / 150);
    expect(iou([0, 0, 0, 0], [0, 0, 0, 0])).toBe(0);
  });
});

describe("candidates", () => {
  it("keeps columns whose best class clears the threshold, as corner boxes in input pixels", () => {
    const { data, dims } = yolo([
      [50, 40, 20, 10, 0.9, 0.1, 0.2],
      [10, 10, 4, 4, 0.1, 0.2, 0.29], // best score below 0.3
      [30, 60, 10, 30, 0.2, 0.1, 0.8],
    ]);
    const c = candidates(data, dims, opts);
    expect(c).toEqual([
      { cls: 0, conf: expect.closeTo(0.9, 5), box: [40, 35, 60, 45] },
      { cls: 2, conf: expect.closeTo(0.8, 5), box: [25, 45, 35, 75] },
    ]);
  });

  it("reads the transposed [1, N, 4+C] layout the same way", () => {
    const cols = [
      [50, 40, 20, 10, 0.9, 0.1, 0.2],
      [30, 60, 10, 30, 0.2, 0.1, 0.8],
    ];
    const data = new Float32Array(cols.flat());
    const a = candidates(data, [1, 2, 7], opts);
    const b = candidates(yolo(cols).data, yolo(cols).dims, opts);
    expect(a).toEqual(b);
  });

  it("drops boxes with no width or height", () => {
    const { data, dims } = yolo([[50, 40, 0, 10, 0.9, 0, 0]]);
    expect(candidates(data, dims, opts)).toEqual([]);
  });

  it("rejects an output whose shape does not fit the class list", () => {
    const { data, dims } = yolo([[50, 40, 20, 10, 0.9]]); // one class, but three configured
    expect(() => candidates(data, dims, opts)).toThrow(PiclawError);
    try {
      candidates(data, dims, opts);
    } catch (err) {
      expect((err as PiclawError).code).toBe("DETECTOR_OUTPUT_SHAPE");
    }
  });
});

describe("nmsByClass", () => {
  const det = (cls: number, conf: number, box: [number, number, number, number]): PixelDetection => ({
    cls,
    conf,
    box,
  });

  it("drops a lower-scoring box overlapping a kept one of the same class", () => {
    const kept = nmsByClass(
      [det(0, 0.6, [1, 0, 11, 10]), det(0, 0.9, [0, 0, 10, 10]), det(0, 0.5, [30, 30, 40, 40])],
      0.5,
      10,
    );
    expect(kept.map((d) => d.conf)).toEqual([0.9, 0.5]);
  });

  it("never lets one class suppress another", () => {
    const kept = nmsByClass([det(0, 0.9, [0, 0, 10, 10]), det(2, 0.8, [0, 0, 10, 10])], 0.5, 10);
    expect(kept.map((d) => d.cls)).toEqual([0, 2]);
  });

  it("keeps overlaps at or under the threshold and stops at maxDetections", () => {
    const a = det(1, 0.9, [0, 0, 10, 10]);
    const b = det(1, 0.8, [5, 0, 15, 10]); // IoU 1/3
    expect(nmsByClass([a, b], 0.5, 10)).toHaveLength(2);
    expect(nmsByClass([a, b], 0.3, 10)).toHaveLength(1);
    expect(nmsByClass([a, b], 0.5, 1)).toEqual([a]);
  });
});

describe("decodeDetections", () => {
  it("returns named classes with boxes in 0–1 fractions of the image", () => {
    const { data, dims } = yolo([
      [50, 40, 20, 10, 0.9, 0.1, 0.2],
      [51, 40, 20, 10, 0.7, 0.1, 0.2], // duplicate of the first: suppressed
      [30, 60, 10, 30, 0.2, 0.1, 0.8],
    ]);
    const objects = decodeDetections(data, dims, identity, opts);
    expect(objects).toHaveLength(2);
    expect(objects[0]?.cls).toBe("icon");
    expect(objects[0]?.box).toEqual([0.4, 0.175, 0.6, 0.225]);
    expect(objects[1]?.cls).toBe("control");
    expect(objects[1]?.conf).toBeCloseTo(0.8, 5);
  });

  it("undoes the letterbox: padding is removed and boxes are clamped to the image", () => {
    // A 390×844 screen in a 288×640 input: image resized to 288×623, centred with 8 px on top.
    const g = letterboxGeometry(390, 844, 288, 640);
    expect([g.width, g.height, g.padX, g.padY]).toEqual([288, 623, 0, 8]);
    const { data, dims } = yolo([
      [144, 8 + 623 / 2, 288, 623, 0.9, 0, 0], // the whole image
      [10, 4, 40, 20, 0, 0.95, 0], // reaches into the top padding
    ]);
    const [text, whole] = decodeDetections(data, dims, g, opts); // best score first
    expect(whole?.box.map((v) => Number(v.toFixed(6)))).toEqual([0, 0, 1, 1]);
    expect(text?.cls).toBe("text");
    expect(text?.box[1]).toBe(0);
    expect(text?.box[3]).toBeCloseTo(6 / 623, 6);
  });

  it("omits boxes that fall entirely in the padding", () => {
    const g = letterboxGeometry(390, 844, 288, 640);
    const { data, dims } = yolo([[144, 3, 20, 4, 0.9, 0, 0]]);
    expect(decodeDetections(data, dims, g, opts)).toEqual([]);
  });
});
