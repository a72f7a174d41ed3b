import { METRICS } from "../../sim/phone/context.js";
import { ellipsize } from "../../sim/phone/scene.js";
import { circle, rect } from "../../sim/phone/svg.js";
import { lineGlyph } from "./glyphs.js";
import { type Env, id, text } from "./layout-env.js";
import { chance, hsl, randInt, uniform, vivid } from "./pick.js";
import { sentence, shortLabel } from "./words.js";

/** More sections of the random layouts (see layout.ts): keypads, segmented controls, cards, tab bars. */

export function keypad(env: Env, y: number, maxY: number): number {
  const { rng, W, t, scene } = env;
  const r = Math.min(randInt(rng, 28, 40), (maxY - y) / 8.6);
  if (r < 20) return y;
  const pitch = r * 2.3;
  const keys = ["1", "2", "3", "4", "5", "6", "7", "8", "9", "*", "0", "#"];
  const fill = chance(rng, 0.5) ? t.fill : vivid(rng);
  keys.forEach((k, i) => {
    const cx = W / 2 + ((i % 3) - 1) * pitch * 1.2;
    const cy = y + r + Math.floor(i / 3) * pitch;
    scene.add(
      { id: id(env, "key"), kind: "control", label: k, rect: { x: cx - r, y: cy - r, w: 2 * r, h: 2 * r } },
      circle(cx, cy, r, fill, chance(rng, 0.3) ? 'fill-opacity="0.4"' : "") +
        scene.shape(k, cx, cy + r * 0.33, { size: r * 0.9, weight: "light", fill: t.fg, anchor: "middle" })
          .svg,
    );
  });
  return y + 4 * pitch + 8;
}

export function segmented(env: Env, y: number): number {
  const { rng, W, t, scene } = env;
  const n = randInt(rng, 2, 4);
  const h = 32;
  const w = (W - 32) / n;
  scene.draw(rect({ x: 16, y, w: W - 32, h }, t.fill, 9));
  const sel = randInt(rng, 0, n - 1);
  for (let i = 0; i < n; i++) {
    const r = { x: 16 + i * w, y, w, h };
    const label = ellipsize(scene.fonts, shortLabel(rng, env.locale), 14, w - 10);
    scene.add(
      { id: id(env, "segment"), kind: "control", label, rect: r },
      (i === sel ? rect({ x: r.x + 2, y: y + 2, w: w - 4, h: h - 4 }, t.cell, 7) : "") +
        scene.shape(label, r.x + w / 2, y + 21, {
          size: 14,
          weight: i === sel ? "semibold" : "regular",
          fill: t.fg,
          anchor: "middle",
        }).svg,
    );
  }
  return y + h + 18;
}

export function card(env: Env, y: number, maxY: number): number {
  const { rng, W, t, scene } = env;
  const h = Math.min(randInt(rng, 120, 220), maxY - y);
  if (h < 100) return y;
  const r = { x: 16, y, w: W - 32, h };
  const imgH = h - 64;
  // The picture is decoration: a photo is not an icon, a control or text.
  scene.draw(
    rect(r, t.cell, 14) +
      rect({ x: r.x, y, w: r.w, h: imgH }, hsl(rng.next() * 360, 0.5, uniform(rng, 0.3, 0.7)), 14) +
      Array.from({ length: 4 }, () =>
        circle(
          r.x + rng.next() * r.w,
          y + rng.next() * imgH,
          uniform(rng, 8, imgH / 2),
          hsl(rng.next() * 360, 0.6, 0.6),
          'fill-opacity="0.6"',
        ),
      ).join(""),
  );
  text(
    env,
    ellipsize(scene.fonts, shortLabel(rng, env.locale), 17, r.w - 24),
    r.x + 12,
    y + imgH + 25,
    17,
    t.fg,
  );
  text(
    env,
    ellipsize(scene.fonts, sentence(rng, env.locale), 13, r.w - 24),
    r.x + 12,
    y + imgH + 47,
    13,
    t.secondary,
  );
  return y + h + 16;
}

export function bottomTabs(env: Env, H: number): number {
  const { rng, W, t, scene } = env;
  const top = H - METRICS.tabBarH - METRICS.homeIndicatorH;
  scene.draw(
    rect({ x: 0, y: top, w: W, h: H - top }, t.bar) + rect({ x: 0, y: top, w: W, h: 0.5 }, t.separator),
  );
  const n = randInt(rng, 3, 5);
  const w = W / n;
  const sel = randInt(rng, 0, n - 1);
  for (let i = 0; i < n; i++) {
    const color = i === sel ? t.tint : t.secondary;
    const cx = w * i + w / 2;
    const label = ellipsize(scene.fonts, shortLabel(rng, env.locale), 10, w - 6);
    scene.add(
      { id: id(env, "tab"), kind: "control", label, rect: { x: w * i, y: top, w, h: METRICS.tabBarH } },
      lineGlyph(rng, cx - 12, top + 5, 24, color) +
        scene.shape(label, cx, top + 42, { size: 10, weight: "semibold", fill: color, anchor: "middle" }).svg,
    );
  }
  return top;
}
