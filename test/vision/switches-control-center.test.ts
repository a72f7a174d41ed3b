import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { realScreenSchema } from "../../src/lab/real/labels.js";
import { decodeRgb } from "../../src/vision/rectify.js";
import type { Candidate } from "../../src/vision/row.js";
import { findControlCenterToggles } from "../../src/vision/switches-control-center.js";

const DATASET = join(import.meta.dirname, "..", "..", "datasets", "real-iphone");
const ID = "rd-bluelink-control-center";

describe("findControlCenterToggles (iOS 18 Control Center, real screenshot)", async () => {
  const label = realScreenSchema.parse(
    JSON.parse(readFileSync(join(DATASET, "labels", `${ID}.json`), "utf8")),
  );
  const screen = await decodeRgb(readFileSync(join(DATASET, "images", label.image)));
  const icon = (box: Candidate["box"]): Candidate => ({ kind: "icon", label: "", box, conf: 0.5 });
  // The detector's icon boxes as `piclaw listing` gives them on this screen: the three big discs of
  // the connectivity module (not the small ones), Orientation Lock and Silent Mode, and the bottom
  // grid of round 1×1 modules (flashlight, camera, alarm, timer …).
  const rows: Candidate[] = [
    icon([0.136, 0.169, 0.267, 0.233]),
    icon([0.32, 0.171, 0.451, 0.23]),
    icon([0.538, 0.158, 0.687, 0.228]),
    icon([0.744, 0.155, 0.897, 0.224]),
    icon([0.135, 0.251, 0.277, 0.318]),
    { kind: "text", label: "Focus", box: [0.258, 0.381, 0.368, 0.395], conf: 0.99 },
    icon([0.11, 0.449, 0.252, 0.519]),
    icon([0.332, 0.456, 0.469, 0.516]),
    icon([0.533, 0.447, 0.685, 0.519]),
    icon([0.754, 0.451, 0.892, 0.516]),
    icon([0.111, 0.548, 0.255, 0.616]),
    icon([0.334, 0.551, 0.472, 0.613]),
    icon([0.533, 0.551, 0.675, 0.611]),
    icon([0.76, 0.552, 0.891, 0.613]),
  ];

  it("lists the module's seven toggles, named by Apple's layout, each in its labelled state", () => {
    // OCR reads the quarter's small discs as "三" on the camera frames: a glyph, not a caption.
    const misread: Candidate = { kind: "text", label: "三", box: [0.315, 0.252, 0.448, 0.277], conf: 0.6 };
    const found = findControlCenterToggles(screen, [misread, ...rows]);
    const inModule = label.elements.filter((e) => e.kind === "switch" && e.box[3] < 0.32 && e.box[0] < 0.46);
    expect(found).toHaveLength(inModule.length);
    for (const t of inModule) {
      const f = found.find((s) => {
        const [cx, cy] = [(s.box[0] + s.box[2]) / 2, (s.box[1] + s.box[3]) / 2];
        return cx >= t.box[0] && cx <= t.box[2] && cy >= t.box[1] && cy <= t.box[3];
      });
      expect(f?.label, t.label).toBe(t.label);
      expect(f?.on ? "on" : "off", t.label).toBe(t.state);
    }
  });

  it("takes round buttons with captions under them (an in-call screen) for no module", () => {
    const captions = rows
      .filter((r) => r.kind === "icon")
      .map(
        (r): Candidate => ({
          kind: "text",
          label: "mute",
          box: [r.box[0], r.box[3] + 0.005, r.box[2], r.box[3] + 0.02],
          conf: 0.9,
        }),
      );
    expect(findControlCenterToggles(screen, [...rows, ...captions])).toEqual([]);
  });

  it("takes the wider-pitched grid of 1×1 modules for no module", () => {
    expect(findControlCenterToggles(screen, rows.slice(6))).toEqual([]);
  });
});
