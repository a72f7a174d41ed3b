import type { FracBox } from "../shared/box.js";
import { intersection } from "../shared/box.js";
import { median } from "../shared/median.js";
import type { Candidate } from "./row.js";
import { boxHeight, boxWidth, centreX, centreY } from "./row.js";

/**
 * Text seen around a floating tab bar: page content, not a control.
 *
 * A tab bar holds tab items only — each a symbol with a short title under it, spread across the bar —
 * and a badge on an item's symbol (HIG "Tab bars"; UIKit `UITabBarItem` `image`, `title`, `badgeValue`).
 * Since iOS 26 the bar floats over the page as a capsule, with the search tab as a separate circle
 * beside it, and the page scrolls under it: words of the page show around and between them, dimmed by
 * the scroll-edge effect (Apple, "Liquid Glass" / "Adopting Liquid Glass", 2025). So once three or more
 * items are found on one line at the foot of the screen, a text row in the bar's band that is not an
 * item's title (on the titles' line, a title's height), not on a symbol, not an item's symbol read as a
 * character (right above its title) and not a badge on an item's symbol is a fragment of the page.
 */

/** Tab items' titles are centred lower than this fraction of the height. */
const FOOT = 0.85;
/** A title is centred under its symbol within this fraction of the width. */
const UNDER = 0.05;
/** Titles of one bar share their centre line within this fraction of the height. */
const LINE = 0.01;
/** Items on one line that make a tab bar. */
const MIN_ITEMS = 3;
/** Titled items on one line that make a tab bar's titles the bar's own text (`tabTitles`). */
const MIN_TITLED = 2;
/** The band reaches this many titles' heights below the titles (the capsule's padding). */
const BELOW = 1.5;
/** A text row on a title's line: centre within this share of the title's height, height within … */
const ON_LINE = 0.3;
/** … this ratio of a title's. */
const SAME_SIZE = 0.3;
/** A text row is on a symbol when this share of it lies in the symbol's box (a glyph read as a letter). */
const ON_SYMBOL = 0.5;

const SYMBOL_KINDS = new Set(["icon", "button", "app"]);

interface Item {
  symbol: FracBox;
  title: FracBox;
}

/** The text rows of `rows` that are page content seen around a floating tab bar (see the module comment). */
export function textAroundTabBar(rows: readonly Candidate[]): Set<Candidate> {
  const out = new Set<Candidate>();
  const items = tabItems(rows);
  if (items.length < MIN_ITEMS) return out;
  const titleH = median(items.map((i) => boxHeight(i.title)));
  const titleY = median(items.map((i) => centreY(i.title)));
  const top = Math.min(...items.map((i) => i.symbol[1]));
  const bottom = Math.max(...items.map((i) => i.title[3])) + BELOW * titleH;
  const onLine = (b: FracBox): boolean =>
    Math.abs(centreY(b) - titleY) < ON_LINE * titleH && Math.abs(boxHeight(b) / titleH - 1) < SAME_SIZE;
  const titles = [
    ...items.map((i) => i.title),
    ...rows.filter((r) => r.kind === "text" && onLine(r.box)).map((r) => r.box),
  ];
  for (const r of rows) {
    if (r.kind !== "text") continue;
    const cy = centreY(r.box);
    if (cy < top || cy > bottom || titles.includes(r.box)) continue;
    const area = Math.max(1e-9, boxWidth(r.box) * boxHeight(r.box));
    const onSymbol = rows.some(
      (o) => SYMBOL_KINDS.has(o.kind) && intersection(o.box, r.box) >= ON_SYMBOL * area,
    );
    const badge = items.some((i) => intersection(i.symbol, r.box) > 0) && /^\d+$/.test(r.label.trim());
    // An item's symbol the detector missed, read as a character (a list glyph as "月").
    const symbol = titles.some((t) => cy < t[1] && Math.abs(centreX(r.box) - centreX(t)) < UNDER);
    if (!onSymbol && !badge && !symbol) out.add(r);
  }
  return out;
}

/**
 * The text rows of `rows` that are tab items' titles: a title centred under its symbol, with at least
 * `MIN_TITLED` such items on one line at the foot of the screen (`tabItems`; a tab bar has two tabs or
 * more, HIG "Tab bars"). A title is drawn by the bar on its own surface — on iOS 26's glass capsule, or
 * on its selected item's lighter pill — so it is the bar's text, never content seen through the bar
 * (`materials.ts` asks). A row on the titles' line with no symbol over it is not taken: a page fragment
 * of a title's size seen through the glass between items looks the same (a blind check set's Chinese
 * detail page gained one such spurious row when it was).
 */
export function tabTitles(rows: readonly Candidate[]): Set<Candidate> {
  const items = tabItems(rows);
  if (items.length < MIN_TITLED) return new Set();
  const boxes = new Set(items.map((i) => i.title));
  return new Set(rows.filter((r) => r.kind === "text" && boxes.has(r.box)));
}

/**
 * Tab items at the foot of the screen, on the titles' most common line: a text row centred under a
 * symbol row, or an app-like row named by the title under it (`labelBox`).
 */
function tabItems(rows: readonly Candidate[]): Item[] {
  const found: Item[] = [];
  for (const r of rows) {
    if (r.kind === "app" && r.labelBox && centreY(r.labelBox) > FOOT) {
      found.push({ symbol: r.box, title: r.labelBox });
      continue;
    }
    if (r.kind !== "text" || centreY(r.box) < FOOT) continue;
    const symbol = rows.find(
      (o) =>
        SYMBOL_KINDS.has(o.kind) &&
        centreY(o.box) < centreY(r.box) &&
        o.box[3] > r.box[1] - boxHeight(r.box) &&
        Math.abs(centreX(o.box) - centreX(r.box)) < UNDER,
    );
    if (symbol) found.push({ symbol: symbol.box, title: r.box });
  }
  let best: Item[] = [];
  for (const i of found) {
    const line = found.filter((o) => Math.abs(centreY(o.title) - centreY(i.title)) < LINE);
    if (line.length > best.length) best = line;
  }
  return best;
}
