import type { FontBook } from "../../shared/fonts.js";
import type { RawImage } from "../../shared/image.js";
import { IPHONE_61 } from "../../shared/phone-model.js";
import { rasterize, svgDocument } from "../../sim/phone/render.js";
import { Scene } from "../../sim/phone/scene.js";
import { rect } from "../../sim/phone/svg.js";
import type { Random } from "../../util/random.js";
import { pick } from "./pick.js";

/**
 * Screens showing a QR code, for the QR rule (`src/vision/qr-code.ts`): a QR-like pattern needs no
 * encoder — its structure is fixed by ISO/IEC 18004 (three 7 × 7 finder patterns with a one-module
 * light separator, timing patterns along row and column 6, one alignment pattern from version 2 on)
 * and the rest is data, drawn here as random modules. The code sits on a card with a caption above,
 * a line under it and two buttons below, as wallet, authenticator and Wi-Fi sharing screens draw it.
 */

export interface QrScreenOptions {
  /** QR version, 1–40: `21 + 4·(version − 1)` modules a side. */
  version: number;
  /** The code's side in points (without its 4-module quiet zone). */
  sizePt: number;
  /**
   * `white`: a light page and card, dark modules; `dark`: a dark page and card, the code on its own
   * white plate; `inverted`: a dark card with light modules on it (reflectance reversal).
   */
  card: "white" | "dark" | "inverted";
  locale?: "en" | "zh";
  /** Turn the code by this many degrees about its centre (a printed code in a photo or viewfinder). */
  turnDeg?: number;
}

/** The modules of a QR-like code (1 = dark), `side`² row-major, `side = 21 + 4·(version − 1)`. */
export function qrModules(rng: Random, version: number): { side: number; dark: Uint8Array } {
  const side = 21 + 4 * (version - 1);
  const dark = new Uint8Array(side * side);
  const fixed = new Uint8Array(side * side);
  const set = (x: number, y: number, v: number): void => {
    if (x < 0 || y < 0 || x >= side || y >= side) return;
    dark[y * side + x] = v;
    fixed[y * side + x] = 1;
  };
  // Finder patterns (7 × 7: ring, gap ring, 3 × 3 core) and their one-module separators.
  for (const [ox, oy] of [
    [0, 0],
    [side - 7, 0],
    [0, side - 7],
  ] as const)
    for (let y = -1; y <= 7; y++)
      for (let x = -1; x <= 7; x++) {
        const ring = Math.max(Math.abs(x - 3), Math.abs(y - 3));
        set(ox + x, oy + y, ring === 3 || ring <= 1 ? (x < 0 || y < 0 || x > 6 || y > 6 ? 0 : 1) : 0);
      }
  // Timing patterns: row 6 and column 6, dark on even modules.
  for (let i = 8; i < side - 8; i++) {
    set(i, 6, i % 2 === 0 ? 1 : 0);
    set(6, i, i % 2 === 0 ? 1 : 0);
  }
  // One alignment pattern (5 × 5) near the bottom-right corner from version 2 on (the larger versions'
  // others are left as data: the rule does not read them).
  if (version >= 2)
    for (let y = -2; y <= 2; y++)
      for (let x = -2; x <= 2; x++) {
        const ring = Math.max(Math.abs(x), Math.abs(y));
        set(side - 7 + x, side - 7 + y, ring === 1 ? 0 : 1);
      }
  for (let i = 0; i < side * side; i++) if (!fixed[i]) dark[i] = rng.next() < 0.5 ? 1 : 0;
  return { side, dark };
}

/** One path of unit squares for the modules equal to `value`, scaled to `pt` points each at (x, y). */
function modulePath(
  m: { side: number; dark: Uint8Array },
  x: number,
  y: number,
  pt: number,
  value: number,
): string {
  let d = "";
  for (let r = 0; r < m.side; r++)
    for (let c = 0; c < m.side; c++)
      if (m.dark[r * m.side + c] === value)
        d += `M${(x + c * pt).toFixed(3)} ${(y + r * pt).toFixed(3)}h${pt.toFixed(3)}v${pt.toFixed(3)}h${(-pt).toFixed(3)}z`;
  return d;
}

/**
 * A 390 × 844 pt screen with one QR code, centred; returns the scene and the code's rectangle (points,
 * without the quiet zone).
 */
export function qrScreen(
  rng: Random,
  fonts: FontBook,
  opts: QrScreenOptions,
): { scene: Scene; code: { x: number; y: number; w: number; h: number } } {
  const W = IPHONE_61.screenPt.width;
  const H = IPHONE_61.screenPt.height;
  const scene = new Scene(fonts, W, H, "q");
  const light = opts.card === "white";
  const zh = opts.locale === "zh";
  scene.draw(rect({ x: 0, y: 0, w: W, h: H }, light ? "#f2f2f7" : "#000000"));
  const size = opts.sizePt;
  const quiet = (4 * size) / (21 + 4 * (opts.version - 1));
  const cardW = Math.min(W - 32, size + 2 * quiet + 48);
  const top = 140;
  const cardH = size + 2 * quiet + 150;
  scene.draw(rect({ x: (W - cardW) / 2, y: top, w: cardW, h: cardH }, light ? "#ffffff" : "#1c1c1e", 16));
  const ink = light ? "#000000" : "#ffffff";
  const title = pick(
    rng,
    zh ? ["扫一扫付款", "我的二维码", "扫码登录"] : ["Scan to Pay", "My QR Code", "Share Wi-Fi"],
  );
  scene.text("qr.title", title, W / 2, top + 40, {
    size: 20,
    weight: "semibold",
    fill: ink,
    anchor: "middle",
  });
  const x = (W - size) / 2;
  const y = top + 64 + quiet;
  const m = qrModules(rng, opts.version);
  const pt = size / m.side;
  if (opts.card === "dark")
    scene.draw(rect({ x: x - quiet, y: y - quiet, w: size + 2 * quiet, h: size + 2 * quiet }, "#ffffff", 8));
  const moduleInk = opts.card === "inverted" ? "#ffffff" : "#000000";
  const turn = opts.turnDeg ? ` transform="rotate(${opts.turnDeg} ${x + size / 2} ${y + size / 2})"` : "";
  scene.draw(`<path d="${modulePath(m, x, y, pt, 1)}" fill="${moduleInk}"${turn}/>`);
  const line = pick(
    rng,
    zh
      ? ["向商家出示二维码", "二维码将在 60 秒后刷新"]
      : ["Show this code at checkout", "Refreshes every 60 seconds"],
  );
  scene.text("qr.caption", line, W / 2, y + size + quiet + 30, {
    size: 15,
    fill: light ? "#6c6c70" : "#98989f",
    anchor: "middle",
  });
  const labels = zh ? ["保存图片", "分享"] : ["Save Image", "Share"];
  const bw = (W - 32 - 12) / 2;
  const by = top + cardH + 24;
  labels.forEach((label, i) => {
    const r = { x: 16 + i * (bw + 12), y: by, w: bw, h: 50 };
    scene.add(
      { id: `qr.button.${i}`, kind: "control", label, rect: r },
      rect(r, i === 0 ? "#007aff" : light ? "#e5e5ea" : "#2c2c2e", 12) +
        scene.shape(label, r.x + bw / 2, r.y + 31, {
          size: 17,
          weight: "semibold",
          fill: i === 0 ? "#ffffff" : light ? "#007aff" : "#0a84ff",
          anchor: "middle",
        }).svg,
    );
  });
  return { scene, code: { x, y, w: size, h: size } };
}

/** `qrScreen` drawn at 1170 × 2532 px (an iPhone 6.1" screenshot's size), RGBA. */
export function renderQrScreen(scene: Scene): Promise<RawImage> {
  return rasterize(svgDocument(scene.body(), IPHONE_61), IPHONE_61);
}
