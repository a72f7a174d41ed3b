import { describe, expect, it } from "vitest";
import type { FracBox } from "../../src/shared/box.js";
import { inferGridApps } from "../../src/vision/app-grid.js";
import type { Candidate } from "../../src/vision/row.js";

const text = (label: string, box: FracBox): Candidate => ({ kind: "text", label, box, conf: 0.9 });
const app = (label: string, box: FracBox, labelBox: FracBox): Candidate => ({
  kind: "app",
  label,
  box,
  labelBox,
  conf: 0.8,
});

// Rows as the pipeline lists a real home screen (datasets/real-iphone rd-homewidget-home-widget.png):
// News and Wallet named from their tiles; the detector missed the Reminders and Settings tiles, so their
// names are bare text on Wallet's row of names.
/** The screenshot's height / width (828 × 1792 px). */
const ASPECT = 1792 / 828;

describe("inferGridApps", () => {
  const named = [
    app("News", [0.557, 0.217, 0.68, 0.265], [0.585, 0.284, 0.645, 0.298]),
    app("Wallet", [0.548, 0.326, 0.688, 0.382], [0.575, 0.403, 0.66, 0.416]),
  ];

  it("places the missed tiles of names on a named app's row, at the grid's size and gap", () => {
    const rows = inferGridApps(
      [
        ...named,
        text("Reminders", [0.31, 0.403, 0.458, 0.414]),
        text("Settings", [0.786, 0.403, 0.902, 0.417]),
      ],
      ASPECT,
    );
    const added = rows.filter((r) => r.kind === "app" && !named.includes(r));
    expect(added.map((r) => r.label)).toEqual(["Reminders", "Settings"]);
    for (const r of added) {
      expect(r.box[2] - r.box[0]).toBeCloseTo(0.14, 2); // Wallet's tile width (the larger of two)
      expect(r.box[3]).toBeCloseTo(0.403 - 0.021, 2); // News and Wallet: name 0.019–0.021 under the tile
    }
    expect(rows.some((r) => r.kind === "text")).toBe(false);
  });

  it("leaves a name whose tile place holds a row, text of another size, and a lone named app", () => {
    const piece: Candidate = { kind: "icon", label: "", box: [0.09, 0.35, 0.14, 0.37], conf: 0.5 };
    const rows = inferGridApps(
      [
        ...named,
        piece,
        text("Maps", [0.117, 0.403, 0.191, 0.416]),
        text("Updated 52 minutes ago", [0.1, 0.4, 0.5, 0.425]),
      ],
      ASPECT,
    );
    expect(rows.filter((r) => r.kind === "text").map((r) => r.label)).toEqual([
      "Maps",
      "Updated 52 minutes ago",
    ]);
    const one = [named[1] as Candidate, text("Settings", [0.786, 0.403, 0.902, 0.417])];
    expect(inferGridApps(one, ASPECT)).toEqual(one);
  });
});
