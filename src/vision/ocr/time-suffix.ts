import type { PixelBox } from "./detect.js";
import type { FinishedText } from "./recognize.js";

/**
 * A clock time whose day period lost a letter: `10:09 M` for `10:09 AM`. iOS writes a 12-hour time with
 * its period, `h:mm a` in the en locales (Unicode CLDR's time formats; `a` is `AM` or `PM`), so a time
 * followed by a lone `M`, `A` or `P` is one letter short — the format says a letter is missing, and
 * only the ink can say which. On camera frames the recogniser drops the `A` of a blurred `AM` that it
 * reads once the time stands alone in the crop (`Sat, 13 Apr, 10:09 M`: the time and its period,
 * cropped from the time's first digit to the region's end, read `10:09 AM` at 0.99). So the time and
 * period are read again on their own, and the letter is taken only when that reading is the same time
 * with a whole period (`AM` or `PM`) at `minConfidence` or more.
 */

/** A time, a space and one letter of a day period, ending the text or a word. */
const SHORT_PERIOD = /(\d{1,2}:[0-5]\d) ([AMP])(?!\p{L})/u;

/** The crop (in the region's pixels) holding the time and its period, or null when its glyphs are unknown. */
function timeCrop(r: FinishedText, box: PixelBox): { crop: PixelBox; time: string; at: number } | null {
  const m = SHORT_PERIOD.exec(r.text);
  if (!m?.[1]) return null;
  const first = r.glyphs?.find((g) => g.index === m.index);
  const next = r.glyphs?.find((g) => g.index === m.index + 1);
  if (!first || !next) return null;
  const w = box.x1 - box.x0;
  // Half a digit's pitch before the time's first digit: the crop starts in the space before it.
  const x0 = box.x0 + w * (first.at - 0.6 * Math.abs(next.at - first.at));
  const end = m.index + m[0].length;
  const last = r.text.slice(end).search(/\s/u);
  // To the end of the period's word: the region's end, or halfway into the space after it.
  const spaceAt = last < 0 ? undefined : r.spaces?.find((s) => s.index === end + last);
  const x1 = spaceAt ? box.x0 + w * spaceAt.at : box.x1;
  if (x1 - x0 < 4) return null;
  return { crop: { ...box, x0: Math.max(box.x0, x0), x1 }, time: m[1], at: m.index };
}

/**
 * Each reading with a time one letter short of its period (see the module comment) read again from the
 * time on (`read(boxes, which)` reads the listed boxes of a list); the missing letter goes in when that
 * reading is `<the same time> AM` or `PM`. Index lists past the new letter move up by one. `readings` are
 * updated in place.
 */
export async function readTimePeriods<T extends FinishedText>(
  readings: T[],
  boxes: readonly PixelBox[],
  minConfidence: number,
  read: (boxes: readonly PixelBox[], which: readonly number[]) => Promise<FinishedText[]>,
): Promise<void> {
  const crops = readings.map((r, i) => {
    const box = boxes[i];
    return box && r.conf >= minConfidence ? timeCrop(r, box) : null;
  });
  const which = crops.flatMap((c, i) => (c ? [i] : []));
  if (which.length === 0) return;
  const again = await read(
    crops.map((c, i) => c?.crop ?? (boxes[i] as PixelBox)),
    which,
  );
  for (const i of which) {
    const first = readings[i];
    const c = crops[i];
    const second = again[i];
    if (!first || !c || !second || second.conf < minConfidence) continue;
    const m = /^(\d{1,2}:[0-5]\d) ([AP]M)$/u.exec(second.text.trim());
    if (!m || m[1] !== c.time) continue;
    const letterAt = c.at + c.time.length + 1;
    const read1 = first.text[letterAt];
    const period = m[2] ?? "";
    // The letter read must be the period's `A`/`P` (the `M` lost) or its `M` (the first letter lost).
    const insertAt = read1 === "M" ? letterAt : period.startsWith(read1 ?? "") ? letterAt + 1 : -1;
    if (insertAt < 0) continue;
    const letter = read1 === "M" ? period[0] : "M";
    const shift = <M extends { index: number }>(list: readonly M[] | undefined): M[] | undefined =>
      list?.map((x) => (x.index >= insertAt ? { ...x, index: x.index + 1 } : x));
    const out: T = {
      ...first,
      text: `${first.text.slice(0, insertAt)}${letter}${first.text.slice(insertAt)}`,
    };
    for (const key of ["marks", "spaces", "dashes", "slashes", "glyphs"] as const) {
      const list = shift(first[key]);
      if (list) out[key] = list;
    }
    readings[i] = out;
  }
}
