import type { FontBook } from "../../shared/fonts.js";
import { METRICS } from "../../sim/phone/context.js";
import { ellipsize, Scene } from "../../sim/phone/scene.js";
import { homeIndicator, navBar, notch, statusBar } from "../../sim/phone/screens/chrome.js";
import { chevron, rect, toggleSwitch } from "../../sim/phone/svg.js";
import { DARK, LIGHT, type Theme } from "../../sim/phone/theme.js";
import type { Random } from "../../util/random.js";
import { lineGlyph, tileIcon } from "./glyphs.js";
import { chromeCtx, type Env, id, text } from "./layout-env.js";
import { bottomTabs, card, keypad, segmented } from "./layout-more.js";
import { chance, hsl, pick, randInt, uniform, vivid } from "./pick.js";
import { sentence, shortLabel, valueText } from "./words.js";

/**
 * Random app-like screens drawn with the phone's own SVG helpers, fonts and icons: icon grids, lists
 * with toggles and chevrons, buttons, text fields, keypads, segmented controls, toolbars and
 * paragraphs, in random colours, light or dark. Element kinds follow the simulated phone's
 * conventions: a whole tappable row or button is one `control` (its inner text is not separate), a
 * toggle is a `control`, free text is `text` (one element per line), icons and badges are `icon`.
 */

export function randomTheme(rng: Random): Theme {
  const base = chance(rng, 0.4) ? DARK : LIGHT;
  const tint = vivid(rng);
  if (chance(rng, 0.5)) return { ...base, tint };
  const hue = rng.next() * 360;
  const bg = base.dark
    ? hsl(hue, uniform(rng, 0, 0.4), uniform(rng, 0.03, 0.18))
    : hsl(hue, uniform(rng, 0, 0.5), uniform(rng, 0.9, 1));
  const cell = base.dark ? hsl(hue, 0.1, uniform(rng, 0.12, 0.22)) : hsl(hue, 0.2, uniform(rng, 0.96, 1));
  return { ...base, bg, groupedBg: bg, cell, tint };
}

function largeTitle(env: Env, y: number): number {
  const size = randInt(env.rng, 24, 36);
  text(
    env,
    ellipsize(env.scene.fonts, shortLabel(env.rng, env.locale), size, env.W - 40),
    16,
    y + size,
    size,
    env.t.fg,
  );
  return y + size + 14;
}

export function searchField(env: Env, y: number): number {
  const { t, W, rng } = env;
  const r = { x: 16, y, w: W - 32, h: randInt(rng, 32, 44) };
  const label = shortLabel(rng, env.locale);
  env.scene.add(
    { id: id(env, "field"), kind: "control", label, rect: r },
    rect(
      r,
      chance(rng, 0.7) ? t.fill : t.cell,
      chance(rng, 0.5) ? r.h / 2 : 10,
      chance(rng, 0.3) ? `stroke="${t.separator}"` : "",
    ) +
      lineGlyph(rng, r.x + 10, r.y + r.h / 2 - 8, 16, t.secondary) +
      env.scene.shape(label, r.x + 34, r.y + r.h / 2 + 6, { size: 16, fill: t.secondary }).svg,
  );
  return y + r.h + 16;
}

function badge(env: Env, x: number, y: number): void {
  const n = String(randInt(env.rng, 1, 120));
  const label = env.scene.shape(n, 0, 0, { size: 13, weight: "semibold" });
  const w = Math.max(20, label.width + 10);
  const r = { x: x - w / 2, y: y - 10, w, h: 20 };
  env.scene.add(
    { id: id(env, "badge"), kind: "icon", label: n, rect: r },
    rect(r, "#ff3b30", 10) +
      env.scene.shape(n, x, y + 5, { size: 13, weight: "semibold", fill: "#fff", anchor: "middle" }).svg,
  );
}

export function iconGrid(env: Env, y: number, maxY: number): number {
  const { rng, W, t } = env;
  const cols = randInt(rng, 3, 5);
  const size = Math.min(randInt(rng, 42, 68), (W - 40) / cols - 14);
  const labels = chance(rng, 0.75);
  const pitchX = (W - 32) / cols;
  const pitchY = size + (labels ? 34 : 18);
  const rows = randInt(rng, 1, 4);
  const shape = chance(rng, 0.8) ? "squircle" : "circle";
  let bottom = y;
  for (let r = 0; r < rows && y + r * pitchY + pitchY < maxY; r++)
    for (let c = 0; c < cols; c++) {
      if (chance(rng, 0.08)) continue;
      const x = 16 + c * pitchX + (pitchX - size) / 2;
      const top = y + r * pitchY;
      const label = shortLabel(rng, env.locale);
      env.scene.add(
        { id: id(env, "icon"), kind: "icon", label, rect: { x, y: top, w: size, h: size } },
        tileIcon(rng, x, top, size, shape),
      );
      if (labels) {
        const fit = ellipsize(env.scene.fonts, label, 12, pitchX - 4);
        text(env, fit, x + size / 2, top + size + 16, chance(rng, 0.8) ? 12 : 11, t.fg, "middle");
      }
      if (chance(rng, 0.07)) badge(env, x + size - 4, top + 4);
      bottom = top + pitchY;
    }
  return bottom + 8;
}

export function toolbar(env: Env, y: number): number {
  const { rng, W, t } = env;
  const n = randInt(rng, 2, 6);
  const size = randInt(rng, 20, 30);
  const color = chance(rng, 0.6) ? t.tint : t.fg;
  const spread = chance(rng, 0.5);
  for (let i = 0; i < n; i++) {
    const x = spread ? 16 + ((W - 32 - size) * i) / Math.max(1, n - 1) : W - 16 - size - i * (size + 18);
    env.scene.add(
      { id: id(env, "glyph"), kind: "icon", label: "", rect: { x, y, w: size, h: size } },
      lineGlyph(rng, x, y, size, color),
    );
  }
  return y + size + 18;
}

type RowStyle = "chevron" | "toggle" | "plain" | "value";

export function listRows(env: Env, y: number, maxY: number): number {
  const { rng, W, t, scene } = env;
  const style = pick<RowStyle>(rng, ["chevron", "toggle", "plain", "value"]);
  const rowH = style === "plain" ? randInt(rng, 56, 72) : randInt(rng, 44, 52);
  const n = Math.min(randInt(rng, 2, 8), Math.floor((maxY - y) / rowH));
  if (n <= 0) return y;
  const inset = chance(rng, 0.7) ? 16 : 0;
  scene.draw(rect({ x: inset, y, w: W - 2 * inset, h: n * rowH }, t.cell, inset ? 10 : 0));
  const lead = chance(rng, 0.6);
  const tx = inset + (lead ? 56 : 16);
  for (let i = 0; i < n; i++) {
    const ry = y + i * rowH;
    if (i > 0) scene.draw(rect({ x: tx, y: ry, w: W - tx - inset, h: 0.5 }, t.separator));
    const leadSvg = lead
      ? tileIcon(rng, inset + 14, ry + (rowH - 29) / 2, 29, chance(rng, 0.85) ? "squircle" : "circle")
      : "";
    const label = ellipsize(scene.fonts, shortLabel(rng, env.locale), 17, W - tx - 110);
    const base = ry + rowH / 2 + 6;
    if (style === "chevron") {
      scene.add(
        { id: id(env, "row"), kind: "control", label, rect: { x: inset, y: ry, w: W - 2 * inset, h: rowH } },
        leadSvg +
          scene.shape(label, tx, base, { size: 17, fill: t.fg }).svg +
          chevron(W - inset - 20, ry + rowH / 2, 5, t.secondary, "right"),
      );
      continue;
    }
    scene.draw(leadSvg);
    if (style === "plain") {
      text(env, label, tx, ry + rowH / 2 - 4, 17, t.fg);
      const sub = ellipsize(scene.fonts, sentence(rng, env.locale), 14, W - tx - inset - 16);
      text(env, sub, tx, ry + rowH / 2 + 17, 14, t.secondary);
      continue;
    }
    text(env, label, tx, base, 17, t.fg);
    if (style === "toggle") {
      const on = chance(rng, 0.5);
      const x = W - inset - 67;
      scene.add(
        { id: id(env, "toggle"), kind: "control", label, rect: { x, y: ry + rowH / 2 - 15.5, w: 51, h: 31 } },
        toggleSwitch(x, ry + rowH / 2, on, t.fill),
      );
    } else text(env, valueText(rng), W - inset - 16, base, 17, t.secondary, "end");
  }
  return y + n * rowH + randInt(rng, 16, 36);
}

export function buttons(env: Env, y: number): number {
  const { rng, W, t, scene } = env;
  const n = randInt(rng, 1, 3);
  const h = randInt(rng, 34, 52);
  const gap = 12;
  const stacked = chance(rng, 0.35);
  const w = stacked ? W - 32 : (W - 32 - gap * (n - 1)) / n;
  const style = pick(rng, ["filled", "tinted", "outline", "text"] as const);
  const radius = chance(rng, 0.5) ? h / 2 : randInt(rng, 6, 14);
  for (let i = 0; i < n; i++) {
    const r = stacked ? { x: 16, y: y + i * (h + gap), w, h } : { x: 16 + i * (w + gap), y, w, h };
    const label = ellipsize(scene.fonts, shortLabel(rng, env.locale), 17, w - 16);
    const color = i === 0 || chance(rng, 0.3) ? t.tint : vivid(rng);
    const bg =
      style === "filled"
        ? rect(r, color, radius)
        : style === "tinted"
          ? rect(r, color, radius, 'fill-opacity="0.18"')
          : style === "outline"
            ? rect(r, "none", radius, `stroke="${color}" stroke-width="1.5"`)
            : "";
    const fg = style === "filled" ? "#ffffff" : color;
    scene.add(
      { id: id(env, "button"), kind: "control", label, rect: r },
      bg +
        scene.shape(label, r.x + w / 2, r.y + h / 2 + 6, {
          size: 17,
          weight: "semibold",
          fill: fg,
          anchor: "middle",
        }).svg,
    );
  }
  return y + (stacked ? n * (h + gap) : h + gap) + 12;
}

export function paragraph(env: Env, y: number, maxY: number): number {
  const { rng, W, t } = env;
  const size = randInt(rng, 13, 20);
  const lead = Math.round(size * uniform(rng, 1.3, 1.6));
  const n = randInt(rng, 1, 6);
  let yy = y + size;
  for (let i = 0; i < n && yy < maxY; i++, yy += lead) {
    const line = ellipsize(env.scene.fonts, sentence(rng, env.locale), size, W - 32);
    text(env, line, 16, yy, size, i === 0 && chance(rng, 0.3) ? t.fg : pick(rng, [t.fg, t.secondary]));
  }
  return yy + 8;
}

/** Draw one random screen into a fresh Scene of `W`×`H` points. */
export function randomLayout(rng: Random, fonts: FontBook, W: number, H: number): Scene {
  const scene = new Scene(fonts, W, H, "r");
  const locale = chance(rng, 0.5) ? "en" : "zh";
  const t = randomTheme(rng);
  const env: Env = { rng, scene, locale, t, W, seq: 0 };
  const ctx = chromeCtx(rng, fonts, locale, t, W, H);
  const wallpaper = chance(rng, 0.12);
  scene.draw(rect({ x: 0, y: 0, w: W, h: H }, wallpaper ? "url(#wall)" : t.bg));
  let y = METRICS.statusBarH + 6;
  if (chance(rng, 0.4)) {
    navBar(
      scene,
      ctx,
      shortLabel(rng, locale),
      chance(rng, 0.6) ? { label: shortLabel(rng, locale), onTap: () => {} } : undefined,
    );
    y = METRICS.statusBarH + METRICS.navBarH + 10;
  } else if (chance(rng, 0.5)) y = largeTitle(env, y);
  const maxY = chance(rng, 0.4) ? bottomTabs(env, H) - 8 : H - 40;
  const sections = [
    iconGrid,
    listRows,
    buttons,
    paragraph,
    keypad,
    segmented,
    card,
    toolbar,
    searchField,
  ] as const;
  const weights = [4, 5, 2, 3, 0.6, 1, 1, 1.5, 1];
  const total = weights.reduce((a, b) => a + b, 0);
  scene.beginClip({ x: 0, y: 0, w: W, h: maxY }); // sections never run into the tab bar
  for (let guard = 0; guard < 12 && y < maxY - 60; guard++) {
    let r = rng.next() * total;
    let i = 0;
    while (i < weights.length - 1 && r >= (weights[i] ?? 0)) r -= weights[i++] ?? 0;
    const section = sections[i] ?? paragraph;
    y = section(env, y, maxY);
  }
  scene.endClip();
  statusBar(scene, ctx, wallpaper || t.dark);
  if (chance(rng, 0.8)) notch(scene, ctx);
  homeIndicator(scene, ctx, wallpaper || t.dark);
  return scene;
}
