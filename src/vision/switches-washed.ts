import { sitsOnCell } from "./switches-disabled.js";
import { cell, diff, type Grid } from "./switches-grid.js";

/**
 * Light off switches whose contrast a camera washed out. An enabled off `UISwitch` in light mode is a
 * #E9E9EA track (`secondarySystemFill` over a white cell, iOS 13+) under a white knob: 22 levels under
 * the cell on a screenshot. Filmed, the lens's flare and the sensor's range squeeze light greys
 * together, and when the frame also holds a dark region (the black strip above an iOS 13+ page sheet,
 * a dark header or photo) the rectifier's contrast stretch has nothing to stretch: the track reads
 * only 12–25 levels under a cell of ~235, as close to the white as a knob's blurred rim, and the
 * ordinary scan (`switches.ts`) loses it.
 *
 * The disabled-switch pass already scans the grid with the cell's contrast doubled about the
 * background B (s = 2c − B, `switches-disabled.ts`), which brings such a track back to 30–60 levels
 * under the cell. A find there whose knob is as white as the cell and whose track undims far darker
 * than UIKit's #E9E9EA is not a dimmed switch (that one undims to #E9E9EA) but an enabled off switch
 * seen with squeezed contrast: listed enabled. All the scan's shape checks (capsule, rounded end, a
 * round knob bounded inside the track, flat surroundings) have run on the doubled grid.
 */

/** The cell is light: every channel at least this (a filmed white cell reads 220–245). */
const LIGHT_CELL = 200;
/** An enabled knob is the cell's white: within this of B (largest channel difference). */
const KNOB_AS_CELL = 12;
/**
 * The track in the frame lies this many levels (mean of channels) under the cell: from a washed-out
 * #E9E9EA (12–25 filmed) up to what an unwashed one reads (22 on a screenshot, ~40 after a contrast
 * stretch). Under 8 is no track at all (noise, a faint shadow); over 50 is a darker control, which the
 * ordinary scan reads.
 */
const TRACK_UNDER = { min: 8, max: 50 };
/** The track is neutral grey: channels within this of each other (a tinted capsule is a button). */
const NEUTRAL = 14;
/** A dimmed off track undims to #E9E9EA (233): an enabled one undims darker than this. */
const DIMMED_TRACK_MIN = 215;

/**
 * Whether a switch found on the grid undimmed over `bg` (box `[x0, y0, x1, y1)` in cells of `g`, track
 * colour `undimmedTrack` as read there) is an enabled light off switch whose contrast was squeezed.
 */
export function washedOffSwitch(
  g: Grid,
  box: readonly [number, number, number, number],
  on: boolean,
  bg: readonly [number, number, number],
  undimmedTrack?: readonly number[],
): boolean {
  if (on || !undimmedTrack || Math.min(...bg) < LIGHT_CELL) return false;
  const [x0, y0, x1, y1] = box;
  const h = y1 - y0;
  const ky = Math.floor((y0 + y1) / 2);
  if (!sitsOnCell(g, box, bg)) return false;
  // Off: the knob at the left end, the long track to its right.
  const knob = cell(g, Math.min(g.w - 1, Math.round(x0 + h / 2)), ky);
  if (diff(knob, bg) > KNOB_AS_CELL) return false;
  const lo = Math.min(...undimmedTrack);
  if (Math.max(...undimmedTrack) - lo > NEUTRAL) return false;
  if (Math.max(...undimmedTrack) >= DIMMED_TRACK_MIN) return false;
  // The track as filmed: (s + B) / 2, measured in the frame at three quarters of the box.
  const track = cell(g, Math.min(g.w - 1, Math.round(x0 + 0.75 * (x1 - x0))), ky);
  const under = (bg[0] + bg[1] + bg[2] - (track[0] + track[1] + track[2])) / 3;
  return under >= TRACK_UNDER.min && under <= TRACK_UNDER.max;
}
