import sharp from "sharp";
import { FontBook } from "../../../src/shared/fonts.js";
import type { RgbImage } from "../../../src/shared/image.js";

/**
 * Synthetic list screens with short labels on small filled shapes (`src/vision/ocr/plates.ts`), drawn
 * from iOS metrics at 3× on a 390 × 844 pt screen: rows 64 pt apart, a 17 pt title at 72 pt with a
 * 15 pt secondary line under it; a route or letter tile (systemGray5 rounded square, 34–40 pt, 8 pt
 * corners, dark grey semibold text), a route chip (white semibold 15 pt on a saturated 22 pt plate), a
 * capsule tag (10–12 pt semibold tint text on the tint at 10–20%), a count badge (white digits on a
 * 22 pt disc of a system colour). The font is the repo's Noto Sans SC (SF Pro is not redistributable).
 */
export type Rgb = readonly [number, number, number];

export interface PlateRow {
  /** The plate's label. */
  label: string;
  shape: "tile" | "chip" | "capsule" | "disc";
  /** Plate fill and text colours. */
  fill: Rgb;
  ink: Rgb;
  /** Plate height in points (a tile's side). */
  size: number;
  /** Label size in points. */
  text: number;
  /** The row's title and, when given, its secondary line. */
  title: string;
  subtitle?: string;
}

const hex = (c: Rgb): string => `#${c.map((v) => Math.round(v).toString(16).padStart(2, "0")).join("")}`;

/** A screen (light or dark) of `rows`, each plate at the row's leading edge (a disc at the trailing). */
export async function plateScreen(rows: readonly PlateRow[], dark = false): Promise<RgbImage> {
  const fonts = new FontBook();
  const W = 390;
  const H = 844;
  const fg: Rgb = dark ? [255, 255, 255] : [0, 0, 0];
  const sec: Rgb = dark ? [141, 141, 147] : [138, 138, 142];
  const parts = [`<rect width="${W}" height="${H}" fill="${dark ? "#000000" : "#ffffff"}"/>`];
  parts.push(fonts.shape("Departures", 16, 100, { size: 34, weight: "semibold", fill: hex(fg) }).svg);
  rows.forEach((r, i) => {
    const y = 130 + i * 64;
    const tw = fonts.measure(r.label, r.text, "semibold");
    const w = r.shape === "tile" ? r.size : r.shape === "disc" ? Math.max(r.size, tw + 8) : tw + 12;
    const x = r.shape === "disc" ? 374 - w : 16;
    const radius = r.shape === "tile" ? 8 : r.shape === "chip" ? 4 : r.size / 2;
    const top = y + 28 - r.size / 2;
    parts.push(
      `<rect x="${x}" y="${top}" width="${w}" height="${r.size}" rx="${radius}" fill="${hex(r.fill)}"/>`,
    );
    const baseline = y + 28 + 0.36 * r.text;
    parts.push(
      fonts.shape(r.label, x + w / 2, baseline, {
        size: r.text,
        weight: "semibold",
        fill: hex(r.ink),
        anchor: "middle",
      }).svg,
    );
    const tx = r.shape === "disc" ? 16 : 72;
    parts.push(fonts.shape(r.title, tx, y + (r.subtitle ? 24 : 33), { size: 17, fill: hex(fg) }).svg);
    if (r.subtitle) parts.push(fonts.shape(r.subtitle, tx, y + 44, { size: 15, fill: hex(sec) }).svg);
  });
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${W * 3}" height="${H * 3}" viewBox="0 0 ${W} ${H}">${parts.join("")}</svg>`;
  const { data, info } = await sharp(Buffer.from(svg))
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { width: info.width, height: info.height, channels: 3, data };
}

/** The same screen as PNG bytes (to film it with the camera simulator). */
export async function plateScreenPng(rows: readonly PlateRow[], dark = false): Promise<Buffer> {
  const img = await plateScreen(rows, dark);
  return sharp(img.data, { raw: { width: img.width, height: img.height, channels: 3 } })
    .png()
    .toBuffer();
}

const GREY5_DARK: Rgb = [44, 44, 46];
const GREY5_LIGHT: Rgb = [229, 229, 234];
const WHITE: Rgb = [255, 255, 255];

/** Route and letter tiles as a bus app lists them (dark mode), with `N min` lines under the stops. */
export const DARK_TILES: readonly PlateRow[] = [
  {
    label: "F",
    shape: "tile",
    fill: GREY5_DARK,
    ink: [209, 209, 214],
    size: 40,
    text: 20,
    title: "Forbes Ave",
    subtitle: "3 min",
  },
  {
    label: "M",
    shape: "tile",
    fill: GREY5_DARK,
    ink: [209, 209, 214],
    size: 36,
    text: 20,
    title: "Murray Ave",
    subtitle: "7 min",
  },
  {
    label: "P3",
    shape: "tile",
    fill: GREY5_DARK,
    ink: [209, 209, 214],
    size: 34,
    text: 17,
    title: "Downtown",
    subtitle: "11 min",
  },
  {
    label: "71C",
    shape: "tile",
    fill: GREY5_DARK,
    ink: [209, 209, 214],
    size: 38,
    text: 15,
    title: "Oakland",
    subtitle: "15 min",
  },
];

/** The same tiles in light mode (systemGray5 under dark grey text). */
export const LIGHT_TILES: readonly PlateRow[] = DARK_TILES.map((r) => ({
  ...r,
  fill: GREY5_LIGHT,
  ink: [72, 72, 74],
}));

/** Route chips (white on line colours) and count badges on discs of system colours. */
export const CHIPS_AND_BADGES: readonly PlateRow[] = [
  { label: "U8", shape: "chip", fill: [34, 78, 150], ink: WHITE, size: 22, text: 15, title: "Wittenau" },
  { label: "S3", shape: "chip", fill: [0, 102, 173], ink: WHITE, size: 22, text: 15, title: "Spandau" },
  { label: "3", shape: "disc", fill: [0, 122, 255], ink: WHITE, size: 22, text: 15, title: "Inbox" },
  { label: "7", shape: "disc", fill: [255, 149, 0], ink: WHITE, size: 22, text: 15, title: "Work" },
  {
    label: "UDP",
    shape: "capsule",
    fill: [217, 235, 255],
    ink: [0, 122, 255],
    size: 17,
    text: 11,
    title: "apple.com",
  },
];
