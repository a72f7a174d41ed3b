import { describe, expect, it } from "vitest";
import { nestedTextRows } from "../../src/vision/nested-text.js";
import type { Candidate } from "../../src/vision/row.js";

const text = (label: string, box: Candidate["box"]): Candidate => ({ kind: "text", label, box, conf: 0.9 });

describe("nestedTextRows", () => {
  it("drops a read lying inside a taller read of the same ink (FordPass camera frame's boxes)", () => {
    const line = text("BlNiptable", [0.141, 0.268, 0.362, 0.303]);
    const piece = text("H Scri", [0.153, 0.274, 0.257, 0.286]);
    const found = nestedTextRows([line, piece]);
    expect([...found]).toEqual([piece]);
  });

  it("keeps lines that stack or sit side by side, and a badge's digit over an icon (not text)", () => {
    const rows = [
      text("Updated: 2 Hours", [0.4, 0.716, 0.569, 0.724]),
      text("irs ago", [0.545, 0.716, 0.61, 0.729]),
      text("Locks", [0.741, 0.106, 0.841, 0.119]),
      text("Locked", [0.741, 0.124, 0.831, 0.137]),
      { kind: "icon", label: "", box: [0.425, 0.882, 0.482, 0.908], conf: 0.7 } as Candidate,
      text("4", [0.444, 0.888, 0.478, 0.902]),
    ];
    expect(nestedTextRows(rows).size).toBe(0);
  });

  it("keeps a line whose box only overlaps its neighbour's (a wrapped title's two lines)", () => {
    const a = text("Keyboard Distance", [0.072, 0.313, 0.426, 0.332]);
    const b = text("From TextField", [0.072, 0.328, 0.347, 0.35]);
    expect(nestedTextRows([a, b]).size).toBe(0);
  });
});
