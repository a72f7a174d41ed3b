import { describe, expect, it } from "vitest";
import { findCcPageTabs } from "../../src/vision/control-center-tabs.js";
import type { Candidate } from "../../src/vision/row.js";
import { loadRealImage, realLabel } from "./real-set.js";

const NAME = "rd-bluelink-control-center.jpg";
const row = (kind: Candidate["kind"], label: string, box: Candidate["box"]): Candidate => ({
  kind,
  label,
  box,
  conf: 0.8,
});
// The listing's rows at the time: the connectivity module's switches, the power button at the top
// right, and the bright Favorites tab (the glyph pass's row).
const MODULE = [
  row("switch", "Airplane Mode", [0.134, 0.17, 0.269, 0.232]),
  row("switch", "AirDrop", [0.32, 0.171, 0.45, 0.23]),
  row("switch", "Wi-Fi", [0.135, 0.252, 0.277, 0.317]),
];
const POWER = row("icon", "", [0.864, 0.036, 0.927, 0.052]);
const HEART = row("icon", "", [0.932, 0.423, 0.991, 0.448]);

describe("findCcPageTabs (iOS 18 Control Center, real screenshot)", async () => {
  const screen = await loadRealImage(NAME);
  const tabs = realLabel(NAME).elements.filter((e) => e.kind === "tab" && e.state === "off");

  it("lists the dimmed page tabs under the bright one, one row each", () => {
    expect(tabs.map((t) => t.label)).toEqual(["music", "connectivity"]);
    const found = findCcPageTabs(screen, [...MODULE, POWER, HEART]);
    expect(found).toHaveLength(tabs.length);
    for (const t of tabs) {
      const hits = found.filter((r) => {
        const [x, y] = [(r.box[0] + r.box[2]) / 2, (r.box[1] + r.box[3]) / 2];
        return x >= t.box[0] && x <= t.box[2] && y >= t.box[1] && y <= t.box[3];
      });
      expect(hits, t.label).toHaveLength(1);
    }
  });

  it("needs Control Center's module, and a column of three (the power button alone seeds none)", () => {
    expect(findCcPageTabs(screen, [POWER, HEART])).toEqual([]);
    expect(findCcPageTabs(screen, [...MODULE, POWER])).toEqual([]);
  });
});
