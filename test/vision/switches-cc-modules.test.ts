import { describe, expect, it } from "vitest";
import type { RgbImage } from "../../src/shared/image.js";
import type { Candidate } from "../../src/vision/row.js";
import { findCcModuleToggles } from "../../src/vision/switches-cc-modules.js";
import { findControlCenterToggles } from "../../src/vision/switches-control-center.js";
import { loadRealImage, realLabel } from "./real-set.js";

const NAME = "rd-bluelink-control-center.jpg";
const icon = (box: Candidate["box"]): Candidate => ({ kind: "icon", label: "", box, conf: 0.5 });
// The detector's icon boxes as `piclaw listing` gives them on this screen: the connectivity module's
// three big discs, then every 1×1 module (Orientation Lock, Silent Mode; flashlight, camera, alarm,
// timer; remote, mirroring, Shazam, recording; the app's fan, snowflake, lock, unlock).
const MODULE = [
  icon([0.136, 0.169, 0.267, 0.233]),
  icon([0.32, 0.171, 0.451, 0.23]),
  icon([0.135, 0.251, 0.277, 0.318]),
];
const ONES = [
  [0.538, 0.158, 0.687, 0.228],
  [0.744, 0.155, 0.897, 0.224],
  [0.11, 0.449, 0.252, 0.519],
  [0.332, 0.456, 0.469, 0.516],
  [0.533, 0.447, 0.685, 0.519],
  [0.754, 0.451, 0.892, 0.516],
  [0.111, 0.548, 0.255, 0.616],
  [0.334, 0.551, 0.472, 0.613],
  [0.533, 0.551, 0.675, 0.611],
  [0.76, 0.552, 0.891, 0.613],
  [0.109, 0.845, 0.256, 0.901],
  [0.313, 0.844, 0.477, 0.9],
  [0.536, 0.84, 0.684, 0.907],
  [0.741, 0.839, 0.906, 0.908],
].map((b) => icon(b as Candidate["box"]));

/** `img` with the disc inscribed in `box` inverted: a white plate under a dark symbol (a toggle on). */
function invertDisc(img: RgbImage, box: Candidate["box"]): RgbImage {
  const data = Buffer.from(img.data);
  const [x0, y0, x1, y1] = [box[0] * img.width, box[1] * img.height, box[2] * img.width, box[3] * img.height];
  const [cx, cy, r] = [(x0 + x1) / 2, (y0 + y1) / 2, (x1 - x0 + y1 - y0) / 4 + 4];
  for (let y = Math.floor(cy - r); y <= cy + r; y++)
    for (let x = Math.floor(cx - r); x <= cx + r; x++)
      if ((x - cx) ** 2 + (y - cy) ** 2 <= r * r)
        for (let c = 0; c < 3; c++) {
          const o = (y * img.width + x) * 3 + c;
          data[o] = 255 - (data[o] ?? 0);
        }
  return { ...img, data };
}

describe("findCcModuleToggles (iOS 18 Control Center, real screenshot)", async () => {
  const screen = await loadRealImage(NAME);
  const label = realLabel(NAME);
  const rows = [...MODULE, ...ONES];
  const module = findControlCenterToggles(screen, rows);

  it("names Orientation Lock, Silent Mode and Flashlight by their symbols, off, and no other module", () => {
    const found = findCcModuleToggles(screen, rows, module);
    const truths = label.elements.filter((e) => e.kind === "switch" && e.box[0] > 0.46 !== e.box[1] > 0.4);
    expect(truths.map((t) => t.label.toLowerCase()).sort()).toEqual([
      "flashlight",
      "orientation lock",
      "silent mode",
    ]);
    expect(found).toHaveLength(truths.length);
    for (const t of truths) {
      const f = found.find((s) => {
        const [cx, cy] = [(s.box[0] + s.box[2]) / 2, (s.box[1] + s.box[3]) / 2];
        return cx >= t.box[0] && cx <= t.box[2] && cy >= t.box[1] && cy <= t.box[3];
      });
      expect(f?.label.toLowerCase(), t.label).toBe(t.label.toLowerCase());
      expect(f?.on ? "on" : "off", t.label).toBe(t.state);
    }
  });

  it("reads a white plate under a dark symbol as on", () => {
    const flashlight = ONES[2] as Candidate;
    const lit = invertDisc(screen, flashlight.box);
    const found = findCcModuleToggles(lit, rows, module);
    expect(found.find((f) => f.row === flashlight)?.on).toBe(true);
    expect(found.find((f) => f.row === ONES[0])?.on).toBe(false);
  });

  it("finds nothing without the connectivity module (not Control Center)", () => {
    expect(findCcModuleToggles(screen, ONES, [])).toEqual([]);
  });
});
