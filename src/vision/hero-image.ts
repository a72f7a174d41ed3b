import type { Candidate } from "./row.js";
import { boxHeight, boxWidth, centreX, centreY } from "./row.js";

/**
 * The image at the head of a centred stack: a symbol or picture centred on the screen with a title
 * centred right under it and a second centred line under the title.
 *
 * iOS draws this stack for an empty or unavailable state (SwiftUI `ContentUnavailableView`, UIKit
 * `UIContentUnavailableConfiguration`, iOS 17: an image, text and secondary text, centred and stacked,
 * and apps' own empty states drawn the same way), a system prompt's header (Touch ID's
 * fingerprint over the app's name and "Touch ID") and a call screen's caller (symbol or photo over the
 * name and "Incoming Call"). The image is decoration: the state's actions are buttons below the text,
 * never the image. A button with a caption has one short line under it, no wider than the button
 * (call screens' "Mute", a home-screen app's name), so it never heads such a stack.
 *
 * The caller's photo or placeholder with the name under it can be named as an app (`named-icons.ts`:
 * an image with one short line under it). An app's name is one line under its tile, with the next row of
 * tiles (or nothing) under it and its neighbours in a grid or dock row beside it; a caller stands alone on
 * its line, centred, with a status line ("Connected", "Incoming Call", the call's duration) centred
 * under the name. Such an "app" is the stack's image: its name is listed as text, the image dropped.
 */

/** Centred: the box's centre within this fraction of the width of the screen's middle. */
const CENTRED = 0.02;
/** A symbol or photo is compact: at most this many times wider than tall (in pixels) … */
const COMPACT = 1.5;
/**
 * … and a header, not the page's content: at most this fraction of the width (~160 pt; a call screen's
 * caller photo is ~100 pt, an empty state's symbol ~50 pt). A picture filling the page is content.
 */
const MAX_WIDTH = 0.4;
/** The title starts within one image height under the image … */
const TITLE_GAP = 1;
/** … and is at least this fraction of the image's width (a name, a sentence; not a caption). */
const TITLE_WIDTH = 0.9;
/** The second line starts within this many title heights under the title. */
const LINE_GAP = 2;

/**
 * The icon rows of `rows` that head a centred image–title–line stack (see the module comment);
 * `aspect` is the screen's height / width.
 */
export function heroImages(rows: readonly Candidate[], aspect: number): Set<Candidate> {
  const centred = (r: Candidate): boolean => Math.abs(centreX(r.box) - 0.5) < CENTRED;
  const text = rows.filter((r) => r.kind === "text" && centred(r));
  const out = new Set<Candidate>();
  for (const r of rows) {
    if (r.kind !== "icon" || !centred(r)) continue;
    const h = boxHeight(r.box);
    if (boxWidth(r.box) > Math.min(MAX_WIDTH, COMPACT * h * aspect)) continue;
    const under = (a: Candidate["box"], b: Candidate["box"], gap: number): boolean =>
      b[1] >= a[3] - 0.005 && b[1] <= a[3] + gap;
    // The title is the first line under the image: no other text row between them.
    const title = rows
      .filter((t) => t.kind === "text" && under(r.box, t.box, TITLE_GAP * h))
      .sort((a, b) => a.box[1] - b.box[1])[0];
    const headed =
      title !== undefined &&
      centred(title) &&
      boxWidth(title.box) >= TITLE_WIDTH * boxWidth(r.box) &&
      text.some((s) => s !== title && under(title.box, s.box, LINE_GAP * boxHeight(title.box)));
    if (headed) out.add(r);
  }
  return out;
}

/**
 * App rows of `rows` that head a centred caller stack (see the module comment), each with the text row of
 * its name that replaces it; `aspect` is the screen's height / width.
 */
export function heroApps(rows: readonly Candidate[], aspect: number): Map<Candidate, Candidate> {
  const centred = (b: Candidate["box"]): boolean => Math.abs(centreX(b) - 0.5) < CENTRED;
  const out = new Map<Candidate, Candidate>();
  for (const r of rows) {
    const name = r.labelBox;
    if (r.kind !== "app" || !name || !centred(r.box) || !centred(name)) continue;
    const h = boxHeight(r.box);
    if (boxWidth(r.box) > Math.min(MAX_WIDTH, COMPACT * h * aspect)) continue;
    // Alone on its line: no other tile or glyph beside it (a grid's or dock's neighbours).
    const beside = rows.some(
      (o) =>
        o !== r &&
        o.kind !== "text" &&
        o.kind !== "status" &&
        centreY(o.box) > r.box[1] &&
        centreY(o.box) < r.box[3],
    );
    const nameH = boxHeight(name);
    const status = rows.some(
      (t) =>
        t.kind === "text" &&
        centred(t.box) &&
        t.box[1] >= name[3] - 0.005 &&
        t.box[1] <= name[3] + LINE_GAP * nameH,
    );
    if (!beside && status) out.set(r, { kind: "text", label: r.label, box: name, conf: r.conf });
  }
  return out;
}
