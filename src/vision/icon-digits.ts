import { intersection } from "../shared/box.js";
import type { RgbImage } from "../shared/image.js";
import type { DetectedObject, OcrEngine, TextLine } from "./types.js";

/**
 * Lone digits the text detector gave no region, boxed as icons by the UI detector. PP-OCR's DB map
 * (320 px wide) misses a lone glyph it cannot link into a line — a white digit on black, an 11–13 pt
 * digit — and the UI detector boxes any compact ink as an icon: a chart's axis label, the value beside
 * a slider's thumb, a widget's date, a count came out `[icon] ""`. Each glyph-sized icon box that no
 * text line touches is offered to the OCR engine (`OcrEngine.readDigits`, `ocr/lone-digits.ts`: one
 * glyph shaped like a digit, read as that digit confidently); a box read as a digit becomes a text
 * line and its icon goes, one row for one target. Only digits: SF Symbols are drawn to look like
 * letters and signs (`xmark`, `plus`, `textformat`), not like digits, and a ring (`circle`, a radio
 * button) is as wide as tall, where a digit is taller than wide.
 */

/** iOS lays out in points on a screen 390 pt wide (iPhone 12–16; 375 and 414 pt screens are close). */
const SCREEN_PT = 390;
/**
 * Icon boxes this tall (pt) may hold a lone digit: an 11 pt caption digit (~8 pt of ink) in a snug box
 * up to a 34 pt large title's (~24 pt of ink) in a detector box of a 44 pt touch target and margin.
 */
const MIN_BOX_PT = 7;
const MAX_BOX_PT = 56;

/**
 * `text` with the lone digits found in `objects`' icon boxes added, and `objects` without those
 * boxes. `iconClasses`: the detector classes listed as icons. Engines without `readDigits` change
 * nothing.
 */
export async function digitsInIcons(
  text: readonly TextLine[],
  objects: readonly DetectedObject[],
  detail: RgbImage,
  ocr: OcrEngine,
  iconClasses: readonly string[],
): Promise<{ text: TextLine[]; objects: DetectedObject[] }> {
  const pt = detail.width / SCREEN_PT;
  const candidates = objects.filter((o) => {
    const h = ((o.box[3] - o.box[1]) * detail.height) / pt;
    return (
      iconClasses.includes(o.cls) &&
      h >= MIN_BOX_PT &&
      h <= MAX_BOX_PT &&
      !text.some((t) => intersection(t.box, o.box) > 0)
    );
  });
  if (!ocr.readDigits || candidates.length === 0) return { text: [...text], objects: [...objects] };
  const read = await ocr.readDigits(
    detail,
    candidates.map((o) => o.box),
  );
  const found = new Set<DetectedObject>();
  const lines: TextLine[] = [];
  candidates.forEach((o, i) => {
    const line = read[i];
    if (!line) return;
    found.add(o);
    lines.push(line);
  });
  return { text: [...text, ...lines], objects: objects.filter((o) => !found.has(o)) };
}
