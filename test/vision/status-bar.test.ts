import { describe, expect, it } from "vitest";
import type { FracBox } from "../../src/shared/box.js";
import type { Candidate } from "../../src/vision/row.js";
import { mergeStatusBar } from "../../src/vision/status-bar.js";

const text = (label: string, box: FracBox): Candidate => ({ kind: "text", label, box, conf: 0.95 });
const icon = (box: FracBox): Candidate => ({ kind: "icon", label: "", box, conf: 0.8 });

// Boxes as read on a real Dynamic Island screenshot (datasets/real-iphone rc-tubecast-feed.jpg):
// the time at the leading side, the "◀ Expo Go" breadcrumb in smaller type right under it.
describe("mergeStatusBar: the back-to-app breadcrumb", () => {
  const time = text("15:34", [0.128, 0.021, 0.24, 0.037]);
  const glyphs = [icon([0.785, 0.03, 0.844, 0.046]), icon([0.847, 0.03, 0.914, 0.045])];

  it("keeps the breadcrumb under a leading time as a button named by the app", () => {
    const rows = mergeStatusBar([time, ...glyphs, text("◀ Expo Go", [0.03, 0.04, 0.171, 0.053])]);
    expect(rows.map((r) => [r.kind, r.label])).toEqual([
      ["status", "15:34"],
      ["button", "Expo Go"],
    ]);
  });

  it("folds text beside the time into the status row (a carrier on an older iPhone)", () => {
    const centred = text("9:41 AM", [0.43, 0.01, 0.57, 0.026]);
    const rows = mergeStatusBar([centred, text("Carrier", [0.05, 0.011, 0.2, 0.025])]);
    expect(rows.map((r) => r.kind)).toEqual(["status"]);
  });

  it("does not take a centred time's line below for a breadcrumb", () => {
    const centred = text("9:41 AM", [0.43, 0.01, 0.57, 0.026]);
    const rows = mergeStatusBar([centred, text("Back", [0.03, 0.027, 0.15, 0.04])]);
    expect(rows.map((r) => r.kind)).toEqual(["status"]);
  });
});
