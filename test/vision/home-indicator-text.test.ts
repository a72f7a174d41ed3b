import { describe, expect, it } from "vitest";
import { textUnderBottomBar } from "../../src/vision/home-indicator-text.js";
import type { Candidate } from "../../src/vision/row.js";

const row = (kind: Candidate["kind"], label: string, box: Candidate["box"]): Candidate => ({
  kind,
  label,
  box,
  conf: 0.9,
});
/** 1320 × 2868, a 6.9-inch Face ID iPhone. */
const FACE_ID = 2868 / 1320;

describe("textUnderBottomBar", () => {
  // Boxes as the pipeline lists rc-netnewswire-article-dark filmed by the camera.
  const share = row("button", "share", [0.827, 0.929, 0.925, 0.967]);
  const fields = row("text", "sields of", [0.044, 0.986, 0.197, 0.997]);
  const history = row("text", "history", [0.821, 0.988, 0.938, 0.997]);
  const above = row("text", "re world, annd science", [0.264, 0.958, 0.755, 0.976]);

  it("drops page text faded in the home indicator's strip under a floating toolbar", () => {
    const found = textUnderBottomBar([share, fields, history, above], FACE_ID);
    expect([...found]).toEqual([fields, history]);
  });

  it("keeps the strip's text with no bar above (a list scrolled to the foot) and on Touch ID screens", () => {
    expect(textUnderBottomBar([fields, history], FACE_ID).size).toBe(0);
    expect(textUnderBottomBar([share, fields, history], 16 / 9).size).toBe(0);
  });

  it("keeps a list's last line under a photo's strip boxed low in the list (BingPaper, 590 × 1278)", () => {
    const strip = row("icon", "", [0.047, 0.868, 0.27, 0.897]);
    const credit = row("text", "© Alexander Semenov Images/", [0.353, 0.969, 0.798, 0.986]);
    expect(textUnderBottomBar([strip, credit], 1278 / 590).size).toBe(0);
  });

  it("keeps a tab item's title right under its symbol", () => {
    const symbol = row("icon", "", [0.42, 0.935, 0.5, 0.962]);
    const title = row("text", "Search", [0.4, 0.966, 0.52, 0.98]);
    expect(textUnderBottomBar([symbol, title], FACE_ID).size).toBe(0);
  });

  it("keeps a list's last row under a cell's avatar and chevron, which are no bar (generated Messages list)", () => {
    // Boxes as the pipeline lists the simulated zh Messages list through a defocused camera (390 × 844 pt).
    const avatar = row("icon", "", [0.06, 0.881, 0.176, 0.934]);
    const chevron = row("icon", "", [0.94, 0.884, 0.957, 0.897]);
    const name = row("text", "张伟", [0.207, 0.878, 0.292, 0.898]);
    const preview = row("text", "太感谢了！", [0.205, 0.908, 0.374, 0.927]);
    const next = row("text", "赵敏", [0.205, 0.968, 0.292, 0.988]);
    const day = row("text", "周六", [0.841, 0.97, 0.916, 0.988]);
    expect(textUnderBottomBar([avatar, chevron, name, preview, next, day], 844 / 390).size).toBe(0);
  });
});
