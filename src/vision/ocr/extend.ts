import type { PixelBox } from "./detect.js";
import { greyCrop, type InkImage, tightenToInk } from "./ink.js";
import type { MapHint } from "./map-hint.js";
import { SPLIT_GAP } from "./split.js";

/**
 * Text regions grown along their line over the ink the detector left out. At 320 px the DB map often
 * fires on part of a line only: small or light text (`Last Ch` of `Last Checkin: 1 Hour ago`), a glyph
 * at a region's edge (`pple Newsroom`, `behaviou` in camera frames). PaddleOCR meets the same weakness
 * with a larger detection input (`det_limit_side_len` 960, `limit_type` max; optionally `use_dilation`);
 * here the map stays small (its cost grows with its area) and the line is followed on the screen instead.
 *
 * From the region's ink inside its kernel (the unclip margin may hold part of an icon), columns beside
 * it are walked outwards: a column whose ink lies within the line's band continues the line, a blank
 * column counts towards a gap, and the walk stops at a column with ink above or below the band (an icon,
 * a picture, another line, a textured background, as dark as the line's glyphs; each row beside the
 * band is judged against what that row shows over the line itself, so the edge of a surface the line
 * sits on — a message bubble, a bar — is no stop: `FaceTim` in a filmed bubble). The first gap must be
 * a letter gap (`LETTER_GAP`): a region that ends at a word's end is the detector's call, unless a word
 * space (`WORD_GAP`) leads to another region the detector found on the line (`Updated: 2 Hours` and
 * `ago`). After that the walk crosses word spaces (SF Pro: 0.3–0.45 em of ink gap) and stops at
 * `SPLIT_GAP` (0.6 em), where `split.ts` takes a gap for two labels (iOS sets labels at least 8 pt
 * apart, 0.69–0.81 em measured) — or, past a gap of up to 0.6 em of a cap-height em (`CAP_HEIGHT`), at
 * the end of ink the map does not mark as text (`MAP_PEAK`, `map-hint.ts`). Each run of ink it takes
 * must be as dark as the line's own glyphs, and the first no wider than a glyph or two (`FIRST_RUN`) up
 * to its first dip: a camera's blur joins a word's letters into one run (`Last C` of a small caption),
 * but each gap between them stays a dip. A region grows only where the ink lies past its edge; regions
 * whose grown ink meets on one band become one.
 */

/**
 * Most ems a line's ink spans from top to bottom (SF Pro's ascender to descender, 0.94; a PingFang
 * ideograph 0.9): the em is at least the ink height over this, so a gap in ems is never overestimated.
 */
const TALLEST_REACH = 0.94;
/**
 * Widest blank run (ems) between the region's ink and the first ink it grows over: a gap between two
 * letters of a word (SF Pro's side bearings, 0.05–0.15 em), not a word space (0.3–0.45 em). A region
 * that ends in the middle of a word was cut short by the map; one that ends at a word's end is taken as
 * the detector found it (an icon or another label may follow a word space away: `X  Delete`).
 */
const LETTER_GAP = 0.25;
/**
 * Widest (ems) the first run of new ink may be: one glyph or two (SF Pro's widest letters are about an
 * em, an ideograph is one). An icon beside a label (`X` before `Delete Shortcut Banners`) or a bar drawn
 * through the line (the home indicator under `Departure Offset`) runs on for longer.
 */
const FIRST_RUN = 1.2;
/**
 * Widest blank run (ems) between two words of a line: SF Pro's word space with the side bearings,
 * 0.3–0.45 em (`split.ts`). Across it the walk may reach another region the detector found on the line;
 * an icon beside a label stands further off (the gears before `Advanced`, 0.8 em).
 */
const WORD_GAP = 0.45;
/** A run of ink beside the line is its text only when as dark as this share of the line's own ink. */
const PEAK_SHARE = 0.5;
/** How far (px) ink must reach past a region's edge for the region to grow. */
const PAST_EDGE = 1;
/** Columns of ink (px) two regions must share to be read as one: more than a glyph's anti-aliased fringe. */
const SHARED_COLUMNS = 3;
/** How far (ink heights of the shorter) the tops of two regions' ink on one line may differ. */
const TOP_SLACK = 0.2;
/** Margin (ink heights) left beside ink the region grew over. */
const MARGIN = 0.25;
/** How far (ink heights) ink may reach past the band's top and bottom and still be the line's. */
const BAND_SLACK = 0.15;
/**
 * How far (region heights) the detector's kernel lies inside the region on each side: DB grows a kernel
 * `kh` tall by `area × ratio / perimeter`, about 0.6 `kh` at ratio 1.2 for a long line, so the region is
 * ~2.2 `kh` tall and its margin ~0.27 of that.
 */
const KERNEL_INSET = 0.3;
/**
 * Map score (the DB probability map's surest pixel on the line's ink rows) that lets the walk cross a
 * word space to ink no region holds: well above the map's binary threshold (0.3), so a blip the
 * post-process dropped for its size counts (`Last Checkin: 1 Hour ago` behind a dimmed page: `ago`
 * peaks at 0.89 on 5 × 2 map pixels), a faint halo does not. Asked only of the ink the walk took past
 * the word space, which must still run on the line's band as dark as its glyphs (`map-hint.ts`).
 */
const MAP_PEAK = 0.6;
/**
 * SF Pro's cap height (em). A line of capitals, digits and ascenders only (`Last Checkin:`) has ink
 * this tall, not `TALLEST_REACH`, so its em is 1.33× what the ink height says and its word spaces look
 * 1.33× wider (13 px after `Checkin:` at 12 pt on a 3× screen: 0.61 "em" for 0.36 em). Where the map
 * marks the ink past a gap as text, the walk crosses gaps up to `SPLIT_GAP` of the larger em.
 */
const CAP_HEIGHT = 0.705;
/** Rows (ink heights) above and below the band that must stay blank where the line continues. */
const GUARD = 0.3;

interface Grown {
  box: PixelBox;
  /** The line's ink, grown. */
  ink: PixelBox;
  /** The line's ink as the detector found it. */
  found: PixelBox;
}

/**
 * Every region grown along its line (see the module comment), regions whose grown ink meets on one band
 * merged, in the order of the first region of each. A region without clear ink is kept as it is.
 */
export function extendAlongLines(image: InkImage, boxes: readonly PixelBox[], hint?: MapHint): PixelBox[] {
  // Each region's ink inside its kernel: which regions stand on one line, as tall as each other.
  const inks = boxes.map((b) => {
    const core = kernel(b);
    return { box: b, core, ink: tightenToInk(image, core) };
  });
  const grown = inks.map((r) => grow(image, r, inks, hint));
  // `parts`: the detector's own regions' ink in each merged region.
  const out: ((Grown & { parts: PixelBox[] }) | undefined)[] = grown.map((g) => ({ ...g, parts: [g.found] }));
  for (let i = 0; i < out.length; i++) {
    for (let j = i + 1; j < out.length; j++) {
      const a = out[i];
      const b = out[j];
      // Regions that met before growing were kept apart by the detector (a label over its reflection);
      // judged region by region, not on merged spans: two merged runs of a tab bar's labels overlap
      // along the bar though no two of their labels met (`Find … Settings` read twice on a filmed bar).
      if (!a || !b || !(sameLine(a.ink, b.ink) || sharedInk(a, b))) continue;
      if (a.parts.some((p) => b.parts.some((q) => sameLine(p, q)))) continue;
      out[i] = {
        box: union(a.box, b.box),
        ink: union(a.ink, b.ink),
        found: union(a.found, b.found),
        parts: [...a.parts, ...b.parts],
      };
      out[j] = undefined;
      j = i; // the merged region may now meet an earlier one
    }
  }
  return out.flatMap((g) => (g ? [g.box] : []));
}

/** Two grown lines that overlap along x on the same band (most of the lower one's height, similar size). */
function sameLine(a: PixelBox, b: PixelBox): boolean {
  if (a.x1 <= b.x0 || b.x1 <= a.x0) return false;
  const ha = a.y1 - a.y0;
  const hb = b.y1 - b.y0;
  const overlap = Math.min(a.y1, b.y1) - Math.max(a.y0, b.y0);
  return overlap >= 0.6 * Math.min(ha, hb) && Math.max(ha, hb) <= 1.4 * Math.min(ha, hb);
}

/**
 * Whether one region grew over ink the other region's kernel holds, on the same band: both would read
 * those glyphs (`Updated: 2 Hours` + `urs ago` read `Hours irs ago` on a camera frame). Their heights
 * may differ more than `sameLine` allows: a weak map cuts a small line's region short at its bottom
 * (the detector's box 11 px tall over ink 15 px tall), and a part with descenders (`ago`) is taller.
 * The tops of the two inks — cap and ascender line, which every Latin or Han line reaches — must agree.
 */
function sharedInk(a: Grown, b: Grown): boolean {
  const over = (g: PixelBox, f: PixelBox) => Math.min(g.x1, f.x1) - Math.max(g.x0, f.x0) >= SHARED_COLUMNS;
  if (!over(a.ink, b.found) && !over(b.ink, a.found)) return false;
  const h = Math.min(a.ink.y1 - a.ink.y0, b.ink.y1 - b.ink.y0);
  const overlap = Math.min(a.ink.y1, b.ink.y1) - Math.max(a.ink.y0, b.ink.y0);
  return overlap >= 0.6 * h && Math.abs(a.ink.y0 - b.ink.y0) <= TOP_SLACK * h;
}

function union(a: PixelBox, b: PixelBox): PixelBox {
  return {
    x0: Math.min(a.x0, b.x0),
    y0: Math.min(a.y0, b.y0),
    x1: Math.max(a.x1, b.x1),
    y1: Math.max(a.y1, b.y1),
    score: Math.max(a.score, b.score),
  };
}

/** The part of a region inside the detector's kernel, along x (the unclip margin may hold an icon). */
function kernel(box: PixelBox): PixelBox {
  const inset = Math.min(KERNEL_INSET * (box.y1 - box.y0), (box.x1 - box.x0) / 3);
  return { ...box, x0: box.x0 + inset, x1: box.x1 - inset };
}

/** `region`: the box, its kernel and the kernel's ink (`tightenToInk`, measured once for both uses). */
function grow(
  image: InkImage,
  region: { box: PixelBox; core: PixelBox; ink: PixelBox },
  regions: readonly { box: PixelBox; ink: PixelBox }[],
  hint?: MapHint,
): Grown {
  // The line is measured inside the detector's kernel: the unclip margin may hold part of an icon.
  const { box, core, ink } = region;
  const h = ink.y1 - ink.y0;
  // `tightenToInk` leaves a pixel above the ink and two below it.
  const inkHeight = h - 2;
  if (ink === core || inkHeight < 4) return { box, ink: box, found: box };
  const crop = greyCrop(image, core, 3, 3);
  if (!crop) return { box, ink, found: ink };
  const threshold = Math.max(24, crop.maxDiff / 3);
  const reach = Math.ceil(h * (BAND_SLACK + GUARD));
  const band = { y0: ink.y0 - BAND_SLACK * h, y1: ink.y1 + BAND_SLACK * h };
  // Rows past the image's edge hold nothing to stop the line (a list's last row cut by the screen).
  const y0 = Math.max(0, Math.floor(ink.y0 - reach));
  const y1 = Math.min(image.height, Math.ceil(ink.y1 + reach));
  const grey = image.data;
  const rgb = "channels" in image;
  const lumaAt = (x: number, y: number): number => {
    const o = y * image.width + x;
    return rgb
      ? 0.299 * (grey[o * 3] ?? 0) + 0.587 * (grey[o * 3 + 1] ?? 0) + 0.114 * (grey[o * 3 + 2] ?? 0)
      : (grey[o] ?? 0);
  };
  // Above and below the band each row's background is what that row shows over the line itself (the
  // median across the kernel): a surface's edge running under the line (a bubble's, a bar's) is no ink
  // beside it. Inside the band, the region's background.
  const rowBg = new Float32Array(y1 - y0).fill(crop.bg);
  const cx0 = Math.max(0, Math.floor(core.x0));
  const cx1 = Math.min(image.width, Math.ceil(core.x1));
  // A typed array sorts numerically in place, without a comparator call per pair.
  const row = new Float64Array(Math.max(0, cx1 - cx0));
  for (let y = y0; y < y1; y++) {
    if (y >= band.y0 && y < band.y1) continue;
    for (let x = cx0; x < cx1; x++) row[x - cx0] = lumaAt(x, y);
    row.sort();
    rowBg[y - y0] = row[row.length >> 1] ?? crop.bg;
  }
  /** A column's strongest ink within the band (0: blank), or −1 when it has ink above or below it. */
  // A region whose own background is not what lies above and below it (an icon taken for text, its
  // border on its own ink) has no blank to walk over.
  const guardBg = Array.from(rowBg.filter((_, k) => y0 + k < band.y0 || y0 + k >= band.y1)).sort(
    (a, b) => a - b,
  );
  const aroundBg = guardBg[guardBg.length >> 1] ?? crop.bg;
  if (Math.abs(aroundBg - crop.bg) > threshold) return { box, ink, found: ink };
  // Beside the band, only ink as dark as the line's glyphs stops it: an icon, a picture, another line
  // (the contrast-normalised screen leaves a surface's edge fainter or stronger along its length).
  const guardThreshold = Math.max(threshold, PEAK_SHARE * crop.maxDiff);
  const column = (x: number): number => {
    let peak = 0;
    for (let y = y0; y < y1; y++) {
      const d = Math.abs(lumaAt(x, y) - (rowBg[y - y0] ?? crop.bg));
      if (d <= threshold) continue;
      if (y < band.y0 || y >= band.y1) {
        if (d > guardThreshold) return -1;
        continue;
      }
      peak = Math.max(peak, d);
    }
    return peak;
  };
  const em = inkHeight / TALLEST_REACH;
  const maxGap = SPLIT_GAP * em;
  const letterGap = LETTER_GAP * em;
  const wordGap = WORD_GAP * em;
  const mapGap = (SPLIT_GAP * em * TALLEST_REACH) / CAP_HEIGHT;
  const minPeak = PEAK_SHARE * crop.maxDiff;
  const firstRun = FIRST_RUN * em;
  /**
   * The farthest column of the line's ink from `from` (its last ink column) in direction `step`: runs of
   * ink, each as dark as the line's own, across blank gaps narrower than `maxGap`, the first of them no
   * wider than a letter gap; a run that meets ink above or below the band is not the line's.
   */
  // Another region the detector found on this line, its ink within the band and about as tall as the
  // line's (not a chevron beside an emoji): text, so the walk may reach it across a word space
  // (`Updated: 2 Hours` and `ago` found apart).
  const textAt = (x: number): boolean =>
    regions.some(({ box: r, ink: o }) => {
      if (r === box || x < r.x0 || x >= r.x1) return false;
      const oh = o.y1 - o.y0;
      return o.y0 >= band.y0 && o.y1 <= band.y1 && oh <= 1.4 * h && h <= 1.4 * oh;
    });
  // Ink past a word space that no region holds is the line's when the map marks text on it.
  const mapMarks = (a: number, b: number): boolean =>
    !!hint &&
    hint({ x0: Math.min(a, b), x1: Math.max(a, b) + 1, y0: ink.y0, y1: ink.y1, score: 0 }) >= MAP_PEAK;
  const walk = (from: number, step: 1 | -1): number => {
    /**
     * Gaps crossed on the map's word alone: the walk's end before each and the first ink past it. Each
     * holds only when the map marks text on the ink past it (anywhere to the walk's end: a small line's
     * map may fire on its last word only); the walk ends before the last gap that does not.
     */
    const crossings: { before: number; past: number }[] = [];
    const end = (k: number): number => {
      let at = k;
      for (let i = crossings.length - 1; i >= 0; i--) {
        const c = crossings[i] as { before: number; past: number };
        if (!mapMarks(c.past, at)) at = c.before;
      }
      return at;
    };
    let kept = from;
    let last = from;
    let peak = Number.POSITIVE_INFINITY;
    let gap = 0;
    let runs = 0;
    /** Where the first run of new ink began: at `from` when the region's own ink runs on past it. */
    let start = from;
    /**
     * Whether the first run has dipped below the line's ink after a glyph's stroke: blur joins the
     * letters of a word into one run of ink, but each gap between them stays a dip (`heckin` of `Last
     * Checkin` in a camera frame); an icon's or a bar's columns hold their ink.
     */
    let dipped = false;
    let strong = false;
    /** The run past the last gap crossed on the map's word (judged as a first run), or 0. */
    let crossRun = 0;
    const fresh = () => runs <= 1 || runs === crossRun;
    const firstTooWide = () => !dipped && fresh() && Math.abs(last - start) > firstRun;
    for (let x = from + step; x >= 0 && x < image.width; x += step) {
      const c = column(x);
      if (c < 0) return end(kept);
      if (c > 0) {
        if (gap > 0) {
          // Past the first gap, a gap wider than `SPLIT_GAP` by the ink's em is crossed only when the map
          // marks the ink beyond it as text (checked when the walk ends). The first gap stays the
          // detector's call: the map marks an icon beside a label's end too (`7 Open app`, `秘√`).
          const first = runs++ === 0;
          if (first) {
            if (gap <= wordGap && textAt(x)) dipped = true;
            else if (gap > letterGap) return end(kept);
            start = x;
          } else if (gap > maxGap) {
            // The ink past it is judged as a first run (a glyph or two up to a dip): not a bar or an icon.
            crossings.push({ before: kept, past: x });
            crossRun = runs;
            start = x;
            dipped = false;
            strong = false;
          }
          peak = 0;
        }
        peak = Math.max(peak, c);
        last = x;
        gap = 0;
        if (fresh() && c >= minPeak) strong = true;
        else if (fresh() && strong) dipped = true;
        if (firstTooWide()) return end(kept);
        continue;
      }
      if (gap === 0) {
        if (peak < minPeak) return end(kept);
        kept = last;
      }
      if (++gap > (hint ? mapGap : maxGap)) return end(kept);
    }
    return end(gap === 0 && peak >= minPeak ? last : kept);
  };
  // `tightenToInk` leaves a pixel of margin left and two right of the ink.
  const left = walk(Math.ceil(ink.x0) + 1, -1);
  const right = walk(Math.floor(ink.x1) - 2, 1);
  // Only ink past the region's edge counts: the region cut the line there. Ink the walk found inside
  // the region's own margin is already read.
  // One column past the edge is a glyph's anti-aliased fringe, no cut (and a changed crop reads
  // differently: `"icon" : {` read as `"icon"`).
  const x0 = left < box.x0 - PAST_EDGE ? left : undefined;
  const x1 = right + 1 > box.x1 + PAST_EDGE ? right + 1 : undefined;
  if (x0 === undefined && x1 === undefined) return { box, ink, found: ink };
  // The recogniser reads a glyph at the crop's very edge badly: a margin is kept beside the new ink.
  const margin = MARGIN * inkHeight;
  return {
    box: {
      ...box,
      x0: x0 === undefined ? box.x0 : Math.max(0, x0 - margin),
      x1: x1 === undefined ? box.x1 : Math.min(image.width, x1 + margin),
    },
    ink: { ...ink, x0: x0 ?? ink.x0, x1: x1 ?? ink.x1 },
    found: ink,
  };
}
