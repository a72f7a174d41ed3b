import type { Candidate } from "./row.js";
import { boxHeight, centreX, centreY } from "./row.js";

/**
 * Wallpaper glyphs on the Lock Screen. Up to iOS 15 the Lock Screen shows, from the top: the large clock
 * centred under the status bar with the date under it, then the notifications (each a card of text: app
 * name, title, body) and the Now Playing platter (title, artist, controls), and at the bottom corners the
 * flashlight and camera buttons (Apple, "Use and customize Control Center…", "Lock Screen" in the iPhone
 * User Guide). Everything else is the wallpaper, which takes no taps. So an icon row between the date and
 * the bottom buttons' band with no text within 40 pt above or below it (a notification's or platter's
 * glyphs sit beside their text) is a shape in the wallpaper — a photo's cloud, a planet's coastline.
 *
 * The Lock Screen is told by its clock: a text row reading a time (`9:41`) at least 40 pt tall (the
 * clock is set at ~80 pt; status-bar and list times are 12–17 pt), centred, in the top third.
 */

/** Points across a portrait iPhone screen. */
const SCREEN_PT = 390;
/** The clock's least row height in points, and its greatest distance from the centre line. */
const CLOCK_MIN_PT = 40;
const CLOCK_OFF_CENTRE = 0.06;
/** The flashlight and camera buttons' band: the bottom 15% of the screen. */
const BOTTOM_BAND = 0.85;
/** A notification's or platter's glyphs lie within this many points of one of its text lines. */
const NEAR_TEXT_PT = 40;
const TIME = /^\d{1,2}:\d{2}$/;

/** Icon rows on a Lock Screen's wallpaper (module comment); `aspect` is the screen's height / width. */
export function lockScreenWallpaper(rows: readonly Candidate[], aspect: number): Set<Candidate> {
  const out = new Set<Candidate>();
  const pt = (h: number): number => h * aspect * SCREEN_PT;
  const clock = rows.find(
    (r) =>
      r.kind === "text" &&
      TIME.test(r.label.trim()) &&
      pt(boxHeight(r.box)) >= CLOCK_MIN_PT &&
      Math.abs(centreX(r.box) - 0.5) <= CLOCK_OFF_CENTRE &&
      centreY(r.box) < 1 / 3,
  );
  if (!clock) return out;
  const near = NEAR_TEXT_PT / SCREEN_PT / aspect;
  const texts = rows.filter((r) => r.kind === "text" && r !== clock);
  for (const r of rows) {
    if (r.kind !== "icon") continue;
    const y = centreY(r.box);
    if (y <= clock.box[3] || y >= BOTTOM_BAND) continue;
    if (!texts.some((t) => t.box[1] < r.box[3] + near && t.box[3] > r.box[1] - near)) out.add(r);
  }
  return out;
}
