import type { RgbImage } from "../shared/image.js";
import type { Candidate } from "./row.js";
import { centreX, centreY, contains } from "./row.js";

/** A wrapped title's second line is drawn in the title's ink: at least this share of its contrast. */
const SAME_INK = 0.75;

/**
 * How far a text box's ink stands from its background: the brightness of most of the box (the
 * background) against its 98th-percentile departure from it (the strokes), 0–255.
 */
export function inkContrast(screen: RgbImage, box: Candidate["box"]): number {
  const { width: W, height: H, data, channels } = screen;
  const x0 = Math.max(0, Math.floor(box[0] * W));
  const x1 = Math.min(W, Math.ceil(box[2] * W));
  const y0 = Math.max(0, Math.floor(box[1] * H));
  const y1 = Math.min(H, Math.ceil(box[3] * H));
  const step = Math.max(1, Math.floor((x1 - x0) / 200));
  const bs: number[] = [];
  for (let y = y0; y < y1; y += step)
    for (let x = x0; x < x1; x += step) {
      const o = (y * W + x) * channels;
      bs.push(((data[o] ?? 0) + (data[o + 1] ?? 0) + (data[o + 2] ?? 0)) / 3);
    }
  if (bs.length === 0) return 0;
  const sorted = [...bs].sort((a, b) => a - b);
  const bg = sorted[Math.floor(sorted.length / 2)] ?? 0;
  const dev = bs.map((b) => Math.abs(b - bg)).sort((a, b) => a - b);
  return dev[Math.floor(0.98 * (dev.length - 1))] ?? 0;
}

const tall = (r: Candidate): number => r.box[3] - r.box[1];

/**
 * The title of the switch at `box`, or undefined: of the text rows to its left whose centre lies within
 * the switch's height band, the tallest (a row's title is set larger than its subtitle), the nearest in
 * y on a tie; a title wrapped onto two lines (a line of the same size and ink, left-aligned with it,
 * right above or below) is joined — a subtitle (`UITableViewCell.Style.subtitle`) is drawn in the
 * secondary label colour (#3C3C43 at 60%, dark #EBEBF5 at 60%: Apple HIG "Color", UIColor
 * `secondaryLabel`), much fainter than the title's `label` colour, and is not. With no text to the
 * left, a caption centred right under the switch names it (call screens' "Mute", "Speaker").
 */
export function switchTitle(
  screen: RgbImage,
  box: Candidate["box"],
  rows: readonly Candidate[],
): Pick<Candidate, "label" | "box"> | undefined {
  const h = box[3] - box[1];
  const cy = centreY(box);
  const texts = rows.filter((r) => r.kind === "text");
  const left = texts.filter((r) => r.box[2] <= box[0] + 0.01 && Math.abs(centreY(r.box) - cy) < 0.75 * h);
  const title = [...left].sort(
    (a, b) => tall(b) - tall(a) || Math.abs(centreY(a.box) - cy) - Math.abs(centreY(b.box) - cy),
  )[0];
  if (title) {
    const other = left.find(
      (r) =>
        r !== title &&
        Math.abs(r.box[0] - title.box[0]) < 0.02 &&
        Math.abs(tall(r) - tall(title)) < 0.25 * tall(title) &&
        Math.min(Math.abs(r.box[1] - title.box[3]), Math.abs(title.box[1] - r.box[3])) < 0.8 * tall(title) &&
        inkContrast(screen, r.box) >= SAME_INK * inkContrast(screen, title.box),
    );
    if (!other) return title;
    const [first, second] = other.box[1] < title.box[1] ? [other, title] : [title, other];
    return {
      label: `${first.label} ${second.label}`,
      box: [
        Math.min(first.box[0], second.box[0]),
        first.box[1],
        Math.max(first.box[2], second.box[2]),
        second.box[3],
      ],
    };
  }
  return texts.find(
    (r) =>
      r.box[1] >= box[3] - 0.1 * h &&
      r.box[1] < box[3] + 0.6 * h &&
      contains(box, centreX(r.box), centreY(box)),
  );
}
