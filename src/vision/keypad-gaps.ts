import type { Candidate } from "./row.js";
import { boxHeight, centreX, centreY } from "./row.js";

/**
 * Icon rows between two keys of a keypad.
 *
 * A keyboard or keypad is a grid of keys with nothing else on it: the system keyboard's keys, the
 * passcode and Phone keypads (`UIKeyboardType`, HIG "Virtual keyboards"; Phone's and the passcode
 * screen's 3 × 4 pads) tile their rows key by key — every point of a key row belongs to one key, and
 * between two neighbouring caps lies only the gutter or separator line between them. Once a keypad is
 * recognised and listed key by key (`keyboard.ts`, `dial-pad.ts`), an icon row whose centre lies on a
 * key row's line, between two neighbouring keys, points at no key of its own: the detector boxed the
 * gutter (a camera's blur makes the separator and the caps' edges a shape), and a tap at its centre
 * would land on the gutter or on a key already listed.
 */

/**
 * Two keys of a line are neighbours when the gap between them is at most this many times the pad's
 * narrowest gap between two keys (plus `SLACK`): one pad's gutters are one width, and a key the listing
 * missed leaves a gap a whole key wider, where an icon row may be the only row on that key.
 */
const NEIGHBOURS = 1.5;
/** Fraction of the width (~4 pt): gutters measured between boxes that hug the caps' glyphs vary this much. */
const SLACK = 0.01;
/** Keys of one pad differ in height by less than this share. */
const SAME_HEIGHT = 0.25;

/** The icon rows of `rows` between two neighbouring key rows on one line (see the module comment). */
export function iconsBetweenKeys(rows: readonly Candidate[]): Set<Candidate> {
  const keys = rows.filter((r) => r.kind === "key");
  const out = new Set<Candidate>();
  const gaps: number[] = [];
  for (const k of keys) {
    const next = rightNeighbour(k, keys, centreY(k.box));
    if (next) gaps.push(next.box[0] - k.box[2]);
  }
  if (gaps.length === 0) return out;
  const narrowest = Math.max(0, Math.min(...gaps));
  for (const r of rows) {
    if (r.kind !== "icon") continue;
    const cx = centreX(r.box);
    const cy = centreY(r.box);
    const line = keys.filter((k) => cy >= k.box[1] && cy <= k.box[3] && k.box[2] <= cx);
    const left = line.sort((a, b) => b.box[2] - a.box[2])[0];
    if (!left) continue;
    const right = rightNeighbour(left, keys, cy);
    if (!right || right.box[0] < cx) continue;
    if (right.box[0] - left.box[2] <= NEIGHBOURS * narrowest + SLACK) out.add(r);
  }
  return out;
}

/** The nearest key right of `k` on the line at `y`, of the same height (one pad's row). */
function rightNeighbour(k: Candidate, keys: readonly Candidate[], y: number): Candidate | undefined {
  let best: Candidate | undefined;
  for (const o of keys) {
    if (o === k || o.box[0] < k.box[2] || y < o.box[1] || y > o.box[3]) continue;
    if (Math.abs(boxHeight(o.box) - boxHeight(k.box)) >= SAME_HEIGHT * boxHeight(k.box)) continue;
    if (!best || o.box[0] < best.box[0]) best = o;
  }
  return best;
}
