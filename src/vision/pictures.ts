import type { FracBox } from "../shared/box.js";
import type { RgbImage } from "../shared/image.js";
import { components, contentMask, pageColours } from "./photo-grid.js";
import type { Candidate } from "./row.js";
import { centreX, centreY, contains } from "./row.js";

/**
 * Pictures set into a screen — a photo, video or map snapshot in a message bubble, album art on a
 * player, an app's header artwork — found so that what OCR and the detector see *in* them (a map's
 * place names, a photo's shapes, lettering in artwork) is not listed as something to tap.
 *
 * How iOS lays them out: UIKit and SwiftUI draw controls and text on flat fills — the page colour, a
 * grouped cell, a bubble, a glass plate (HIG "Materials", "Color") — while a picture is an image view
 * of continuous tone: many colours, none covering most of it. An embedded picture is a rectangle (its
 * corners at most rounded) of non-page pixels at least ~100 × 50 pt, set inside the page's margins
 * (a full-width or full-screen picture — a map app, a camera, a wallpaper — carries the app's real
 * controls over it and is left alone). So: the components of non-page blocks (the page colour is the
 * screen's commonest, as `photo-grid.ts` finds it) that are that large, nearly fill their box, stop
 * short of one side of the screen, and whose commonest colour covers less than half of them with many
 * colours in the rest, are pictures.
 */

/** Points across the commonest iPhones; blocks are about 2 pt. */
const SCREEN_PT = 390;
const BLOCK_PT = 2;
/** A picture is at least this big, in points (smaller images are app icons, avatars, thumbnails). */
const MIN_W_PT = 100;
const MIN_H_PT = 50;
/** Share of its box a picture covers (rounded corners leave ~5%). */
const MIN_FILL = 0.9;
/** A picture stops this far (fraction of the width) short of at least one side. */
const INSET = 0.02;
/** The picture's commonest colour (4 bits a channel) covers less than this share of it … */
const MAX_TOP = 0.5;
/** … and at least this many colours cover 1% of it or more: a flat fill with text has two or three. */
const MIN_COLOURS = 6;
/**
 * A block row is flat when one colour runs across half the picture's width in it; UI plates (cards,
 * alerts, widgets) have flat bands between their lines and around their buttons, so a picture has flat
 * rows in at most this share of its height.
 */
const MAX_FLAT_ROWS = 0.1;
/** Pixels of one fill differ by at most this per channel (a camera frame's noise and shading). */
const FILL_TOL = 12;

/**
 * `rows` with each picture listed once: text and icon rows centred on it are its content and go; when
 * the detector saw something on it (an icon row), the picture itself may be a target (tapping a photo
 * opens it) and stays as one `icon` row over the whole picture.
 */
export function listPictures(screen: RgbImage, rows: readonly Candidate[]): Candidate[] {
  const pictures = findPictures(screen);
  if (pictures.length === 0) return [...rows];
  const out: Candidate[] = [];
  const seen = new Map<FracBox, Candidate[]>(pictures.map((p) => [p, []]));
  for (const r of rows) {
    const p =
      r.kind === "text" || r.kind === "icon"
        ? pictures.find((b) => contains(b, centreX(r.box), centreY(r.box)))
        : undefined;
    if (p) seen.get(p)?.push(r);
    else out.push(r);
  }
  for (const [box, on] of seen) {
    const icons = on.filter((r) => r.kind === "icon");
    if (icons.length > 0)
      out.push({ kind: "icon", label: "", box, conf: Math.max(...icons.map((r) => r.conf)) });
  }
  return out;
}

/** The pictures on `screen` (see the module comment), as screen fractions. */
export function findPictures(screen: RgbImage): FracBox[] {
  const page = pageColours(screen)[0];
  if (!page) return [];
  const pt = screen.width / SCREEN_PT;
  const f = Math.max(1, Math.round(BLOCK_PT * pt));
  const mask = contentMask(screen, page, f);
  const w = Math.floor(screen.width / f);
  const h = Math.floor(screen.height / f);
  const out: FracBox[] = [];
  for (const c of components(mask, w, h)) {
    const cw = c.x1 - c.x0;
    const ch = c.y1 - c.y0;
    if (cw * f < MIN_W_PT * pt || ch * f < MIN_H_PT * pt || c.n < MIN_FILL * cw * ch) continue;
    if (c.x0 < INSET * w && c.x1 > (1 - INSET) * w) continue;
    if (!manyColours(screen, mask, w, f, c)) continue;
    out.push([c.x0 / w, c.y0 / h, c.x1 / w, c.y1 / h]);
  }
  return out;
}

/** Whether the content blocks in `c`'s box are of continuous tone: no colour dominant, many present. */
function manyColours(
  screen: RgbImage,
  mask: Uint8Array,
  w: number,
  f: number,
  c: { x0: number; y0: number; x1: number; y1: number },
): boolean {
  const { width: W, data } = screen;
  const n = new Map<number, number>();
  let total = 0;
  let flatRows = 0;
  for (let y = c.y0; y < c.y1; y++) {
    let run = 0;
    let longest = 0;
    let start = -1;
    for (let x = c.x0; x < c.x1; x++) {
      const o = (y * f * W + x * f) * 3;
      // A run is one fill within camera noise of where it started.
      const same =
        start >= 0 &&
        Math.abs((data[o] as number) - (data[start] as number)) <= FILL_TOL &&
        Math.abs((data[o + 1] as number) - (data[start + 1] as number)) <= FILL_TOL &&
        Math.abs((data[o + 2] as number) - (data[start + 2] as number)) <= FILL_TOL;
      if (same) run++;
      else {
        run = 1;
        start = o;
      }
      longest = Math.max(longest, run);
      if (!mask[y * w + x]) continue;
      const key =
        (((data[o] as number) >> 4) << 8) |
        (((data[o + 1] as number) >> 4) << 4) |
        ((data[o + 2] as number) >> 4);
      n.set(key, (n.get(key) ?? 0) + 1);
      total++;
    }
    if (longest >= 0.5 * (c.x1 - c.x0)) flatRows++;
  }
  if (total === 0 || flatRows > MAX_FLAT_ROWS * (c.y1 - c.y0)) return false;
  const shares = [...n.values()].map((v) => v / total);
  return Math.max(...shares) < MAX_TOP && shares.filter((s) => s >= 0.01).length >= MIN_COLOURS;
}
