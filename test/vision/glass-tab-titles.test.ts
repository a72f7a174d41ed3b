import { describe, expect, it } from "vitest";
import { textBehindMaterial, trimSeenThrough } from "../../src/vision/materials.js";
import type { Candidate } from "../../src/vision/row.js";
import { tabTitles } from "../../src/vision/tab-bar-content.js";
import { type GlassScreen, type GlassSpec, glassTabScreen } from "./glass-tab-synth.js";
import { filmScreenshot } from "./ocr/filmed-real.js";

/**
 * iOS 26's floating glass tab bar: its items' titles are the bar's own text, kept however faint they
 * measure against the page (grey on dark glass, tinted on the selected item's pill), while page text
 * seen through the glass is still dropped (`materials.ts`, `tab-bar-content.ts`).
 */
const text = (label: string, box: Candidate["box"]): Candidate => ({ kind: "text", label, box, conf: 0.9 });
const icon = (box: Candidate["box"]): Candidate => ({ kind: "icon", label: "", box, conf: 0.6 });

const ROWS = ["Recently Added", "Playlists", "Artists", "Albums", "Songs", "Made for You", "Genres"];
const MORE = ["Compilations", "Composers", "Downloaded", "Music Videos", "Home Sharing", "Alerts when low"];

/** The rows OCR and the detector give on `screen`: page lines, tab titles, symbols (minus `missing`). */
function rowsOf(screen: GlassScreen, missing: readonly number[] = []): Candidate[] {
  return [
    ...screen.page.map((p) => text(p.text, p.box)),
    ...screen.under.map((u) => text(u.text, u.box)),
    ...screen.items.map((i) => text(i.title, i.titleBox)),
    ...screen.items.filter((_, k) => !missing.includes(k)).map((i) => icon(i.symbol)),
  ];
}

async function dropped(spec: GlassSpec, missing: readonly number[] = []) {
  const screen = await glassTabScreen(spec);
  const rows = rowsOf(screen, missing);
  const gone = textBehindMaterial(screen.image, rows);
  const labels = (keep: (r: Candidate) => boolean) =>
    rows.filter((r) => gone.has(r) && keep(r)).map((r) => r.label);
  const titles = new Set(screen.items.map((i) => i.title));
  const under = new Set(screen.under.map((u) => u.text));
  return { titles: labels((r) => titles.has(r.label)), under: labels((r) => under.has(r.label)), screen };
}

describe("glass tab bar titles", () => {
  it("keeps grey titles and the tinted selected one on dark glass; drops the page row under it", async () => {
    const spec: GlassSpec = {
      mode: "dark",
      tabs: ["Main", "Stats", "Alarms", "Care"],
      selected: 1,
      grey: true,
      rows: [...ROWS, ...MORE],
    };
    const { titles, under, screen } = await dropped(spec);
    expect(screen.under.length).toBeGreaterThan(0);
    expect(titles).toEqual([]);
    expect(under).toEqual(screen.under.map((u) => u.text));
  }, 60_000);

  it("keeps Chinese titles beside a search circle, one item's symbol not found", async () => {
    const spec: GlassSpec = {
      mode: "dark",
      tabs: ["主页", "闹钟", "护理"],
      selected: 0,
      search: true,
      rows: ["最近添加", "播放列表", "艺人", "专辑", "歌曲", "为你推荐", "类型", "合辑", "作曲者", "已下载"],
    };
    const { titles } = await dropped(spec, [2]);
    expect(titles).toEqual([]);
  }, 60_000);
});

describe("glass tab bar titles, filmed", () => {
  it("keeps every word of a two-word grey title on dark glass", async () => {
    const spec: GlassSpec = {
      mode: "dark",
      tabs: ["Listen Now", "Browse", "Radio", "Library", "Profile"],
      selected: 4,
      grey: true,
      rows: [...ROWS, ...MORE],
    };
    const screen = await glassTabScreen(spec);
    const filmed = await filmScreenshot(screen.png, 11);
    const rows = rowsOf(screen);
    const labels = (list: readonly Candidate[]) => list.filter((r) => r.box[1] > 0.94).map((r) => r.label);
    expect(labels(trimSeenThrough(filmed, rows))).toEqual(spec.tabs);
    const gone = textBehindMaterial(filmed, rows);
    expect(spec.tabs.filter((t) => rows.some((r) => r.label === t && gone.has(r)))).toEqual([]);
  }, 90_000);
});

describe("tabTitles", () => {
  const foot = (x: number): Candidate[] => [
    icon([x - 0.03, 0.915, x + 0.03, 0.945]),
    text("Tab", [x - 0.04, 0.952, x + 0.04, 0.962]),
  ];

  it("needs two titled items on one line at the foot", () => {
    expect(tabTitles(foot(0.3)).size).toBe(0);
    const two = [...foot(0.3), ...foot(0.6), text("Care", [0.8, 0.952, 0.86, 0.962])];
    // Two titled items make a bar; a row on their line with no symbol over it is not taken (a page
    // fragment of a title's size, seen through the glass between items, must stay droppable).
    expect([...tabTitles(two)].map((r) => r.label)).toEqual(["Tab", "Tab"]);
  });

  it("takes no text of another size or line, and nothing above the foot", () => {
    const rows = [
      ...foot(0.3),
      ...foot(0.6),
      text("A page line", [0.04, 0.94, 0.4, 0.965]),
      text("Under", [0.7, 0.975, 0.8, 0.985]),
    ];
    expect([...tabTitles(rows)].map((r) => r.label)).toEqual(["Tab", "Tab"]);
    const high = [icon([0.27, 0.5, 0.33, 0.53]), text("Tab", [0.26, 0.54, 0.34, 0.55])];
    expect(
      tabTitles([
        ...high,
        ...high.map((r) => ({
          ...r,
          box: [r.box[0] + 0.3, r.box[1], r.box[2] + 0.3, r.box[3]] as Candidate["box"],
        })),
      ]).size,
    ).toBe(0);
  });
});
