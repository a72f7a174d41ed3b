import type { AppId } from "./state.js";
import type { StringKey } from "./strings.js";
import { circle, line, path, rect } from "./svg.js";

/** Title string of each app (icon label, switcher caption, nav title). */
export const APP_TITLE: Record<AppId, StringKey> = {
  clock: "app.clock",
  messages: "app.messages",
  settings: "app.settings",
  weather: "app.weather",
  calendar: "app.calendar",
  photos: "app.photos",
  camera: "app.camera",
  mail: "app.mail",
  notes: "app.notes",
  reminders: "app.reminders",
  maps: "app.maps",
  health: "app.health",
  wallet: "app.wallet",
  books: "app.books",
  appstore: "app.appstore",
  files: "app.files",
  calculator: "app.calculator",
  phone: "app.phone",
  safari: "app.safari",
  music: "app.music",
  contacts: "app.contacts",
  translate: "app.translate",
  stocks: "app.stocks",
  compass: "app.compass",
};

const W = "#ffffff";

/** Background and pictogram of each icon, drawn in a 60×60 box. Distinct colours + shapes per app. */
const ART: Record<AppId, [bg: string, art: () => string]> = {
  clock: [
    "#000000",
    () =>
      circle(30, 30, 24, W) +
      line(30, 30, 30, 13, "#000", 2.5) +
      line(30, 30, 41, 36, "#000", 2.5) +
      line(30, 30, 22, 46, "#ff9500", 1.2) +
      circle(30, 30, 2, "#ff9500"),
  ],
  messages: [
    "#34c759",
    () => `<ellipse cx="30" cy="28" rx="19" ry="15" fill="${W}"/>${path("M17 36 L12 46 L26 40 Z", W)}`,
  ],
  settings: [
    "#8e8e93",
    () => {
      const teeth = Array.from({ length: 8 }, (_, i) =>
        rect({ x: 27, y: 8, w: 6, h: 10 }, "#3a3a3c", 1.5, `transform="rotate(${i * 45} 30 30)"`),
      ).join("");
      return teeth + circle(30, 30, 16, "#3a3a3c") + circle(30, 30, 8, "#c7c7cc");
    },
  ],
  weather: [
    "url(#wxicon)",
    () =>
      circle(24, 24, 10, "#ffd60a") +
      circle(30, 38, 9, W) +
      circle(40, 36, 11, W) +
      rect({ x: 22, y: 38, w: 28, h: 9 }, W, 4.5),
  ],
  calendar: [
    W,
    () =>
      rect({ x: 0, y: 0, w: 60, h: 16 }, "#ff3b30") +
      Array.from({ length: 12 }, (_, i) =>
        rect(
          { x: 10 + (i % 4) * 11, y: 22 + Math.floor(i / 4) * 11, w: 7, h: 7 },
          i === 5 ? "#ff3b30" : "#3a3a3c",
          1.5,
        ),
      ).join(""),
  ],
  photos: [
    W,
    () =>
      ["#ff9500", "#ffcc00", "#34c759", "#30b0c7", "#007aff", "#5856d6", "#af52de", "#ff2d55"]
        .map(
          (c, i) =>
            `<ellipse cx="30" cy="18" rx="6" ry="11" fill="${c}" fill-opacity="0.85" transform="rotate(${i * 45} 30 30)"/>`,
        )
        .join(""),
  ],
  camera: [
    "#d1d1d6",
    () =>
      rect({ x: 9, y: 19, w: 42, h: 28 }, "#1c1c1e", 5) +
      rect({ x: 22, y: 14, w: 16, h: 7 }, "#1c1c1e", 2) +
      circle(30, 33, 10, "#8e8e93") +
      circle(30, 33, 6, "#1c1c1e"),
  ],
  mail: [
    "#1e8cfa",
    () =>
      rect({ x: 10, y: 17, w: 40, h: 27 }, W, 3) +
      path("M10 19 L30 34 L50 19", "none", 'stroke="#1e8cfa" stroke-width="2.5"'),
  ],
  notes: [
    W,
    () =>
      rect({ x: 0, y: 0, w: 60, h: 15 }, "#ffd60a") +
      [24, 32, 40, 48].map((y) => line(10, y, 50, y, "#c7c7cc", 1.5)).join(""),
  ],
  reminders: [
    W,
    () =>
      ["#ff3b30", "#007aff", "#ff9500"]
        .map((c, i) => circle(15, 17 + i * 13, 4.5, c) + line(25, 17 + i * 13, 48, 17 + i * 13, "#c7c7cc", 2))
        .join(""),
  ],
  maps: [
    "#a8e063",
    () =>
      path("M0 40 L60 22 L60 30 L0 48 Z", "#ffffff") +
      path("M22 0 L30 0 L40 60 L32 60 Z", "#ffd60a") +
      circle(38, 22, 7, "#ff3b30") +
      circle(38, 22, 2.5, W),
  ],
  health: [
    W,
    () =>
      path("M30 48 C10 34 10 16 21 14 C26 13 29 17 30 20 C31 17 34 13 39 14 C50 16 50 34 30 48 Z", "#ff2d55"),
  ],
  wallet: [
    "#000000",
    () =>
      ["#ff9500", "#34c759", "#007aff", "#ff3b30"]
        .map((c, i) => rect({ x: 9, y: 13 + i * 7, w: 42, h: 14 }, c, 3))
        .join("") + rect({ x: 7, y: 32, w: 46, h: 18 }, "#3a3a3c", 3),
  ],
  books: [
    "#ff9500",
    () =>
      path("M8 18 Q19 13 29 18 L29 44 Q19 39 8 44 Z", W) +
      path("M31 18 Q41 13 52 18 L52 44 Q41 39 31 44 Z", W),
  ],
  appstore: [
    "#0d84ff",
    () => line(30, 14, 18, 44, W, 4) + line(30, 14, 42, 44, W, 4) + line(14, 36, 46, 36, W, 4),
  ],
  files: [
    W,
    () =>
      path("M8 18 L24 18 L28 22 L52 22 L52 46 L8 46 Z", "#1e8cfa") +
      rect({ x: 8, y: 26, w: 44, h: 20 }, "#5ac8fa", 2),
  ],
  calculator: [
    "#1c1c1e",
    () =>
      Array.from({ length: 9 }, (_, i) =>
        circle(16 + (i % 3) * 14, 17 + Math.floor(i / 3) * 13, 5, i % 3 === 2 ? "#ff9500" : "#8e8e93"),
      ).join(""),
  ],
  phone: [
    "#34c759",
    () =>
      path(
        "M20 12 C16 12 13 16 14 21 C17 34 26 43 39 46 C44 47 48 44 48 40 L48 37 L40 32 L35 36 C30 34 26 30 24 25 L28 20 L23 12 Z",
        W,
      ),
  ],
  safari: [
    W,
    () =>
      // Apple's Safari icon is a solid blue compass disk (not a ring on a pale face) with white ticks.
      circle(30, 30, 25, "#1e8cfa") +
      circle(30, 30, 21, "none", 'stroke="#ffffff" stroke-width="1" stroke-dasharray="1 3"') +
      path("M30 30 L41 19 L34 34 Z", "#ff3b30") +
      path("M30 30 L19 41 L26 26 Z", W),
  ],
  music: [
    "#fa2d48",
    () =>
      circle(22, 42, 6, W) +
      circle(40, 38, 6, W) +
      rect({ x: 26, y: 14, w: 3.5, h: 28 }, W) +
      rect({ x: 44, y: 10, w: 3.5, h: 28 }, W) +
      path("M26 14 L47.5 10 L47.5 17 L26 21 Z", W),
  ],
  contacts: ["#a2845e", () => circle(30, 24, 9, W) + path("M14 48 Q30 26 46 48 Z", W)],
  translate: [
    "#0a84ff",
    () => rect({ x: 10, y: 12, w: 24, h: 24 }, W, 4) + rect({ x: 26, y: 24, w: 24, h: 24 }, "#1c1c1e", 4),
  ],
  stocks: [
    "#1c1c1e",
    () =>
      path(
        "M8 44 L20 32 L28 38 L44 18 L52 24",
        "none",
        'stroke="#34c759" stroke-width="3.5" stroke-linejoin="round"',
      ),
  ],
  compass: [
    "#1c1c1e",
    () =>
      circle(30, 30, 21, "none", 'stroke="#fff" stroke-width="2"') +
      path("M30 12 L35 30 L25 30 Z", "#ff3b30") +
      path("M30 48 L35 30 L25 30 Z", W),
  ],
};

/** An app icon: rounded square (iOS corner ≈ 22.5% of size) with its pictogram, top-left at x, y. */
export function appIcon(id: AppId, x: number, y: number, size: number): string {
  const [bg, art] = ART[id];
  const k = size / 60;
  const id2 = `ic-${id}-${Math.round(x)}-${Math.round(y)}`;
  return (
    `<g transform="translate(${x} ${y}) scale(${k})"><clipPath id="${id2}"><rect width="60" height="60" rx="13.5"/></clipPath>` +
    `<g clip-path="url(#${id2})">${rect({ x: 0, y: 0, w: 60, h: 60 }, bg)}${art()}</g></g>`
  );
}
