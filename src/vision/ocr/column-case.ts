import type { TextLine } from "../types.js";

/**
 * Letters SF Pro draws as the same shape in both cases, only larger as capitals (c o s v w x z), and the
 * digit 0, which the recogniser gives a capital O of the same height.
 */
const SIZE_ONLY = new Map([..."cosvwxz"].map((c) => [c, c.toUpperCase()] as [string, string]));
SIZE_ONLY.set("0", "O");

/**
 * A lone letter in a column of lone capitals (a table's section index, `A B C … Z #`, UITableView's
 * `sectionIndexTitles`) read small: the recogniser reads a lone `C`, `X`, `O` by shape as `c`, `x`,
 * `0`, and a lone glyph has no neighbour in its own line to measure against. Its neighbours in the
 * column do: when at least two lone capitals sit in the same column within four glyph heights above or
 * below, and this glyph's ink is at least 0.85 of their median height (a small letter is 0.53/0.70 ≈
 * 0.75 of a capital in SF Pro), it is the capital. Returns new lines, same order.
 */
export function columnCase(lines: readonly TextLine[]): TextLine[] {
  const single = lines.filter((l) => /^[\p{Lu}\p{N}#]$/u.test(l.text));
  return lines.map((line) => {
    const upper = SIZE_ONLY.get(line.text);
    if (!upper) return line;
    const [x0, y0, x1, y1] = line.box;
    const h = y1 - y0;
    const cx = (x0 + x1) / 2;
    const heights = single
      .filter((o) => {
        if (o === line || !/^\p{Lu}$/u.test(o.text)) return false;
        const [ox0, oy0, ox1, oy1] = o.box;
        const centred = Math.abs((ox0 + ox1) / 2 - cx) <= Math.max(x1 - x0, ox1 - ox0) / 2;
        const near = Math.min(Math.abs(oy0 - y1), Math.abs(y0 - oy1)) <= 4 * h;
        return centred && near;
      })
      .map((o) => o.box[3] - o.box[1])
      .sort((a, b) => a - b);
    if (heights.length < 2) return line;
    const median = heights[Math.floor(heights.length / 2)] ?? 0;
    return h >= 0.85 * median ? { ...line, text: upper } : line;
  });
}
