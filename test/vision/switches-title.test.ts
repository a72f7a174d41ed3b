import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { decodeRgb } from "../../src/vision/rectify.js";
import type { Candidate } from "../../src/vision/row.js";
import { switchTitle } from "../../src/vision/switches-title.js";

const IMAGES = join(import.meta.dirname, "..", "..", "datasets", "real-iphone", "images");
const text = (label: string, box: Candidate["box"]): Candidate => ({ kind: "text", label, box, conf: 0.95 });

describe("switchTitle on real screenshots (text rows as the listing gives them)", () => {
  it("keeps a grey subtitle out of the title, joins a title wrapped in the title's ink", async () => {
    const screen = await decodeRgb(readFileSync(join(IMAGES, "rv-iqkm-settings.png")));
    const rows = [
      text("Enable", [0.07, 0.252, 0.202, 0.269]),
      text("Enable/Disable IQKeyboardManager", [0.07, 0.273, 0.513, 0.288]),
      text("Layout If Needed on Update", [0.07, 0.394, 0.593, 0.415]),
      text("Layout the whole view on change", [0.07, 0.416, 0.482, 0.43]),
    ];
    expect(switchTitle(screen, [0.805, 0.25, 0.928, 0.285], rows)?.label).toBe("Enable");
    expect(switchTitle(screen, [0.803, 0.392, 0.931, 0.428], rows)?.label).toBe("Layout If Needed on Update");
  });

  it("joins a two-line title whose lines are a little apart (SwiftUI, Cowabunga)", async () => {
    const screen = await decodeRgb(readFileSync(join(IMAGES, "ra-cowabunga-misc.png")));
    const rows = [
      text("Supervised", [0.172, 0.577, 0.396, 0.597]),
      text("Disable", [0.173, 0.63, 0.32, 0.647]),
      text("Screen Time", [0.172, 0.657, 0.424, 0.674]),
    ];
    expect(switchTitle(screen, [0.787, 0.633, 0.918, 0.671], rows)?.label).toBe("Disable Screen Time");
    expect(switchTitle(screen, [0.787, 0.566, 0.918, 0.604], rows)?.label).toBe("Supervised");
  });
});
