import { describe, expect, it } from "vitest";
import type { RealScreen } from "../../src/lab/real/labels.js";
import { wallpaperAboveDock } from "../../src/vision/home-wallpaper.js";
import type { Candidate } from "../../src/vision/row.js";
import { labelTexts, row } from "./candidates.js";
import { realLabel } from "./real-set.js";

/**
 * Wallpaper below the last name on a home screen's page (`home-grid-end.ts`, called by
 * `home-wallpaper.ts`), on real screenshots of the development set (`datasets/real-iphone`). Rows are the
 * screen's labelled text lines and dock apps plus the rows today's pipeline listed on the wallpaper.
 */
const load = (id: string): RealScreen => realLabel(`${id}.json`);

const apps = (label: RealScreen): Candidate[] =>
  label.elements.filter((e) => e.kind === "app").map((e) => row("app", e.label, e.box));
/** rd-fordpass-home-widget-* are 1284 × 2778 screenshots. */
const FORDPASS_ASPECT = 2778 / 1284;

describe("wallpaper below a home page's last name", () => {
  it("drops a teardown wallpaper's lettering and logos under the widget, page dots unseen", () => {
    const label = load("rd-fordpass-home-widget-medium");
    // As the pipeline listed them (main a7c6e4c): no page dots found, so the indicator's strip rule is idle.
    const wallpaper = [
      row("text", "A15", [0.188, 0.288, 0.28, 0.308]),
      row("text", "BIONIC", [0.191, 0.313, 0.281, 0.321]),
      row("icon", "", [0.049, 0.416, 0.109, 0.44]),
      row("icon", "", [0.181, 0.76, 0.248, 0.786]),
      row("text", "Model A2653", [0.444, 0.798, 0.562, 0.805]),
      row("text", "ING / AVER", [0.273, 0.813, 0.356, 0.822]),
      row("text", "For fire or", [0.192, 0.82, 0.27, 0.832]),
    ];
    const badge = row("text", "4", [0.445, 0.889, 0.466, 0.901]);
    const rows = [...labelTexts(label), ...apps(label), badge, ...wallpaper];
    expect(wallpaperAboveDock(rows, FORDPASS_ASPECT)).toEqual(new Set(wallpaper));
  });

  it("drops a wallpaper's screw head in the page's side margin, beside a widget", () => {
    const label = load("rd-fordpass-home-widget-dark");
    const dots = row("button", "page dots", [0.403, 0.814, 0.597, 0.831]);
    const screw = row("icon", "", [0.005, 0.41, 0.067, 0.435]); // as the pipeline listed it (a7c6e4c)
    const rows = [...labelTexts(label), ...apps(label), dots, screw];
    expect(wallpaperAboveDock(rows, FORDPASS_ASPECT)).toEqual(new Set([screw]));
  });

  it("keeps every labelled line of a page full of widgets", () => {
    const label = load("rd-fordpass-home-widgets-light");
    const rows = [...labelTexts(label), ...apps(label)];
    expect(wallpaperAboveDock(rows, FORDPASS_ASPECT).size).toBe(0);
  });

  it("keeps an app's name that no tile was found for, and what lies above it", () => {
    const label = load("rd-fordpass-home-widget-medium");
    const name = row("text", "Weather", [0.1, 0.795, 0.2, 0.808]); // centred on the first column
    const logo = row("icon", "", [0.181, 0.76, 0.248, 0.786]);
    const rows = [...labelTexts(label), ...apps(label), name, logo];
    expect(wallpaperAboveDock(rows, FORDPASS_ASPECT).size).toBe(0);
  });

  it("takes no tab bar for a dock: tabs named under their glyphs leave every row", () => {
    const label = load("re-jazinga-dial");
    // The camera-frame listing of a dial pad's tab bar read its tabs as named apps (main a7c6e4c).
    const tabs = [
      { ...row("app", "Favorites", [0.052, 0.9, 0.173, 0.984]), labelBox: [0.05, 0.965, 0.18, 0.993] },
      { ...row("app", "Dial", [0.648, 0.905, 0.757, 0.973]), labelBox: [0.65, 0.965, 0.76, 0.993] },
      { ...row("app", "Settings", [0.847, 0.899, 0.961, 0.961]), labelBox: [0.84, 0.965, 0.96, 0.993] },
    ] as Candidate[];
    expect(wallpaperAboveDock([...labelTexts(label), ...tabs], 960 / 640).size).toBe(0);
  });

  it("needs a dock: a page with no apps along its bottom loses nothing", () => {
    const label = load("rd-fordpass-home-widget-medium");
    const rows = [...labelTexts(label), row("text", "A15", [0.188, 0.288, 0.28, 0.308])];
    expect(wallpaperAboveDock(rows, FORDPASS_ASPECT).size).toBe(0);
  });
});
