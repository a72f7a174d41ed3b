import type { RgbImage } from "../shared/image.js";
import { repeatedBlankDiscs } from "./blank-discs.js";
import { heroApps, heroImages } from "./hero-image.js";
import { wallpaperAboveDock } from "./home-wallpaper.js";
import { iconsOnText } from "./icon-on-text.js";
import { inkContrast, middleOf } from "./ink-spread.js";
import { findInsetCard } from "./inset-card.js";
import { textBehindMaterial, trimSeenThrough } from "./materials.js";
import { findModal, type Modal } from "./modal.js";
import { drawerEdge, findMenuCard, textBesideDrawer } from "./overlays.js";
import { passcodeDots } from "./passcode-dots.js";
import { listPictures } from "./pictures.js";
import type { Candidate } from "./row.js";
import { boxHeight, boxWidth, centreX, centreY, contains } from "./row.js";
import { behindSheet, findSheet } from "./sheet.js";
import { inkSlivers } from "./slivers.js";
import { isWideIcon } from "./wide-icons.js";

/**
 * Rows that point at no target, cut by general rules about what iOS draws (the real-screen evaluation's
 * "spurious rows", `src/lab/real/evaluate.ts`):
 *
 * - **Wide "icons".** An icon is a compact glyph (SF Symbols and app icons are drawn in square frames;
 *   HIG "Icons"), so an icon row wider than half the screen and at least three times wider than tall is
 *   the detector boxing a whole table row, banner or card. When a named row (text, switch, app…) sits
 *   inside it, that row is the target and the wide box only lists the space around it: it goes. So does
 *   one at least a table row tall (44 pt, HIG "Layout"; a tenth of a 440 pt width) with nothing named
 *   in it: a card, banner or blank band, never a control of its own — the wide controls (a slider's
 *   track, a segmented control, a progress bar; ≤ 32 pt tall, HIG "Sliders", "Segmented controls")
 *   are thinner and keep their rows.
 * - **Blank boxes.** An icon row has ink: a glyph or an image. A box wider than any glyph button (44 pt
 *   hit target of a 375–430 pt screen, HIG "Buttons", is ≤ 0.12 of the width) with no ink in it at all
 *   is the detector boxing empty background (a blank row, a separator band).
 * - **The leading image of a switch row.** A table cell with a switch (Settings, app lists) is not
 *   selectable itself — its switch is its control (HIG "Toggles"; UIKit cells with an `accessoryView`
 *   switch use `selectionStyle = .none`) — and the image before its title is the cell's `imageView`,
 *   decoration. An icon row on a switch's row, right before a text row (the title), goes.
 * - **Text seen through a bar.** Content scrolled under a navigation bar, toolbar or tab bar is blurred
 *   or faded by the bar's material; a text row read there is a fragment, not a target (`materials.ts`).
 * - **Behind a modal card.** While an alert or action sheet (`modal.ts`), a popup menu (`overlays.ts`) or
 *   a page sheet over a dimmed page (`sheet.ts`; controls above it, below the status bar) or a card
 *   inset from both sides over a visible page (`inset-card.ts`; its strips' slivers too) is up,
 *   controls outside its card are inert, and a text line running under its side is a fragment;
 *   a lone one-character text row outside it is a glyph of an inert control read as a letter (`8`, `x`);
 *   inside an alert, text or an icon neither centred nor at its leading inset is content drawn in it (a map's names).
 * - **Text half under a bar.** A line joining a bar's sharp title to content seen through the bar keeps
 *   only its sharp words (`trimSeenThrough`, `materials.ts`).
 * - **The image over a centred title.** An empty state's symbol, a prompt's or a call screen's header
 *   image heads a centred stack of title and line; it is decoration, not a button (`hero-image.ts`).
 * - **Boxes around text, tiles cut by the edge.** An icon row whose only ink is a line OCR read, and an
 *   app tile whose name runs into the screen's side (`icon-on-text.ts`).
 * - **Plain discs repeated in one colour.** A brand mark's dots, not buttons (`blank-discs.ts`).
 * - **Solid bars a few points wide.** A sliver of a picture peeking out from behind a button or card,
 *   a caret, a scroll indicator — no symbol is that thin and unbroken (`slivers.ts`).
 * - **Beside a drawer.** The dimmed strip of the main view beside an open side drawer holds only cut
 *   text (`overlays.ts`).
 */

/** Row kinds that are controls, inert behind a modal alert or action sheet (`modal.ts`). */
const BEHIND_MODAL = new Set(["icon", "button", "switch"]);
/** The status bar ends by this fraction of the height (it is drawn over any modal and stays live). */
const STATUS_END = 0.065;
/** A text row ending within this fraction of the width (~4 pt) of the modal card's side runs under it. */
const CARD_CUT = 0.01;
/** An alert's centred text has its centre within this fraction of the width of the card's middle … */
const CONTENT_CENTRED = 0.03;
/**
 * … its leading text starts within this fraction of the card's width of its left side: 40 pt of UIKit's
 * 270 pt alert (the location prompt's "Precise: On" pill, ~33 pt in, after its arrow).
 */
const CONTENT_INSET = 40 / 270;
/** A wide icon (`wide-icons.ts`) at least this tall (fraction of the width: 44 pt of ≤ 440 pt) is a card or band, not a control. */
const ROW_TALL = 0.1;
/** A blank box is at least this wide (fraction of the screen): wider than a 44 pt glyph button. */
const BLANK_WIDTH = 0.15;
/**
 * … and its luma spreads less than this (levels, 3rd to 97th percentile): below JPEG noise on a flat
 * fill; iOS's faintest ink, `quaternaryLabel` (18% opacity, UIKit `UIColor`), spreads ~35 levels.
 */
const BLANK_CONTRAST = 4;
/** A cell's title starts within this fraction of the screen width after its image (HIG: ~16 pt gap). */
const TITLE_GAP = 0.08;

/**
 * `rows` without the spurious ones; `aspect` is the screen's height / width; `screen`, when given, lets
 * the rule that reads pixels (blank boxes) run.
 */
export function dropSpuriousRows(
  input: readonly Candidate[],
  aspect: number,
  screen?: RgbImage,
): Candidate[] {
  const seen = screen ? trimSeenThrough(screen, listPictures(screen, input)) : input;
  const callers = heroApps(seen, aspect);
  const rows = callers.size > 0 ? seen.map((r) => callers.get(r) ?? r) : seen;
  const modal = screen ? findModal(screen, rows) : undefined;
  const card = modal?.card ?? (screen ? findMenuCard(screen, rows) : undefined);
  const sheet = screen && !card ? findSheet(screen) : undefined;
  const inset = screen && !card && !sheet ? findInsetCard(screen, rows) : undefined;
  const dots = passcodeDots(rows);
  const wallpaper = wallpaperAboveDock(rows, aspect);
  const material = screen ? textBehindMaterial(screen, rows) : new Set<Candidate>();
  const drawer = screen ? textBesideDrawer(rows, drawerEdge(screen)) : new Set<Candidate>();
  const hero = heroImages(rows, aspect);
  const onText = screen ? iconsOnText(screen, rows) : new Set<Candidate>();
  const ornament = screen ? repeatedBlankDiscs(screen, rows) : new Set<Candidate>();
  const slivers = screen ? inkSlivers(screen, rows) : new Set<Candidate>();
  return rows.filter((r) => {
    if (dots.has(r) || wallpaper.has(r) || material.has(r) || drawer.has(r) || hero.has(r)) return false;
    if (onText.has(r) || ornament.has(r) || slivers.has(r)) return false;
    if (card && BEHIND_MODAL.has(r.kind) && !contains(card, centreX(r.box), centreY(r.box))) return false;
    if (sheet && BEHIND_MODAL.has(r.kind) && behindSheet(r.box, sheet)) return false;
    if (inset && centreY(r.box) > STATUS_END && outsideInsetCard(r, rows, inset)) return false;
    if (card && r.kind === "text" && cutByCard(r.box, card)) return false;
    if (modal && (r.kind === "text" || r.kind === "icon") && accessoryText(r.box, modal)) return false;
    if (card && !contains(card, centreX(r.box), centreY(r.box)) && isGlyphRead(r, rows)) return false;
    if (isGlyphRead(r, rows) && leadsSwitchRow(r, rows)) return false;
    if (r.kind !== "icon") return true;
    if (leadsSwitchRow(r, rows)) return false;
    if (screen && boxWidth(r.box) >= BLANK_WIDTH && isBlank(screen, r.box)) return false;
    if (!isWideIcon(r, aspect)) return true;
    if (boxHeight(r.box) * aspect >= ROW_TALL) return false;
    return !rows.some((o) => o !== r && o.kind !== "icon" && contains(r.box, centreX(o.box), centreY(o.box)));
  });
}

/**
 * Whether `r` is a text row of one character, not a CJK ideograph, standing alone: what the OCR reads off
 * a glyph (a toggle symbol as `8`, a ✕ as `x`, a play tile as `0`). A lone Latin letter or digit is
 * text only as a key, a date or a picker value, and those come in grids (a keypad's rows and columns,
 * a calendar's weeks; HIG "Pickers", "Keyboards") — so a one-character row with another one-character
 * row on its line or its column is kept.
 */
function isGlyphRead(r: Candidate, rows: readonly Candidate[]): boolean {
  if (!isOneChar(r)) return false;
  const h = boxHeight(r.box);
  const w = boxWidth(r.box);
  return !rows.some(
    (o) =>
      o !== r &&
      isOneChar(o) &&
      (Math.abs(centreY(o.box) - centreY(r.box)) < h / 2 ||
        Math.abs(centreX(o.box) - centreX(r.box)) < w / 2),
  );
}

function isOneChar(r: Candidate): boolean {
  const chars = [...r.label.trim()];
  return r.kind === "text" && chars.length === 1 && !/\p{Script=Han}/u.test(chars[0] ?? "");
}

/**
 * Whether a text row lies in an alert's content area (inside the card, above its button stack) off the
 * two places UIKit sets text there: centred (`UIAlertController`'s title and message) or at the card's
 * leading inset (its text fields; the location prompt's "Precise: On" pill). Anything else is drawn
 * by content in the card — the place names of the location prompt's map (iOS 14 "Precise Location").
 */
function accessoryText(box: Candidate["box"], modal: Modal): boolean {
  const { card, stackTop } = modal;
  if (!contains(card, centreX(box), centreY(box)) || centreY(box) >= stackTop) return false;
  return (
    Math.abs(centreX(box) - centreX(card)) >= CONTENT_CENTRED &&
    box[0] - card[0] > CONTENT_INSET * (card[2] - card[0])
  );
}

/**
 * Whether a text row outside the modal card (its centre) runs into or under its side edge: a line of
 * the dimmed screen cut by the card, so only a fragment of it is read (`Get`, `SL…`).
 */
function cutByCard(box: Candidate["box"], card: Candidate["box"]): boolean {
  if (contains(card, centreX(box), centreY(box))) return false;
  if (centreY(box) < card[1] || centreY(box) > card[3]) return false;
  // The line ends at the card's side or runs on under it (the card hides the rest of it).
  return (
    (box[0] < card[0] && box[2] > card[0] - CARD_CUT) || (box[2] > card[2] && box[0] < card[2] + CARD_CUT)
  );
}

/**
 * Whether row `r` (its centre under the status bar) is on the inert page around an inset card
 * (`inset-card.ts`): a control outside the card, a text line cut by its side or lying in the strip
 * beside it (a hidden row's first letters), or a glyph read as one letter outside it. Text on the page
 * above the card is readable and stays.
 */
function outsideInsetCard(r: Candidate, rows: readonly Candidate[], card: Candidate["box"]): boolean {
  if (contains(card, centreX(r.box), centreY(r.box))) return false;
  if (BEHIND_MODAL.has(r.kind)) return true;
  if (r.kind !== "text") return false;
  const beside =
    centreY(r.box) > card[1] && (r.box[2] <= card[0] + CARD_CUT || r.box[0] >= card[2] - CARD_CUT);
  return beside || cutByCard(r.box, card) || isGlyphRead(r, rows);
}

/** Whether icon row `r` is the leading image of a switch row (see the module comment). */
function leadsSwitchRow(r: Candidate, rows: readonly Candidate[]): boolean {
  const cy = centreY(r.box);
  const onSwitchRow = rows.some(
    (o) =>
      o.kind === "switch" && o.box[0] > r.box[2] && Math.abs(centreY(o.box) - cy) < 0.5 * boxHeight(o.box),
  );
  return (
    onSwitchRow &&
    rows.some(
      (o) =>
        o.kind === "text" &&
        o.box[0] >= r.box[2] - 0.01 &&
        o.box[0] < r.box[2] + TITLE_GAP &&
        Math.abs(centreY(o.box) - cy) < 0.5 * boxHeight(r.box),
    )
  );
}

/** Whether `box` holds no ink: flat over the whole box and over its middle (`middleOf`). */
function isBlank(screen: RgbImage, box: Candidate["box"]): boolean {
  return inkContrast(screen, box) < BLANK_CONTRAST && inkContrast(screen, middleOf(box)) < BLANK_CONTRAST;
}
