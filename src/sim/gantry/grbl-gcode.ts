/**
 * G-code block parsing for the GRBL simulator: the subset PiClaw's back-end and a person at a terminal
 * use (G0 G1 G4 G10 G17 G20 G21 G54 G90 G91 G92 G92.1 G94, M2 M3 M4 M5 M30, words F L N P S X Y Z),
 * with GRBL 1.1's error numbers for what it rejects.
 */

/** One parsed line. Group fields are set only when the block names them. */
export interface GcodeBlock {
  motion?: 0 | 1;
  nonModal?: "G4" | "G10" | "G92" | "G92.1";
  distance?: "absolute" | "relative";
  units?: "mm" | "inch";
  spindle?: "cw" | "off";
  programEnd?: boolean;
  words: Partial<Record<"X" | "Y" | "Z" | "F" | "S" | "P" | "L", number>>;
}

export type ParseResult = { ok: true; block: GcodeBlock } | { ok: false; error: number };

const NUMBER = /^[-+]?(\d+\.?\d*|\.\d+)/;
/** GRBL's line buffer holds 80 characters; longer lines are rejected whole (error:11). */
export const LINE_MAX = 80;

/** Remove spaces, `( … )` and `; …` comments; upper-case. */
export function cleanLine(line: string): string {
  return line
    .replace(/\([^)]*\)/g, "")
    .replace(/;.*$/, "")
    .replace(/\s+/g, "")
    .toUpperCase();
}

export function parseGcode(line: string): ParseResult {
  const text = cleanLine(line);
  const block: GcodeBlock = { words: {} };
  const seen = new Set<string>();
  let i = 0;
  while (i < text.length) {
    const letter = text[i] ?? "";
    if (!/[A-Z]/.test(letter)) return { ok: false, error: 1 };
    const m = NUMBER.exec(text.slice(i + 1));
    if (!m) return { ok: false, error: 2 };
    const value = Number(m[0]);
    i += 1 + m[0].length;
    const err = applyWord(block, letter, value, seen);
    if (err) return { ok: false, error: err };
  }
  return { ok: true, block };
}

function group(seen: Set<string>, name: string): number {
  if (seen.has(name)) return 21;
  seen.add(name);
  return 0;
}

function applyWord(block: GcodeBlock, letter: string, value: number, seen: Set<string>): number {
  switch (letter) {
    case "G":
      return applyG(block, value, seen);
    case "M": {
      if (value === 3 || value === 4 || value === 5) {
        block.spindle = value === 5 ? "off" : "cw";
        return group(seen, "spindle");
      }
      if (value === 2 || value === 30) {
        block.programEnd = true;
        return group(seen, "stopping");
      }
      return 20;
    }
    case "N":
      return Number.isInteger(value) && value >= 0 ? 0 : 27;
    case "X":
    case "Y":
    case "Z":
    case "F":
    case "S":
    case "P":
    case "L": {
      if (letter in block.words) return 25;
      if ((letter === "F" || letter === "S" || letter === "P") && value < 0) return 4;
      block.words[letter] = value;
      return 0;
    }
    default:
      return 20;
  }
}

function applyG(block: GcodeBlock, value: number, seen: Set<string>): number {
  switch (value) {
    case 0:
    case 1:
      block.motion = value;
      return group(seen, "motion");
    case 4:
    case 10:
    case 92:
    case 92.1:
      block.nonModal = value === 4 ? "G4" : value === 10 ? "G10" : value === 92 ? "G92" : "G92.1";
      return group(seen, "nonModal");
    case 90:
    case 91:
      block.distance = value === 90 ? "absolute" : "relative";
      return group(seen, "distance");
    case 20:
    case 21:
      block.units = value === 20 ? "inch" : "mm";
      return group(seen, "units");
    case 17:
    case 54:
    case 94:
      return 0; // the only plane, work coordinate system and feed mode the simulator has
    default:
      return 20;
  }
}
