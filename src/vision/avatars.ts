import type { RgbImage } from "../shared/image.js";
import { colourCount } from "./ink-spread.js";
import type { Candidate } from "./row.js";
import { boxHeight, boxWidth, centreX } from "./row.js";

/**
 * Senders' avatars down the leading edge of a conversation. Group chats draw each incoming message's
 * sender as a small round photo (Messages: ~28 pt; JSQMessagesViewController and MessageKit: 30 pt by
 * default, `avatarSize`) at the leading layout margin, one per message group, so they stack in one
 * column down the thread. They are pictures of people, not controls the labelling counts (the thread's
 * targets are its bubbles' links and buttons and the input bar).
 *
 * A leading column of glyphs is different: checkmarks, delete and selection circles, table cells'
 * symbols are template images in one tint (UIKit `UIImage.RenderingMode.alwaysTemplate`, SF Symbols)
 * and fill a few colours; a photo fills many. Home-screen and dock tiles in the first column are too
 * large (60 pt and more, HIG "App icons") to be taken for an avatar.
 */

/** An avatar starts within this fraction of the width of the screen's leading side (20 pt margin of 375 pt). */
const LEADING = 0.06;
/** … is at most this fraction of the width (~40 pt) … */
const MAX_WIDTH = 0.1;
/** … and roughly square (width / height in pixels; a disc, boxed loosely by the detector). */
const SQUARE = [2 / 3, 1.5] as const;
/** Two avatars are in one column when their centres are this close (fraction of the width, ~8 pt). */
const COLUMN = 0.02;
/** A photo fills at least this many colours (`colourCount`); a tinted glyph on its fill a handful. */
const PHOTO_COLOURS = 10;

/** The icon rows of `rows` that are a chat's column of avatars (see the module comment). */
export function chatAvatars(screen: RgbImage, rows: readonly Candidate[]): Set<Candidate> {
  const aspect = screen.height / Math.max(1, screen.width);
  const candidates = rows.filter((r) => {
    if (r.kind !== "icon" || r.box[0] > LEADING || boxWidth(r.box) > MAX_WIDTH) return false;
    const ratio = boxWidth(r.box) / Math.max(1e-6, boxHeight(r.box) * aspect);
    return ratio >= SQUARE[0] && ratio <= SQUARE[1];
  });
  const photos = candidates.filter((r) => colourCount(screen, r.box) >= PHOTO_COLOURS);
  const out = new Set<Candidate>();
  for (const r of photos)
    if (photos.some((o) => o !== r && Math.abs(centreX(o.box) - centreX(r.box)) < COLUMN)) out.add(r);
  return out;
}
