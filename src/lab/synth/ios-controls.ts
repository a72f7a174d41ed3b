import { ellipsize } from "../../sim/phone/scene.js";
import { circle, rect } from "../../sim/phone/svg.js";
import { type Env, id, text } from "./layout-env.js";
import { chance, hsl, pick, randInt, uniform, vivid } from "./pick.js";
import { SYMBOL_NAMES, symbolSvg } from "./symbols.js";
import { shortLabel } from "./words.js";

/**
 * iOS controls at their real metrics, for the synthetic layouts: switches (51×31 pt, on and off),
 * sliders (4 pt track, 28 pt thumb), steppers (94×32 pt), icon-only buttons and navigation bars with
 * symbols at the corners. Classes: a switch, slider, stepper half, segment or text button is a
 * `control`; an icon-only button (a bare symbol) is an `icon`; free text is `text`.
 */

const SHADOW = 'stroke="#0000001f" stroke-width="0.6"';

/** Colours iOS uses for an "off" switch track and for control fills, light and dark. */
export function controlFill(env: Env): string {
  return env.t.dark
    ? pick(env.rng, ["#39393d", "#3a3a3c", "#48484a"])
    : pick(env.rng, ["#e9e9eb", "#e5e5ea", "#dcdce0"]);
}

/** A 51×31 pt switch with its left edge at x and centre cy; on = green (or the tint), off = grey track. */
export function iosSwitch(env: Env, x: number, cy: number, label: string, on = chance(env.rng, 0.5)): void {
  const track = on
    ? chance(env.rng, 0.8)
      ? env.t.dark
        ? "#30d158"
        : "#34c759"
      : env.t.tint
    : controlFill(env);
  const knobX = on ? x + 35.5 : x + 15.5;
  env.scene.add(
    {
      id: id(env, on ? "switch.on" : "switch.off"),
      kind: "control",
      label,
      rect: { x, y: cy - 15.5, w: 51, h: 31 },
    },
    rect({ x, y: cy - 15.5, w: 51, h: 31 }, track, 15.5) +
      circle(knobX, cy + 0.8, 13.7, "#00000018") +
      circle(knobX, cy, 13.5, "#ffffff", SHADOW),
  );
}

/** A slider across [x, x + w] at centre cy: 4 pt track, 28 pt white thumb; min/max symbols optional. */
export function iosSlider(env: Env, x: number, cy: number, w: number): void {
  const { rng, scene, t } = env;
  let left = x;
  let right = x + w;
  if (chance(rng, 0.5)) {
    const name = pick(rng, ["speaker.wave.2", "bolt.fill", "moon.fill", "minus", "photo"]);
    scene.draw(
      symbolSvg(rng, x, cy - 9, 18, t.secondary, t.bg, name) +
        symbolSvg(rng, x + w - 22, cy - 11, 22, t.secondary, t.bg, name),
    );
    left += 30;
    right -= 32;
  }
  const v = uniform(rng, 0, 1);
  const tx = left + 14 + v * (right - left - 28);
  env.scene.add(
    {
      id: id(env, "slider"),
      kind: "control",
      label: `${Math.round(v * 100)}%`,
      rect: { x: left, y: cy - 14, w: right - left, h: 28 },
    },
    rect({ x: left, y: cy - 2, w: right - left, h: 4 }, controlFill(env), 2) +
      rect({ x: left, y: cy - 2, w: tx - left, h: 4 }, chance(rng, 0.7) ? t.tint : vivid(rng), 2) +
      circle(tx, cy + 1, 14, "#00000014") +
      circle(tx, cy, 14, "#ffffff", SHADOW),
  );
}

/** A 94×32 pt stepper (−|+) whose right edge is at `right`; each half is a control. */
export function iosStepper(env: Env, right: number, cy: number): void {
  const { scene, t, rng } = env;
  const x = right - 94;
  const bg = t.dark ? "#2c2c2e" : "#eeeeef";
  scene.draw(
    rect({ x, y: cy - 16, w: 94, h: 32 }, bg, 8) +
      rect({ x: x + 46.75, y: cy - 9, w: 0.5, h: 18 }, t.separator),
  );
  const ink = t.fg;
  scene.add(
    {
      id: id(env, "stepper.minus"),
      kind: "control",
      label: "decrement",
      rect: { x, y: cy - 16, w: 47, h: 32 },
    },
    symbolSvg(rng, x + 15, cy - 8, 16, ink, bg, "minus"),
  );
  scene.add(
    {
      id: id(env, "stepper.plus"),
      kind: "control",
      label: "increment",
      rect: { x: x + 47, y: cy - 16, w: 47, h: 32 },
    },
    symbolSvg(rng, x + 62, cy - 8, 16, ink, bg, "plus"),
  );
}

/** An icon-only button: a bare symbol, boxed as an `icon` a little wider than its ink (the tap target). */
export function iconButton(
  env: Env,
  x: number,
  y: number,
  size: number,
  color: string,
  knock: string,
  name?: string,
): void {
  const pad = size * 0.08;
  env.scene.add(
    {
      id: id(env, "iconbtn"),
      kind: "icon",
      label: name ?? "",
      rect: { x: x - pad, y: y - pad, w: size + 2 * pad, h: size + 2 * pad },
    },
    symbolSvg(env.rng, x, y, size, color, knock, name),
  );
}

/** The symbols real navigation bars and toolbars put at their corners. */
const NAV_SYMBOLS = [
  "plus",
  "ellipsis.circle",
  "ellipsis",
  "square.and.pencil",
  "magnifyingglass",
  "info.circle",
  "gear",
  "person.crop.circle",
  "questionmark.circle",
  "square.and.arrow.up",
  "trash",
  "heart",
  "bell",
  "line.3.horizontal",
  "slider.horizontal.3",
  "xmark",
  "xmark.circle.fill",
  "arrow.clockwise",
  "camera",
  "phone",
  "star",
] as const;

/**
 * A navigation bar below the status bar (top 47 pt, 44 pt tall): a back chevron (alone or with a
 * title), or a text button, on the left; 1–3 symbols or a text button on the right; a centred title.
 * Returns the y where content starts.
 */
export function iconNavBar(env: Env, top: number): number {
  const { rng, scene, t, W, locale } = env;
  const bar = chance(rng, 0.5) ? t.bar : t.bg;
  scene.draw(rect({ x: 0, y: 0, w: W, h: top + 44 }, bar));
  if (chance(rng, 0.5)) scene.draw(rect({ x: 0, y: top + 43.5, w: W, h: 0.5 }, t.separator));
  const cy = top + 22;
  const size = randInt(rng, 20, 26);
  const leftKind = pick(rng, ["chevron", "chevron-label", "text", "symbol", "none"] as const);
  if (leftKind === "chevron" || leftKind === "chevron-label") {
    const label = leftKind === "chevron-label" ? ellipsize(scene.fonts, shortLabel(rng, locale), 17, 84) : "";
    const s = label ? scene.shape(label, 30, cy + 6, { size: 17, fill: t.tint }) : null;
    scene.add(
      {
        id: id(env, "nav.back"),
        kind: label ? "control" : "icon",
        label: label || "back",
        rect: { x: 6, y: cy - 14, w: s ? s.rect.x + s.width - 2 : 24, h: 28 },
      },
      symbolSvg(rng, 8, cy - 11, 22, t.tint, bar, "chevron.left") + (s?.svg ?? ""),
    );
  } else if (leftKind === "text") textButton(env, 16, cy, "start");
  else if (leftKind === "symbol")
    iconButton(env, 16, cy - size / 2, size, t.tint, bar, pick(rng, NAV_SYMBOLS));
  const n = chance(rng, 0.25) ? 0 : randInt(rng, 1, 3);
  if (n === 1 && chance(rng, 0.35)) textButton(env, W - 16, cy, "end");
  else
    for (let i = 0; i < n; i++)
      iconButton(
        env,
        W - 16 - size - i * (size + 18),
        cy - size / 2,
        size,
        t.tint,
        bar,
        pick(rng, NAV_SYMBOLS),
      );
  if (chance(rng, 0.7)) {
    const title = ellipsize(scene.fonts, shortLabel(rng, locale), 17, W - 230);
    scene.text(id(env, "nav.title"), title, W / 2, cy + 6, {
      size: 17,
      weight: "semibold",
      fill: t.fg,
      anchor: "middle",
    });
  }
  let y = top + 44;
  if (chance(rng, 0.5)) {
    // Large title (34 pt bold in iOS; our heaviest weight is semibold).
    const big = ellipsize(scene.fonts, shortLabel(rng, locale), 34, W - 32);
    text(env, big, 16, y + 41, 34, t.fg);
    y += 52;
  }
  return y + 8;
}

/** A text button (tint, 17 pt) anchored at x; a `control`. */
function textButton(env: Env, x: number, cy: number, anchor: "start" | "end"): void {
  const { rng, scene, t } = env;
  const label =
    env.locale === "en"
      ? pick(rng, ["Edit", "Done", "Cancel", "Save", "Add", "Select", "Close", "Next", "Send"])
      : pick(rng, ["编辑", "完成", "取消", "保存", "添加", "选择", "关闭", "发送"]);
  const s = scene.shape(label, x, cy + 6, {
    size: 17,
    fill: t.tint,
    anchor,
    weight: chance(rng, 0.4) ? "semibold" : "regular",
  });
  scene.add(
    {
      id: id(env, "navbtn"),
      kind: "control",
      label,
      rect: { x: s.rect.x - 4, y: cy - 14, w: s.width + 8, h: 28 },
    },
    s.svg,
  );
}

/** A row of 2–6 symbols spread across the width (a bottom toolbar, Photos/Safari style); `icon`s. */
export function symbolToolbar(env: Env, y: number): number {
  const { rng, W, t } = env;
  const n = randInt(rng, 2, 6);
  const size = randInt(rng, 20, 28);
  const color = chance(rng, 0.7) ? t.tint : t.fg;
  for (let i = 0; i < n; i++) {
    const x = 20 + ((W - 40 - size) * i) / Math.max(1, n - 1);
    iconButton(env, x, y, size, color, t.bg, pick(rng, SYMBOL_NAMES));
  }
  return y + size + 20;
}

/** A tinted or grey circular button with a symbol inside (share sheet actions, player controls). */
export function circleButtons(env: Env, y: number): number {
  const { rng, W, t, scene } = env;
  const n = randInt(rng, 2, 5);
  const d = randInt(rng, 44, 64);
  const pitch = (W - 32) / n;
  const grey = chance(rng, 0.5);
  const bg = grey ? controlFill(env) : chance(rng, 0.5) ? t.tint : hsl(rng.next() * 360, 0.6, 0.5);
  const ink = grey ? t.fg : "#ffffff";
  const captions = chance(rng, 0.6);
  for (let i = 0; i < n; i++) {
    const cx = 16 + pitch * i + pitch / 2;
    const s = d * uniform(rng, 0.42, 0.55);
    scene.add(
      { id: id(env, "roundbtn"), kind: "icon", label: "", rect: { x: cx - d / 2, y, w: d, h: d } },
      circle(cx, y + d / 2, d / 2, bg) + symbolSvg(rng, cx - s / 2, y + d / 2 - s / 2, s, ink, bg),
    );
    if (captions)
      text(
        env,
        ellipsize(scene.fonts, shortLabel(rng, env.locale), 12, pitch - 4),
        cx,
        y + d + 16,
        12,
        t.fg,
        "middle",
      );
  }
  return y + d + (captions ? 30 : 14);
}

/** A search field (36 pt, radius 10) with a magnifier, placeholder and sometimes a clear ⊗ and mic. */
export function iosSearchField(env: Env, y: number): number {
  const { rng, W, t, scene } = env;
  const bg = t.dark ? "#1c1c1e" : "#e3e3e8";
  const r = { x: 16, y, w: W - 32 - (chance(rng, 0.3) ? 70 : 0), h: 36 };
  const typed = chance(rng, 0.4);
  const label = typed ? shortLabel(rng, env.locale) : env.locale === "en" ? "Search" : "搜索";
  scene.add(
    { id: id(env, "search"), kind: "control", label, rect: r },
    rect(r, bg, 10) +
      symbolSvg(rng, r.x + 8, y + 10, 16, t.secondary, bg, "magnifyingglass") +
      scene.shape(label, r.x + 31, y + 24, { size: 17, fill: typed ? t.fg : t.secondary }).svg,
  );
  if (typed) iconButton(env, r.x + r.w - 26, y + 9, 18, t.secondary, bg, "xmark.circle.fill");
  else if (chance(rng, 0.6)) iconButton(env, r.x + r.w - 26, y + 9, 18, t.secondary, bg, "mic.fill");
  if (r.w < W - 32) {
    const s = scene.shape(env.locale === "en" ? "Cancel" : "取消", W - 16, y + 24, {
      size: 17,
      fill: t.tint,
      anchor: "end",
    });
    scene.add(
      {
        id: id(env, "cancel"),
        kind: "control",
        label: "Cancel",
        rect: { x: s.rect.x - 4, y: y + 4, w: s.width + 8, h: 28 },
      },
      s.svg,
    );
  }
  return y + 36 + 14;
}
