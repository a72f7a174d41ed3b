import type { FontBook } from "../../shared/fonts.js";
import { METRICS } from "../../sim/phone/context.js";
import { ellipsize, Scene } from "../../sim/phone/scene.js";
import { homeIndicator, notch, statusBar } from "../../sim/phone/screens/chrome.js";
import { rect } from "../../sim/phone/svg.js";
import type { Random } from "../../util/random.js";
import { tileIcon } from "./glyphs.js";
import {
  circleButtons,
  iconButton,
  iconNavBar,
  iosSearchField,
  iosSlider,
  symbolToolbar,
} from "./ios-controls.js";
import { dialPad, keyboard } from "./ios-keyboard.js";
import { bubbles, groupedSection } from "./ios-lists.js";
import { buttons, paragraph, randomTheme } from "./layout.js";
import { chromeCtx, type Env, id, text } from "./layout-env.js";
import { segmented } from "./layout-more.js";
import { chance, hsl, pick, randInt, uniform } from "./pick.js";
import { symbolSvg } from "./symbols.js";
import { shortLabel } from "./words.js";

/**
 * Whole iOS-style screens at real metrics (17 pt body, 34 pt large titles, 44 pt rows): Settings-like
 * grouped lists, a chat or search with the keyboard up, the Phone keypad, a home screen over a
 * generated wallpaper, and forms of sliders, steppers, segmented controls and symbol toolbars. Light
 * or dark, English or Chinese. See ios-controls.ts for which kind is labelled as which class.
 */

type ScreenKind = "settings" | "keyboard" | "dialpad" | "home" | "form";

const KINDS: readonly ScreenKind[] = [
  "settings",
  "settings",
  "keyboard",
  "keyboard",
  "dialpad",
  "home",
  "home",
  "form",
  "form",
];

/** Draw one random iOS-style screen into a fresh Scene of `W`×`H` points. */
export function iosScreen(rng: Random, fonts: FontBook, W: number, H: number): Scene {
  const scene = new Scene(fonts, W, H, "i");
  const locale = chance(rng, 0.6) ? "en" : "zh";
  const t = randomTheme(rng);
  const classic = H / W < 2; // a Home-button phone (375×667 pt): 20 pt status bar, no home indicator
  const env: Env = {
    rng,
    scene,
    locale,
    t,
    W,
    seq: 0,
    safeTop: classic ? 20 : 47,
    safeBottom: classic ? 0 : 34,
  };
  const ctx = chromeCtx(rng, fonts, locale, t, W, H);
  const kind = pick(rng, KINDS);
  let lightChrome = t.dark;
  if (kind === "home") lightChrome = homeScreen(env, H);
  else {
    scene.draw(rect({ x: 0, y: 0, w: W, h: H }, kind === "settings" && !t.dark ? "#f2f2f7" : t.bg));
    if (kind === "settings") settingsScreen(env, H);
    else if (kind === "keyboard") keyboardScreen(env, H);
    else if (kind === "dialpad") dialScreen(env, H);
    else formScreen(env, H);
  }
  if (classic) {
    classicStatusBar(env, ctx.wall.hours, ctx.wall.minutes, lightChrome);
    return scene;
  }
  statusBar(scene, ctx, lightChrome);
  if (chance(rng, 0.5)) notch(scene, ctx);
  else scene.draw(rect({ x: W / 2 - 63, y: 11, w: 126, h: 37 }, "#000000", 18.5)); // Dynamic Island
  homeIndicator(scene, ctx, lightChrome);
  return scene;
}

/** The 20 pt status bar of Home-button iPhones: carrier and Wi-Fi left, time centred, battery right. */
function classicStatusBar(env: Env, hour: number, minute: number, light: boolean): void {
  const { scene, W, rng } = env;
  const ink = light ? "#ffffff" : "#000000";
  const time = `${hour % 12 || 12}:${String(minute).padStart(2, "0")}${chance(rng, 0.5) ? (hour < 12 ? " AM" : " PM") : ""}`;
  scene.text(id(env, "status.time"), time, W / 2, 15, {
    size: 12,
    weight: "semibold",
    fill: ink,
    anchor: "middle",
  });
  if (chance(rng, 0.6))
    scene.draw(
      scene.shape(pick(rng, ["Carrier", "中国移动", "AT&T", "Verizon"]), 6, 15, { size: 12, fill: ink }).svg,
    );
  scene.add(
    {
      id: id(env, "status.battery"),
      kind: "icon",
      label: "battery",
      rect: { x: W - 32, y: 5, w: 26, h: 11 },
    },
    rect({ x: W - 32, y: 5, w: 24, h: 11 }, "none", 3, `stroke="${ink}" stroke-width="1"`) +
      rect({ x: W - 30, y: 7, w: 20 * uniform(rng, 0.1, 1), h: 7 }, ink, 1.5),
  );
}

function settingsScreen(env: Env, H: number): void {
  const { rng } = env;
  const TOP = env.safeTop ?? 47;
  let y = iconNavBar(env, TOP);
  if (chance(env.rng, 0.4)) y = iosSearchField(env, y);
  const bottom = chance(rng, 0.3) ? tabBar(env, H) : H - (env.safeBottom ?? 34);
  env.scene.beginClip({ x: 0, y: 0, w: env.W, h: bottom });
  for (let guard = 0; guard < 8 && y < bottom - 50; guard++) y = groupedSection(env, y, bottom);
  env.scene.endClip();
}

function keyboardScreen(env: Env, H: number): void {
  const { rng, scene, t, W, locale } = env;
  const TOP = env.safeTop ?? 47;
  const kbTop = keyboard(env, H);
  const chat = chance(rng, 0.6);
  let y = chat ? iconNavBar(env, TOP) : iosSearchField(env, TOP + 8);
  const barH = chat ? 52 : 0;
  scene.beginClip({ x: 0, y: 0, w: W, h: kbTop - barH });
  if (chat) y = bubbles(env, y + 8, kbTop - barH - 8);
  else for (let guard = 0; guard < 4 && y < kbTop - 60; guard++) y = groupedSection(env, y, kbTop - 8);
  scene.endClip();
  if (!chat) return;
  const by = kbTop - barH;
  scene.draw(rect({ x: 0, y: by, w: W, h: barH }, t.bg));
  iconButton(env, 12, by + 11, 30, t.secondary, t.bg, pick(rng, ["plus.circle.fill", "camera.fill", "plus"]));
  const field = { x: 54, y: by + 8, w: W - 66, h: 36 };
  const typed = chance(rng, 0.5);
  const label = typed
    ? shortLabel(rng, locale)
    : locale === "en"
      ? pick(rng, ["iMessage", "Text Message", "Message"])
      : "信息";
  scene.add(
    { id: id(env, "compose"), kind: "control", label, rect: field },
    rect(field, t.bg, 18, `stroke="${t.separator}" stroke-width="1"`) +
      scene.shape(ellipsize(scene.fonts, label, 17, field.w - 50), field.x + 14, field.y + 24, {
        size: 17,
        fill: typed ? t.fg : t.secondary,
      }).svg,
  );
  if (typed)
    iconButton(env, field.x + field.w - 32, by + 11, 30, "#0a84ff", "#ffffff", "arrow.up.circle.fill");
  else iconButton(env, field.x + field.w - 30, by + 15, 22, t.secondary, t.bg, "mic");
}

function dialScreen(env: Env, H: number): void {
  const bottom = tabBar(env, H, [
    "star.fill",
    "clock",
    "person.crop.circle",
    "square.grid.2x2",
    "speaker.wave.2",
  ]);
  const TOP = env.safeTop ?? 47;
  const room = bottom - TOP;
  dialPad(env, TOP + Math.max(0, room - 640) * uniform(env.rng, 0.3, 0.7));
}

function formScreen(env: Env, H: number): void {
  const { rng, scene, W } = env;
  const TOP = env.safeTop ?? 47;
  let y = iconNavBar(env, TOP);
  const bottom = chance(rng, 0.5) ? tabBar(env, H) : H - (env.safeBottom ?? 34);
  scene.beginClip({ x: 0, y: 0, w: W, h: bottom });
  const sections = [
    (e: Env, yy: number) => sliderRow(e, yy),
    (e: Env, yy: number) => segmented(e, yy + 4),
    circleButtons,
    symbolToolbar,
    iosSearchField,
    (e: Env, yy: number, max: number) => groupedSection(e, yy, max),
    buttons,
    (e: Env, yy: number, max: number) => paragraph(e, yy, max),
  ] as const;
  for (let guard = 0; guard < 10 && y < bottom - 60; guard++) y = pick(rng, sections)(env, y, bottom);
  scene.endClip();
}

function sliderRow(env: Env, y: number): number {
  if (chance(env.rng, 0.5)) {
    text(env, shortLabel(env.rng, env.locale), 16, y + 18, 15, env.t.secondary);
    y += 26;
  }
  iosSlider(env, 16, y + 18, env.W - 32);
  return y + 48;
}

/** A tab bar of 3–5 items (symbol + 10 pt caption), the selected one tinted and filled; each a `control`. */
function tabBar(env: Env, H: number, names?: readonly string[]): number {
  const { rng, W, t, scene, locale } = env;
  const top = H - METRICS.tabBarH - (env.safeBottom ?? 34);
  const bar = t.dark ? "#121212" : "#f9f9f9";
  scene.draw(
    rect({ x: 0, y: top, w: W, h: H - top }, bar) + rect({ x: 0, y: top, w: W, h: 0.33 }, t.separator),
  );
  const n = names?.length ?? randInt(rng, 3, 5);
  const w = W / n;
  const sel = randInt(rng, 0, n - 1);
  const size = randInt(rng, 22, 28);
  for (let i = 0; i < n; i++) {
    const color = i === sel ? t.tint : t.dark ? "#8d8d93" : "#999999";
    const cx = w * i + w / 2;
    const label = ellipsize(scene.fonts, shortLabel(rng, locale), 10, w - 6);
    scene.add(
      { id: id(env, "tab"), kind: "control", label, rect: { x: w * i + 4, y: top + 2, w: w - 8, h: 45 } },
      symbolSvg(rng, cx - size / 2, top + 5, size, color, bar, names?.[i]) +
        scene.shape(label, cx, top + 42, { size: 10, weight: "semibold", fill: color, anchor: "middle" }).svg,
    );
  }
  return top;
}

/**
 * A wallpaper as an SVG fragment: a 2–4 stop gradient, soft colour blobs and sometimes film grain or
 * a cloudy "photo" texture (SVG turbulence) — the busy backgrounds real home screens put icons on.
 */
export function wallpaper(rng: Random, W: number, H: number): { svg: string; light: boolean } {
  const hue = rng.next() * 360;
  const light = chance(rng, 0.3);
  const nStops = randInt(rng, 2, 4);
  const stops = Array.from({ length: nStops }, (_, i) => {
    const l = light ? uniform(rng, 0.6, 0.9) : uniform(rng, 0.12, 0.5);
    const c = hsl((hue + uniform(rng, -70, 70) + 360) % 360, uniform(rng, 0.3, 0.9), l);
    return `<stop offset="${(i / (nStops - 1)).toFixed(2)}" stop-color="${c}"/>`;
  }).join("");
  const x2 = uniform(rng, 0, 1).toFixed(2);
  let svg = `<defs><linearGradient id="wpg" x1="0" y1="0" x2="${x2}" y2="1">${stops}</linearGradient><filter id="wpb" x="-50%" y="-50%" width="200%" height="200%"><feGaussianBlur stdDeviation="${randInt(rng, 20, 50)}"/></filter>`;
  const grain = chance(rng, 0.4);
  const cloudy = chance(rng, 0.35);
  if (grain || cloudy)
    svg += `<filter id="wpn"><feTurbulence type="fractalNoise" baseFrequency="${cloudy ? uniform(rng, 0.006, 0.03).toFixed(3) : uniform(rng, 0.5, 0.9).toFixed(2)}" numOctaves="${cloudy ? 4 : 2}" seed="${randInt(rng, 1, 999)}"/><feColorMatrix type="saturate" values="${cloudy ? uniform(rng, 0.5, 1.5).toFixed(2) : "0"}"/></filter>`;
  svg += `</defs>${rect({ x: 0, y: 0, w: W, h: H }, "url(#wpg)")}`;
  const blobs = Array.from({ length: randInt(rng, 0, 5) }, () => {
    const c = hsl(
      rng.next() * 360,
      uniform(rng, 0.4, 0.9),
      light ? uniform(rng, 0.6, 0.85) : uniform(rng, 0.25, 0.6),
    );
    return `<circle cx="${(rng.next() * W).toFixed(1)}" cy="${(rng.next() * H).toFixed(1)}" r="${uniform(rng, 60, 220).toFixed(1)}" fill="${c}" fill-opacity="${uniform(rng, 0.4, 0.9).toFixed(2)}"/>`;
  }).join("");
  if (blobs) svg += `<g filter="url(#wpb)">${blobs}</g>`;
  if (grain || cloudy)
    svg += `<rect x="0" y="0" width="${W}" height="${H}" filter="url(#wpn)" opacity="${cloudy ? uniform(rng, 0.35, 0.7).toFixed(2) : uniform(rng, 0.06, 0.16).toFixed(2)}"/>`;
  return { svg, light };
}

/** Home screen: app icons (60 pt tiles, 4 columns) with 12 pt names over a wallpaper, a dock; returns whether the chrome is white. */
function homeScreen(env: Env, H: number): boolean {
  const { rng, scene, W, locale } = env;
  const wp = wallpaper(rng, W, H);
  scene.draw(wp.svg);
  const ink = wp.light && chance(rng, 0.5) ? "#000000" : "#ffffff";
  const size = randInt(rng, 56, 64);
  const margin = randInt(rng, 22, 30);
  const pitchX = (W - 2 * margin - size) / 3;
  const pitchY = randInt(rng, 88, 100);
  const dockH = chance(rng, 0.85) ? 92 : 0;
  const dockTop = H - (env.safeBottom ?? 34) - dockH - (dockH ? 0 : 10) + (env.safeBottom ? 0 : 4);
  let y = (env.safeTop ?? 47) + randInt(rng, 10, 24);
  const rowsMax = Math.floor((dockTop - 60 - y) / pitchY);
  const rows = randInt(rng, Math.min(2, rowsMax), rowsMax);
  let widget = false;
  for (let r = 0; r < rows; r++) {
    if (r === 0 && rows > 1 && chance(rng, 0.25)) {
      widget = true;
      // A 2×2 widget: a tappable card with text on it.
      const wr = { x: margin, y, w: pitchX + size, h: pitchY + size };
      const card = hsl(rng.next() * 360, 0.3, chance(rng, 0.5) ? 0.95 : 0.2);
      const dark = card.startsWith("#3") || card.startsWith("#2");
      scene.add(
        { id: id(env, "widget"), kind: "control", label: "widget", rect: wr },
        rect(wr, card, 22) +
          scene.shape(shortLabel(rng, locale).slice(0, 12), wr.x + 14, wr.y + 30, {
            size: 15,
            weight: "semibold",
            fill: dark ? "#fff" : "#000",
          }).svg,
      );
    }
    for (let c = 0; c < 4; c++) {
      if (widget && r < 2 && c < 2) continue;
      if (r === rows - 1 && chance(rng, 0.3)) continue;
      const x = margin + c * pitchX;
      const name = ellipsize(scene.fonts, shortLabel(rng, locale), 12, pitchX - 4);
      scene.add(
        { id: id(env, "app"), kind: "icon", label: name, rect: { x, y, w: size, h: size } },
        tileIcon(rng, x, y, size, "squircle"),
      );
      scene.text(id(env, "appname"), name, x + size / 2, y + size + 15, {
        size: 12,
        fill: ink,
        anchor: "middle",
      });
      if (chance(rng, 0.06)) {
        const n = String(randInt(rng, 1, 99));
        const bw = Math.max(22, 10 + n.length * 8);
        scene.add(
          {
            id: id(env, "badge"),
            kind: "icon",
            label: n,
            rect: { x: x + size - bw + 8, y: y - 6, w: bw, h: 22 },
          },
          rect({ x: x + size - bw + 8, y: y - 6, w: bw, h: 22 }, "#ff3b30", 11) +
            scene.shape(n, x + size - bw / 2 + 8, y + 10, { size: 14, fill: "#fff", anchor: "middle" }).svg,
        );
      }
    }
    y += pitchY;
  }
  const pillY = dockTop - (dockH ? 44 : 40);
  if (chance(rng, 0.6)) {
    const label = locale === "en" ? "Search" : "搜索";
    const s = scene.shape(label, W / 2 + 9, pillY + 21, {
      size: 13,
      weight: "semibold",
      fill: ink,
      anchor: "middle",
    });
    const pill = { x: W / 2 - s.width / 2 - 24, y: pillY, w: s.width + 40, h: 30 };
    scene.add(
      { id: id(env, "spotlight"), kind: "control", label, rect: pill },
      rect(pill, ink === "#ffffff" ? "#ffffff" : "#000000", 15, 'fill-opacity="0.22"') +
        symbolSvg(rng, pill.x + 11, pillY + 8, 13, ink, "#888", "magnifyingglass") +
        s.svg,
    );
  } else
    scene.draw(
      [-1, 0, 1]
        .map(
          (i) =>
            `<circle cx="${W / 2 + i * 14}" cy="${pillY + 15}" r="3.5" fill="${ink}" fill-opacity="${i ? 0.4 : 0.95}"/>`,
        )
        .join(""),
    );
  if (dockH) {
    scene.draw(
      rect(
        { x: 12, y: dockTop, w: W - 24, h: dockH },
        pick(rng, ["#ffffff", "#d8d8d8", "#333333"]),
        32,
        `fill-opacity="${uniform(rng, 0.2, 0.45).toFixed(2)}"`,
      ),
    );
    const n = randInt(rng, 3, 4);
    const dockPitch = (W - 2 * margin - size) / (n - 1);
    for (let i = 0; i < n; i++) {
      const x = margin + i * dockPitch;
      scene.add(
        {
          id: id(env, "dock"),
          kind: "icon",
          label: "",
          rect: { x, y: dockTop + (dockH - size) / 2, w: size, h: size },
        },
        tileIcon(rng, x, dockTop + (dockH - size) / 2, size, "squircle"),
      );
    }
  }
  return ink === "#ffffff";
}
