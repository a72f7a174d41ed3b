import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import sharp from "sharp";
import type { FracBox } from "../../src/shared/box.js";
import type { RgbImage } from "../../src/shared/image.js";

/**
 * Synthetic iOS 26 screens with a floating Liquid Glass tab bar (SVG rendered by sharp), in points on a
 * 402 × 874 pt screen (iPhone 17 Pro) at 3×. Geometry measured on yattee's iOS 26.4 simulator baselines
 * (`rc-yattee-home`, dev set): the capsule is 62 pt tall, 21 pt in from the sides, its foot 22 pt above
 * the screen's edge; the search tab a 62 pt glass circle 10 pt right of it. Inside, each item is a 24 pt
 * symbol over a 10 pt medium title (HIG "Tab bars"), the selected item tinted (`systemBlue`) on a lighter
 * inner pill 4 pt in from the capsule; unselected items in `label`, or grey (`secondaryLabel`, what apps
 * with an `unselectedItemTintColor` draw). The glass shows the page under it blurred (a Gaussian of
 * 5 pt) under a translucent fill, as Liquid Glass and the scroll edge effect do; page rows scroll on
 * under the bar. Chinese text is set in the repository's Noto Sans SC (`assets/fonts`).
 */

export const PT_W = 402;
export const PT_H = 874;
const CAPSULE = 62;
const INSET = 21;
const FOOT = PT_H - 22;
const PAD = 4;

export interface GlassSpec {
  mode: "light" | "dark";
  tabs: readonly string[];
  selected: number;
  /** Unselected titles in grey (`secondaryLabel`) instead of `label`. */
  grey?: boolean;
  /** A search circle right of the capsule. */
  search?: boolean;
  /** Page rows (17 pt, every 52 pt from y = 200); rows past the capsule's top run under the glass. */
  rows: readonly string[];
}

export interface GlassScreen {
  image: RgbImage;
  /** The same screen as PNG bytes (to film it). */
  png: Buffer;
  /** Each tab item: its symbol's box and its title's box (screen fractions, title box approximate). */
  items: { title: string; symbol: FracBox; titleBox: FracBox }[];
  /** Each page row drawn under the capsule: its text and box. */
  under: { text: string; box: FracBox }[];
  /** Each page row above the bar. */
  page: { text: string; box: FracBox }[];
}

/** A fontconfig file that adds `assets/fonts` (Noto Sans SC) to the system's fonts, for librsvg. */
function useRepoFonts(): void {
  if (process.env.FONTCONFIG_FILE) return;
  const dir = mkdtempSync(join(tmpdir(), "glass-fonts-"));
  const fonts = join(import.meta.dirname, "../../assets/fonts");
  const conf = join(dir, "fonts.conf");
  writeFileSync(
    conf,
    `<?xml version="1.0"?><fontconfig><include ignore_missing="yes">/etc/fonts/fonts.conf</include><dir>${fonts}</dir><cachedir>${dir}</cachedir></fontconfig>`,
  );
  process.env.FONTCONFIG_FILE = conf;
}

const isZh = (s: string): boolean => /[\u3400-\u9fff]/u.test(s);
/** Approximate advance of `s` at `size` pt: CJK 1 em, Latin ~0.6 em (DejaVu Sans). */
const advance = (s: string, size: number): number => [...s].length * size * (isZh(s) ? 1 : 0.6);
const FONT = `font-family="DejaVu Sans, Noto Sans SC, sans-serif"`;

function textBox(s: string, size: number, x: number, baseline: number, middle: boolean): FracBox {
  const w = advance(s, size);
  const x0 = middle ? x - w / 2 : x;
  return [x0 / PT_W, (baseline - 0.8 * size) / PT_H, (x0 + w) / PT_W, (baseline + 0.2 * size) / PT_H];
}

/** Tab symbols: a house, a clock, a card, a heart, a person (SF Symbols-like outlines and fills). */
const SYMBOLS = [
  (x: number, y: number, c: string) =>
    `<path d="M${x - 11} ${y + 1} L${x} ${y - 10} L${x + 11} ${y + 1} M${x - 8} ${y - 1} V${y + 10} H${x + 8} V${y - 1}" fill="none" stroke="${c}" stroke-width="2.2" stroke-linejoin="round"/>`,
  (x: number, y: number, c: string) =>
    `<circle cx="${x}" cy="${y}" r="10" fill="none" stroke="${c}" stroke-width="2.2"/><path d="M${x} ${y - 6} V${y} L${x + 5} ${y + 3}" fill="none" stroke="${c}" stroke-width="2.2"/>`,
  (x: number, y: number, c: string) =>
    `<rect x="${x - 11}" y="${y - 9}" width="22" height="18" rx="3" fill="none" stroke="${c}" stroke-width="2.2"/><path d="M${x - 11} ${y - 3} H${x + 11}" stroke="${c}" stroke-width="2.2"/>`,
  (x: number, y: number, c: string) =>
    `<path d="M${x} ${y + 10} C${x - 14} ${y} ${x - 11} ${y - 11} ${x} ${y - 5} C${x + 11} ${y - 11} ${x + 14} ${y} ${x} ${y + 10} Z" fill="${c}"/>`,
  (x: number, y: number, c: string) =>
    `<circle cx="${x}" cy="${y - 4}" r="5" fill="${c}"/><path d="M${x - 10} ${y + 10} C${x - 9} ${y + 1} ${x + 9} ${y + 1} ${x + 10} ${y + 10} Z" fill="${c}"/>`,
];

/** The screen of `spec`, rendered at 1206 × 2622 px, with where its tab items and page rows lie. */
export async function glassTabScreen(spec: GlassSpec): Promise<GlassScreen> {
  useRepoFonts();
  const dark = spec.mode === "dark";
  const fg = dark ? "#FFFFFF" : "#000000";
  const grey = dark ? "#98989D" : "#8A8A8E";
  const top = FOOT - CAPSULE;
  let page = `<rect width="${PT_W}" height="${PT_H}" fill="${dark ? "#000000" : "#FFFFFF"}"/>`;
  const under: GlassScreen["under"] = [];
  const above: GlassScreen["page"] = [];
  spec.rows.forEach((r, i) => {
    const y = 200 + 52 * i;
    page += `<text x="16" y="${y}" ${FONT} font-size="17" fill="${fg}">${r}</text>`;
    page += `<rect x="16" y="${y + 16}" width="${PT_W - 16}" height="0.4" fill="${grey}"/>`;
    (y > top ? under : above).push({ text: r, box: textBox(r, 17, 16, y, false) });
  });
  const right = spec.search ? PT_W - INSET - CAPSULE - 10 : PT_W - INSET;
  const fill = `fill="${dark ? "#1C1C1E" : "#FFFFFF"}" fill-opacity="${dark ? 0.72 : 0.78}"`;
  const rim = `stroke="${fg}" stroke-opacity="0.08" stroke-width="0.6"`;
  const circle = { x: PT_W - INSET - CAPSULE / 2, y: top + CAPSULE / 2, r: CAPSULE / 2 };
  let svg = `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="${PT_W * 3}" height="${PT_H * 3}" viewBox="0 0 ${PT_W} ${PT_H}">`;
  svg += `<defs><filter id="b" x="-10%" y="-50%" width="120%" height="200%"><feGaussianBlur stdDeviation="5"/></filter>`;
  svg += `<clipPath id="c"><rect x="${INSET}" y="${top}" width="${right - INSET}" height="${CAPSULE}" rx="${CAPSULE / 2}"/>`;
  if (spec.search) svg += `<circle cx="${circle.x}" cy="${circle.y}" r="${circle.r}"/>`;
  svg += `</clipPath></defs><g id="page">${page}</g>`;
  svg += `<g clip-path="url(#c)"><g filter="url(#b)"><use xlink:href="#page"/></g></g>`;
  svg += `<rect x="${INSET}" y="${top}" width="${right - INSET}" height="${CAPSULE}" rx="${CAPSULE / 2}" ${fill} ${rim}/>`;
  if (spec.search)
    svg +=
      `<circle cx="${circle.x}" cy="${circle.y}" r="${circle.r}" ${fill} ${rim}/>` +
      `<circle cx="${circle.x - 2}" cy="${circle.y - 2}" r="8" fill="none" stroke="${fg}" stroke-width="2.4"/>` +
      `<path d="M${circle.x + 4} ${circle.y + 4} L${circle.x + 10} ${circle.y + 10}" stroke="${fg}" stroke-width="2.6" stroke-linecap="round"/>`;
  const width = (right - INSET - 2 * PAD) / spec.tabs.length;
  const items: GlassScreen["items"] = [];
  spec.tabs.forEach((t, i) => {
    const x0 = INSET + PAD + i * width;
    const cx = x0 + width / 2;
    const selected = i === spec.selected;
    if (selected)
      svg += `<rect x="${x0}" y="${top + PAD}" width="${width}" height="${CAPSULE - 2 * PAD}" rx="${CAPSULE / 2 - PAD}" fill="${fg}" fill-opacity="${dark ? 0.14 : 0.07}"/>`;
    const colour = selected ? (dark ? "#0A84FF" : "#007AFF") : spec.grey ? grey : fg;
    svg += SYMBOLS[i % SYMBOLS.length]?.(cx, top + 22, colour) ?? "";
    svg += `<text x="${cx}" y="${top + 50}" ${FONT} font-size="10" font-weight="500" text-anchor="middle" fill="${colour}">${t}</text>`;
    items.push({
      title: t,
      symbol: [(cx - 12) / PT_W, (top + 10) / PT_H, (cx + 12) / PT_W, (top + 34) / PT_H],
      titleBox: textBox(t, 10, cx, top + 50, true),
    });
  });
  const png = await sharp(Buffer.from(`${svg}</svg>`))
    .png()
    .toBuffer();
  const { data, info } = await sharp(png).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return {
    image: { width: info.width, height: info.height, channels: 3, data },
    png,
    items,
    under,
    page: above,
  };
}
