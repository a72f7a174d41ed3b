import type { Candidate } from "./row.js";
import { boxHeight, centreX, centreY } from "./row.js";

/**
 * The status bar as one row. Its glyphs (signal, Wi-Fi, battery, the time) are not targets an agent
 * acts on, yet the detector lists each glyph as an icon; they become one `[status] "9:41"` row across
 * the top of the screen. Found from the time: a clock reading in the top 6% of the screen (iOS status
 * bars are 20–54 pt of a 568–932 pt tall screen, so the time's centre sits above that line on every
 * iPhone). The lock screen's large clock sits lower and is left alone.
 *
 * One thing in the bar is a target: the "back to app" breadcrumb (`◀ Safari`), which iOS 14+ draws on
 * iPhones with a notch or Dynamic Island in smaller type right under the time, on the leading side (the
 * time then sits left of the notch). A text line there — not a clock, its top at or below the time's
 * bottom, its centre in the bar's leading half — is kept as a `[button]` named by the app (the ◀ glyph
 * dropped). On older iPhones the breadcrumb replaces the carrier on the time's line; that one is not
 * told apart from a carrier name and stays in the status row.
 */

/** `9:41`, `12:05`, `上午9:41` (Chinese UI puts 上午/下午 before the time). */
const CLOCK = /\d{1,2}[:：]\d{2}/;
/** The time's centre must lie above this fraction of the screen height. */
const STATUS_TIME_MAX_Y = 0.06;
/** The status bar never reaches lower than this (54 pt of a 844 pt screen, with margin). */
const STATUS_MAX_BOTTOM = 0.075;

export function mergeStatusBar(rows: readonly Candidate[]): Candidate[] {
  const time = rows.find(
    (r) => r.kind === "text" && centreY(r.box) < STATUS_TIME_MAX_Y && CLOCK.test(r.label),
  );
  if (!time) return [...rows];
  const h = boxHeight(time.box);
  const bottom = Math.min(STATUS_MAX_BOTTOM, time.box[3] + h);
  // The time on the leading side: a notch / Dynamic Island layout (older iPhones centre it).
  const notched = centreX(time.box) < 0.4;
  const breadcrumb = (r: Candidate): boolean =>
    notched &&
    r.kind === "text" &&
    !CLOCK.test(r.label) &&
    r.box[1] >= time.box[3] - 0.25 * h &&
    centreY(r.box) < bottom &&
    centreX(r.box) < 0.5;
  const inBar = (r: Candidate): boolean =>
    (r.kind === "text" || r.kind === "icon") &&
    centreY(r.box) < bottom &&
    Math.abs(centreY(r.box) - centreY(time.box)) < 1.5 * h;
  const status: Candidate = {
    kind: "status",
    label: time.label.match(CLOCK)?.[0] ?? time.label,
    box: [0, 0, 1, bottom],
    labelBox: time.box,
    conf: time.conf,
  };
  const kept = rows.flatMap((r): Candidate[] => {
    if (r === time) return [];
    if (breadcrumb(r)) return [{ ...r, kind: "button", label: r.label.replace(/^[◀◁<‹]\s*/u, "") }];
    return inBar(r) ? [] : [r];
  });
  return [status, ...kept];
}
