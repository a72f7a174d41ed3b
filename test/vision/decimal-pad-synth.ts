import sharp from "sharp";

/**
 * Synthetic system number and decimal pads (`UIKeyboardType.numberPad` / `.decimalPad`) on a 390×844 pt
 * iPhone screen rendered at 2×, for tests. What UIKit draws: a 3 × 4 grid of rounded keys (iOS 16+; 6 pt
 * side margins and gutters, ~46 pt tall keys on a ~53 pt row pitch, as on the dev set's
 * `ra-tp-clock-edit-alarm` number pad), each digit key a digit (~25 pt) over its E.161 letters (`ABC`…,
 * ~10 pt bold); the bottom-left cell empty on `.numberPad` and holding the locale's decimal separator on
 * `.decimalPad` (on a key with the digits' fill, or with no key background on older systems); the
 * bottom-right cell the delete key (the `delete.left` symbol, no key background). Light: keys white on
 * #D1D3D9; dark: keys #6B6B6B on #2B2B2B, white ink.
 */

export interface PadOptions {
  dark: boolean;
  /** The bottom-left cell: nothing (number pad) or the decimal separator. */
  separator: "" | "." | ",";
  /** Whether the separator's key is filled like the digit keys (iOS 16+) or drawn bare. */
  filledSeparator: boolean;
}

const W = 390;
const H = 844;
const S = 2;
const LETTERS = ["", "ABC", "DEF", "GHI", "JKL", "MNO", "PQRS", "TUV", "WXYZ"];
const MARGIN = 6;
const GAP = 6;
const KEY_H = 46;
const ROW = 53;
/** Space under the keys (the home indicator's strip on Face ID iPhones). */
const BELOW = 34;

/** The key grid's geometry in points: key width, top of the first row. */
export const PAD = {
  keyW: (W - 2 * MARGIN - 2 * GAP) / 3,
  top: H - BELOW - 4 * ROW,
  width: W,
  height: H,
};

/** The centre of cell (col, row) as fractions of the screen. */
export function cellCentre(col: number, row: number): [number, number] {
  const x = MARGIN + col * (PAD.keyW + GAP) + PAD.keyW / 2;
  const y = PAD.top + row * ROW + KEY_H / 2;
  return [x / W, y / H];
}

/** The pad over a plain form (a title and a value field above it), as a PNG. */
export async function decimalPadPng(o: PadOptions): Promise<Buffer> {
  const bg = o.dark ? "#000000" : "#F2F2F7";
  const ink = o.dark ? "#FFFFFF" : "#000000";
  const kbBg = o.dark ? "#2B2B2B" : "#D1D3D9";
  const key = o.dark ? "#6B6B6B" : "#FFFFFF";
  const parts: string[] = [
    `<rect width="${W}" height="${H}" fill="${bg}"/>`,
    `<text x="${W / 2}" y="100" font-family="Helvetica, Arial, sans-serif" font-size="17" font-weight="600" fill="${ink}" text-anchor="middle">Amount</text>`,
    `<text x="20" y="180" font-family="Helvetica, Arial, sans-serif" font-size="17" fill="${ink}">Price</text>`,
    `<rect x="0" y="${PAD.top - 6}" width="${W}" height="${H - PAD.top + 6}" fill="${kbBg}"/>`,
  ];
  const font = `font-family="Helvetica, Arial, sans-serif" fill="${ink}" text-anchor="middle"`;
  for (let i = 0; i < 12; i++) {
    const col = i % 3;
    const row = Math.floor(i / 3);
    const x = MARGIN + col * (PAD.keyW + GAP);
    const y = PAD.top + row * ROW;
    const cx = x + PAD.keyW / 2;
    const cy = y + KEY_H / 2;
    const rect = `<rect x="${x}" y="${y}" width="${PAD.keyW}" height="${KEY_H}" rx="5" fill="${key}"/>`;
    if (i === 9) {
      if (!o.separator) continue;
      if (o.filledSeparator) parts.push(rect);
      parts.push(`<text x="${cx}" y="${cy + 8.5}" ${font} font-size="28">${o.separator}</text>`);
      continue;
    }
    if (i === 11) {
      // `delete.left`: a left-pointing outlined tag with an x inside, ~24 × 17 pt.
      parts.push(
        `<path d="M${cx - 12} ${cy} L${cx - 5} ${cy - 8.5} H${cx + 12} V${cy + 8.5} H${cx - 5} Z" fill="none" stroke="${ink}" stroke-width="1.6" stroke-linejoin="round"/>`,
        `<path d="M${cx - 1} ${cy - 4} L${cx + 7} ${cy + 4} M${cx + 7} ${cy - 4} L${cx - 1} ${cy + 4}" stroke="${ink}" stroke-width="1.6" stroke-linecap="round"/>`,
      );
      continue;
    }
    parts.push(rect);
    const digit = i === 10 ? "0" : String(i + 1);
    const letters = i === 10 ? "" : (LETTERS[i] ?? "");
    // Measured on the dev set's number pad: a digit over letters has its baseline ~1.5 pt under the key's
    // centre and the letters (7 pt caps) from ~9 to ~16 pt under it; a lone digit sits ~7 pt lower.
    parts.push(`<text x="${cx}" y="${cy + (letters ? 1.5 : 8.5)}" ${font} font-size="25">${digit}</text>`);
    if (letters)
      parts.push(
        `<text x="${cx}" y="${cy + 16}" ${font} font-size="10" font-weight="700" letter-spacing="2">${letters}</text>`,
      );
  }
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${W * S}" height="${H * S}" viewBox="0 0 ${W} ${H}">${parts.join("")}</svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}
