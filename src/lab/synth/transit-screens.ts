import type { FontBook } from "../../shared/fonts.js";
import { METRICS } from "../../sim/phone/context.js";
import { ellipsize, Scene } from "../../sim/phone/scene.js";
import { homeIndicator, notch, statusBar } from "../../sim/phone/screens/chrome.js";
import { rect } from "../../sim/phone/svg.js";
import type { Random } from "../../util/random.js";
import { randomTheme } from "./layout.js";
import { chromeCtx } from "./layout-env.js";
import { chance, pick, randInt } from "./pick.js";
import { symbolSvg } from "./symbols.js";
import {
  line1,
  mapRegion,
  prediction,
  randomRoute,
  routeBadge,
  type TransitEnv,
  type TransitTruth,
} from "./transit-parts.js";

/**
 * Transit-arrival screens at iOS metrics (Apple HIG / UIKit defaults: 17 pt body, 13–15 pt captions,
 * 34 pt large title, 36 pt search field, 32 pt segmented control, 49 pt tab bar with 10 pt captions,
 * a sheet's 36×5 pt grabber): a list of nearby stops or one stop's departures, each row a coloured route
 * badge, the route or stop name, a grey direction caption and an arrival prediction, sometimes a
 * favourite star; sometimes a map above with the list in a sheet. Light or dark, English or Chinese.
 * Returns the scene and its truth in the real-screen label format (points; see transit-set.ts).
 */

const EN = {
  titles: ["Nearby", "Favorites", "Departures", "Stops", "Arrivals"],
  segs: [
    ["Nearby", "Favorites"],
    ["Arrivals", "Map"],
    ["Inbound", "Outbound"],
  ],
  tabs: ["Nearby", "Favorites", "Map", "Alerts", "Settings"],
  stops: [
    "Market St & 4th St",
    "Church St Station",
    "Van Ness Ave & Geary Blvd",
    "Embarcadero",
    "Castro Station",
    "Union Square",
    "Times Sq-42 St",
    "Grand Central",
    "Canal St",
    "Oxford Circus",
    "King's Cross",
    "Brixton",
    "Balboa Park",
    "Judah St & 19th Ave",
  ],
  dirs: [
    "Outbound to Ocean Beach",
    "Inbound to Caltrain",
    "Uptown & The Bronx",
    "Downtown & Brooklyn",
    "Northbound to Walthamstow",
    "Towards Brixton",
    "Outbound to Balboa Park",
    "Inbound to Downtown",
    "Eastbound",
    "Westbound to Ocean Beach",
  ],
  header: ["NEARBY STOPS", "FAVORITES", "NEXT DEPARTURES", "ROUTES"],
  search: "Search for a stop or route",
  back: "Back",
};
const ZH = {
  titles: ["附近", "收藏", "实时公交", "站点", "到站"],
  segs: [
    ["附近", "收藏"],
    ["到站", "地图"],
    ["上行", "下行"],
  ],
  tabs: ["附近", "收藏", "地图", "消息", "设置"],
  stops: [
    "人民广场",
    "徐家汇",
    "静安寺",
    "陆家嘴",
    "南京东路",
    "中山公园",
    "虹桥火车站",
    "世纪大道",
    "西湖文化广场",
  ],
  dirs: [
    "开往 浦东国际机场",
    "开往 莘庄",
    "往 火车站方向",
    "开往 汽车南站",
    "往 市中心方向",
    "开往 江湾体育场",
  ],
  header: ["附近站点", "我的收藏", "即将到站"],
  search: "搜索站点或线路",
  back: "返回",
};

export interface TransitScreen {
  scene: Scene;
  truth: TransitTruth;
  locale: "en" | "zh";
  dark: boolean;
  /** Status bar height in points (its box is the full width above this). */
  statusH: number;
}

/** Draw one random transit-arrival screen into a fresh Scene of `W`×`H` points. */
export function transitScreen(rng: Random, fonts: FontBook, W: number, H: number): TransitScreen {
  const scene = new Scene(fonts, W, H, "t");
  const locale = chance(rng, 0.65) ? "en" : "zh";
  const t = randomTheme(rng);
  const truth: TransitTruth = { text: [], elements: [], unlabelled: [] };
  const env: TransitEnv = { rng, scene, locale, t, W, seq: 0, safeTop: 47, safeBottom: 34, truth };
  const ctx = chromeCtx(rng, fonts, locale, t, W, H);
  const words = locale === "en" ? EN : ZH;
  scene.draw(rect({ x: 0, y: 0, w: W, h: H }, t.bg));
  const withMap = chance(rng, 0.35);
  const tabs = chance(rng, 0.6);
  const bottom = tabs ? H - METRICS.tabBarH - 34 : H - 34;
  let y = 47;
  if (withMap) {
    const mapH = Math.round(H * (0.3 + rng.next() * 0.2));
    mapRegion(env, { x: 0, y: 0, w: W, h: mapH + 12 });
    locateButton(env, W - 60, 60);
    y = sheetTop(env, mapH);
  } else if (chance(rng, 0.5)) {
    line1(env, pick(rng, words.titles), 16, y + 44, 34, t.fg, "semibold");
    y += 60;
  } else {
    const back = line1(env, words.back, 34, y + 28, 17, t.tint);
    scene.draw(symbolSvg(rng, 8, y + 12, 20, t.tint, t.bg, "chevron.left"));
    truth.elements.push({
      kind: "button",
      label: words.back,
      iconOnly: false,
      rect: { ...back, x: 6, w: back.w + 30 },
    });
    const title = ellipsize(fonts, pick(rng, words.stops), 17, W - 180);
    line1(env, title, W / 2, y + 28, 17, t.fg, "semibold", "middle");
    starButton(env, W - 44, y + 10, true);
    y += 52;
  }
  if (chance(rng, 0.5)) y = searchField(env, y, words.search);
  if (chance(rng, 0.5)) y = segmented(env, y, pick(rng, words.segs));
  if (chance(rng, 0.6)) {
    line1(env, pick(rng, words.header), 16, y + 22, 13, t.secondary);
    y += 32;
  }
  const rowH = randInt(rng, 60, 72);
  while (y + rowH <= bottom) {
    arrivalRow(env, y, rowH, words);
    y += rowH;
  }
  if (tabs) tabBar(env, H, words.tabs);
  statusBar(scene, ctx, t.dark);
  if (chance(rng, 0.5)) notch(scene, ctx);
  else scene.draw(rect({ x: W / 2 - 63, y: 11, w: 126, h: 37 }, "#000000", 18.5));
  homeIndicator(scene, ctx, t.dark);
  return { scene, truth, locale, dark: t.dark, statusH: 47 };
}

/** One arrival row: badge, name, grey direction caption, prediction at the right, maybe a star. */
function arrivalRow(env: TransitEnv, y: number, h: number, words: typeof EN): void {
  const { rng, scene, t, W } = env;
  const route = randomRoute(rng, env.locale);
  const badge = randInt(rng, 28, 40);
  const cy = y + h / 2;
  const textX = routeBadge(env, route, 16, cy, badge) + 12;
  const star = chance(rng, 0.3);
  const right = star ? W - 52 : W - 16;
  const predLeft = prediction(env, right, cy + 7, route.bg === "#000000" ? t.tint : t.tint);
  const nameSize = 17;
  const max = predLeft - 10 - textX;
  const name = ellipsize(
    scene.fonts,
    chance(rng, 0.5) ? pick(rng, words.stops) : pick(rng, words.dirs),
    nameSize,
    max,
  );
  const nameBox = line1(env, name, textX, cy - 3, nameSize, t.fg, chance(rng, 0.5) ? "semibold" : "regular");
  line1(env, ellipsize(scene.fonts, pick(rng, words.dirs), 14, max), textX, cy + 17, 14, t.secondary);
  scene.draw(rect({ x: textX, y: y + h - 0.33, w: W - textX, h: 0.33 }, t.separator));
  env.truth.elements.push({
    kind: "row",
    label: nameBox ? name : "",
    iconOnly: false,
    rect: { x: 0, y, w: W, h },
  });
  if (star) starButton(env, W - 44, cy - 12, chance(rng, 0.5));
}

function starButton(env: TransitEnv, x: number, y: number, filled: boolean): void {
  const color = filled ? "#ffcc00" : env.t.tint;
  env.scene.draw(symbolSvg(env.rng, x + 2, y + 2, 20, color, env.t.bg, filled ? "star.fill" : "star"));
  env.truth.elements.push({
    kind: "button",
    label: "favorite",
    iconOnly: true,
    rect: { x: x - 6, y: y - 6, w: 36, h: 36 },
  });
}

/** The map's floating "locate me" button: a 44 pt rounded square with the location arrow. */
function locateButton(env: TransitEnv, x: number, y: number): void {
  const bg = env.t.dark ? "#2c2c2e" : "#ffffff";
  env.scene.draw(
    rect({ x, y, w: 44, h: 44 }, bg, 8) +
      symbolSvg(env.rng, x + 11, y + 11, 22, env.t.tint, bg, "location.fill"),
  );
  env.truth.elements.push({
    kind: "button",
    label: "location",
    iconOnly: true,
    rect: { x, y, w: 44, h: 44 },
  });
}

/** A sheet over the map (10 pt top corners, 36×5 pt grabber 5 pt from its top), returning its content top. */
function sheetTop(env: TransitEnv, top: number): number {
  const { scene, t, W } = env;
  scene.draw(
    rect({ x: 0, y: top, w: W, h: scene.height - top }, t.bg, 10) +
      rect({ x: W / 2 - 18, y: top + 5, w: 36, h: 5 }, t.dark ? "#5a5a5e" : "#c7c7cc", 2.5),
  );
  return top + 16;
}

function searchField(env: TransitEnv, y: number, placeholder: string): number {
  const { scene, t, W } = env;
  const bg = t.dark ? "#1c1c1e" : "#e3e3e8";
  const r = { x: 16, y, w: W - 32, h: 36 };
  scene.draw(rect(r, bg, 10) + symbolSvg(env.rng, r.x + 8, y + 10, 16, t.secondary, bg, "magnifyingglass"));
  line1(env, ellipsize(scene.fonts, placeholder, 17, r.w - 40), r.x + 31, y + 24, 17, t.secondary);
  env.truth.elements.push({ kind: "field", label: placeholder, iconOnly: false, rect: r });
  return y + 36 + 12;
}

function segmented(env: TransitEnv, y: number, names: readonly string[]): number {
  const { scene, t, W } = env;
  const w = (W - 32) / names.length;
  scene.draw(rect({ x: 16, y, w: W - 32, h: 32 }, t.fill, 9));
  const sel = randInt(env.rng, 0, names.length - 1);
  names.forEach((name, i) => {
    const r = { x: 16 + i * w, y, w, h: 32 };
    if (i === sel)
      scene.draw(rect({ x: r.x + 2, y: y + 2, w: w - 4, h: 28 }, t.dark ? "#636366" : "#ffffff", 7));
    line1(env, name, r.x + w / 2, y + 21, 13, t.fg, i === sel ? "semibold" : "regular", "middle");
    env.truth.elements.push({
      kind: "segment",
      label: name,
      iconOnly: false,
      state: i === sel ? "on" : "off",
      rect: r,
    });
  });
  return y + 32 + 14;
}

const TAB_SYMBOLS = ["location.fill", "star.fill", "globe", "bell", "gear"];

function tabBar(env: TransitEnv, H: number, names: readonly string[]): number {
  const { rng, t, scene, W } = env;
  const top = H - METRICS.tabBarH - 34;
  const n = randInt(rng, 3, 5);
  const bar = t.dark ? "#121212" : "#f9f9f9";
  scene.draw(
    rect({ x: 0, y: top, w: W, h: H - top }, bar) + rect({ x: 0, y: top, w: W, h: 0.33 }, t.separator),
  );
  const w = W / n;
  const sel = randInt(rng, 0, n - 1);
  for (let i = 0; i < n; i++) {
    const color = i === sel ? t.tint : t.dark ? "#8d8d93" : "#999999";
    const cx = w * i + w / 2;
    const label = names[i] ?? "";
    scene.draw(symbolSvg(rng, cx - 12, top + 5, 24, color, bar, TAB_SYMBOLS[i]));
    line1(env, label, cx, top + 42, 10, color, "semibold", "middle");
    env.truth.elements.push({
      kind: "tab",
      label,
      iconOnly: false,
      state: i === sel ? "on" : "off",
      rect: { x: w * i + 4, y: top + 2, w: w - 8, h: 45 },
    });
  }
  return top;
}
