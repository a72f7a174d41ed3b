import sharp from "sharp";
import type { FracBox } from "../../shared/box.js";

/**
 * Synthetic softphone dial pads (VoIP apps' copies of the Phone keypad) on a 375×812 pt iPhone screen,
 * rendered at 2×, with the truth of every key and printed line. Geometry from the Phone-style keypads
 * of the dev set (`datasets/real-iphone`): Twilio's SwiftUI pad (rb-twilio-dial-view, 1125×2436) has
 * 78 pt caps on a 100 pt column and 92 pt row pitch, digits ~36 pt regular with the E.161 letters
 * (~10 pt semibold, spaced) ~24 pt under the digit's centre, `+` under `0`, and the green call disc
 * (#34C759) 1.45 row pitches under `0`; Apple's Phone app sets the call disc one pitch under `0`;
 * JCDialPad (re-jcdialpad-dial) draws thin outline rings; Jazinga (re-jazinga-dial) iOS 6's flat
 * square cells. Variants: key shape, theme, letters or none, the call disc's gap, a number typed above
 * and a tab bar (Recents / Contacts / Keypad / Voicemail).
 */

export interface SoftphoneOptions {
  dark: boolean;
  shape: "disc" | "ring" | "square";
  /** The E.161 letters under 2–9 and `+` under 0. */
  letters: boolean;
  /** The call disc's centre under the `0` row's, in row pitches (1: Phone app; 1.45: Twilio). */
  callGap: number;
  /** The number typed so far, shown above the keypad ("" for none). */
  number: string;
  tabs: boolean;
}

export interface SoftphoneTruth {
  /** Keys by the character they type (`0`–`9`, `*`, `#`, `call`), boxes as screen fractions. */
  keys: { char: string; box: FracBox }[];
  /** Printed lines (digits, letters, `+`, the number, tab titles), boxes as screen fractions. */
  text: { text: string; box: FracBox }[];
}

const W = 375;
const H = 812;
const S = 2;
const CAP = 78;
const PITCH_X = 100;
const PITCH_Y = 92;
const DIGIT_PT = 36;
const LETTER_PT = 10;
const LETTERS = ["", "ABC", "DEF", "GHI", "JKL", "MNO", "PQRS", "TUV", "WXYZ", "", "+", ""];
const CHARS = ["1", "2", "3", "4", "5", "6", "7", "8", "9", "*", "0", "#"];
const TABS = ["Favorites", "Recents", "Contacts", "Keypad", "Voicemail"];
const FONT = 'font-family="Helvetica, Arial, sans-serif" text-anchor="middle"';

const frac = (x0: number, y0: number, x1: number, y1: number): FracBox => [x0 / W, y0 / H, x1 / W, y1 / H];

/** The screen as a PNG and its truth. */
export async function softphonePng(o: SoftphoneOptions): Promise<{ png: Buffer } & SoftphoneTruth> {
  const bg = o.dark ? "#000000" : "#FFFFFF";
  const ink = o.dark ? "#FFFFFF" : "#000000";
  const fill = o.dark ? "#333333" : "#E5E5EA";
  const parts: string[] = [`<rect width="${W}" height="${H}" fill="${bg}"/>`];
  const keys: SoftphoneTruth["keys"] = [];
  const text: SoftphoneTruth["text"] = [];
  const line = (t: string, cx: number, base: number, pt: number, extra = ""): void => {
    parts.push(`<text x="${cx}" y="${base}" ${FONT} font-size="${pt}" fill="${ink}" ${extra}>${t}</text>`);
    // Cap height ~0.72 em above the baseline; width ~0.6 em a glyph (a loose truth box).
    const w = 0.6 * pt * t.length;
    text.push({ text: t, box: frac(cx - w / 2, base - 0.74 * pt, cx + w / 2, base + 0.02 * pt) });
  };
  const top = 250;
  if (o.number) line(o.number, W / 2, 170, 34);
  CHARS.forEach((ch, i) => {
    const cx = W / 2 + ((i % 3) - 1) * PITCH_X;
    const cy = top + Math.floor(i / 3) * PITCH_Y;
    const r = CAP / 2;
    if (o.shape === "disc") parts.push(`<circle cx="${cx}" cy="${cy}" r="${r}" fill="${fill}"/>`);
    else if (o.shape === "ring")
      parts.push(
        `<circle cx="${cx}" cy="${cy}" r="${r - 0.75}" fill="none" stroke="${ink}" stroke-width="1.5"/>`,
      );
    else parts.push(`<rect x="${cx - 46}" y="${cy - 40}" width="92" height="80" rx="6" fill="${fill}"/>`);
    const letters = o.letters ? (LETTERS[i] ?? "") : "";
    const lift = letters ? 8 : 0;
    line(ch, cx, cy + (ch === "*" ? 18 : 13) - lift, ch === "*" ? 44 : DIGIT_PT);
    if (letters) line(letters, cx, cy + 24, LETTER_PT, 'font-weight="600" letter-spacing="2"');
    keys.push({ char: ch, box: frac(cx - r, cy - r, cx + r, cy + r) });
  });
  const cy = top + 3 * PITCH_Y + o.callGap * PITCH_Y;
  const r = CAP / 2;
  // The handset symbol: a white curved receiver (phone.fill, drawn as a thick arc with two ends).
  parts.push(
    `<circle cx="${W / 2}" cy="${cy}" r="${r}" fill="#34C759"/>`,
    `<path d="M${W / 2 - 12} ${cy - 10} q2 16 22 22" fill="none" stroke="#FFFFFF" stroke-width="7" stroke-linecap="round"/>`,
  );
  keys.push({ char: "call", box: frac(W / 2 - r, cy - r, W / 2 + r, cy + r) });
  if (o.tabs) {
    parts.push(
      `<rect x="0" y="${H - 83}" width="${W}" height="83" fill="${o.dark ? "#121212" : "#F9F9F9"}"/>`,
    );
    TABS.forEach((t, i) => {
      const cx = (W / TABS.length) * (i + 0.5);
      parts.push(`<circle cx="${cx}" cy="${H - 62}" r="11" fill="${i === 3 ? "#007AFF" : "#8E8E93"}"/>`);
      line(t, cx, H - 38, 10);
    });
  }
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${W * S}" height="${H * S}" viewBox="0 0 ${W} ${H}">${parts.join("")}</svg>`;
  return { png: await sharp(Buffer.from(svg)).png().toBuffer(), keys, text };
}

/** A spread of variants: every shape in both themes, letters or not, Phone-app and Twilio call gaps. */
export function softphoneVariants(): SoftphoneOptions[] {
  const out: SoftphoneOptions[] = [];
  let n = 0;
  for (const shape of ["disc", "ring", "square"] as const)
    for (const dark of [false, true])
      for (const letters of [true, false]) {
        n++;
        out.push({
          dark,
          shape,
          letters,
          callGap: Math.floor((n - 1) / 2) % 2 === 0 ? 1.45 : 1,
          number: n % 3 === 0 ? "" : "(415) 555-0132",
          tabs: n % 4 < 2,
        });
      }
  return out;
}
