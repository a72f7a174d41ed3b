import { type Ctx, METRICS } from "../context.js";
import type { Scene } from "../scene.js";
import { navBar } from "../screens/chrome.js";
import type { AppUi, PhoneState, Toggles } from "../state.js";
import { STRINGS, type StringKey } from "../strings.js";
import { chevron, circle, rect, toggleSwitch } from "../svg.js";
import { appFinish, appFrame } from "./common.js";

type SettingsUi = AppUi["settings"];

interface Row {
  key: StringKey;
  color: string;
  toggle?: keyof Toggles;
}

/** Grouped rows as on iOS; enough of them that the list needs scrolling. */
const GROUPS: Row[][] = [
  [
    { key: "settings.airplane", color: "#ff9500", toggle: "airplane" },
    { key: "settings.wifi", color: "#007aff", toggle: "wifi" },
    { key: "settings.bluetooth", color: "#007aff", toggle: "bluetooth" },
    { key: "settings.cellular", color: "#34c759" },
    { key: "settings.hotspot", color: "#34c759" },
  ],
  [
    { key: "settings.notifications", color: "#ff3b30" },
    { key: "settings.sounds", color: "#ff2d55" },
    { key: "settings.focus", color: "#5856d6" },
    { key: "settings.screenTime", color: "#5856d6" },
  ],
  [
    { key: "settings.general", color: "#8e8e93" },
    { key: "settings.controlCenter", color: "#8e8e93" },
    { key: "settings.display", color: "#007aff" },
    { key: "settings.darkMode", color: "#1c1c1e", toggle: "darkMode" },
    { key: "settings.wallpaper", color: "#35aadc" },
    { key: "settings.siri", color: "#3a3a3c" },
    { key: "settings.battery", color: "#34c759" },
    { key: "settings.lowPower", color: "#ffcc00", toggle: "lowPower" },
    { key: "settings.location", color: "#007aff", toggle: "location" },
    { key: "settings.privacy", color: "#007aff" },
  ],
  [{ key: "settings.passwords", color: "#8e8e93" }],
];

const ROW_H = 44;
const GROUP_GAP = 35;
const TOGGLE_NAMES: Record<keyof Toggles, StringKey> = {
  airplane: "settings.airplane",
  wifi: "settings.wifi",
  bluetooth: "settings.bluetooth",
  darkMode: "settings.darkMode",
  lowPower: "settings.lowPower",
  location: "settings.location",
};

export function settingsUi(state: PhoneState): SettingsUi {
  state.ui.settings ??= { scroll: 0, page: null };
  return state.ui.settings;
}

export function settingsSummary(state: PhoneState): string {
  const ui = settingsUi(state);
  const toggles = (Object.keys(TOGGLE_NAMES) as (keyof Toggles)[])
    .map((k) => `${STRINGS.en[TOGGLE_NAMES[k]]} ${state.toggles[k] ? "on" : "off"}`)
    .join(", ");
  return ui.page
    ? `${STRINGS.en[ui.page]} page; ${toggles}`
    : `list scrolled ${Math.round(ui.scroll)} pt; ${toggles}`;
}

export function settingsBack(state: PhoneState): boolean {
  const ui = settingsUi(state);
  if (ui.page === null) return false;
  ui.page = null;
  return true;
}

function list(scene: Scene, ctx: Ctx, ui: SettingsUi): void {
  const { W, H, s, theme: t, state } = ctx;
  const top = METRICS.statusBarH;
  const rowsH = GROUPS.reduce((sum, g) => sum + g.length * ROW_H + GROUP_GAP, 0);
  const contentH = 230 + rowsH + METRICS.homeIndicatorH;
  const viewport = { x: 0, y: top, w: W, h: H - top };
  const maxScroll = Math.max(0, contentH - viewport.h);
  ui.scroll = Math.min(maxScroll, Math.max(0, ui.scroll));
  const y0 = top - ui.scroll;
  scene.beginClip(viewport);
  scene.text("title", s["app.settings"], 16, y0 + 85, { size: 34, weight: "semibold", fill: t.fg });
  const search = { x: 16, y: y0 + 99, w: W - 32, h: 36 };
  scene.add(
    { id: "settings.search", kind: "control", label: s["common.search"], rect: search },
    rect(search, t.fill, 10) +
      scene.shape(s["common.search"], 44, search.y + 24, { size: 17, fill: t.secondary }).svg,
  );
  const profile = { x: 16, y: y0 + 155, w: W - 32, h: 76 };
  scene.add(
    {
      id: "settings.profile",
      kind: "control",
      label: s["settings.profile"],
      rect: profile,
      onTap: () => {
        ui.page = "settings.profile";
      },
    },
    rect(profile, t.cell, 10) +
      circle(52, profile.y + 38, 28, "#a2845e") +
      scene.shape("J", 52, profile.y + 48, { size: 28, weight: "semibold", fill: "#fff", anchor: "middle" })
        .svg +
      scene.shape(s["settings.profile"], 92, profile.y + 34, { size: 20, fill: t.fg }).svg +
      scene.shape(s["settings.profileSub"], 92, profile.y + 56, { size: 13, fill: t.secondary }).svg +
      chevron(W - 36, profile.y + 38, 5, t.secondary, "right"),
  );
  let y = profile.y + profile.h + GROUP_GAP;
  for (const group of GROUPS) {
    scene.draw(rect({ x: 16, y, w: W - 32, h: group.length * ROW_H }, t.cell, 10));
    group.forEach((row, i) => {
      const ry = y + i * ROW_H;
      const label = s[row.key];
      const id = row.key.replace("settings.", "");
      const iconSvg =
        rect({ x: 32, y: ry + 7.5, w: 29, h: 29 }, row.color, 6.5) +
        circle(46.5, ry + 22, 7, "#ffffff", 'fill-opacity="0.9"');
      if (i > 0) scene.draw(rect({ x: 72, y: ry, w: W - 88, h: 0.5 }, t.separator));
      const toggle = row.toggle;
      if (toggle) {
        const on = state.toggles[toggle];
        scene.draw(iconSvg);
        scene.text(`settings.row.${id}`, label, 72, ry + 28, { size: 17, fill: t.fg });
        const flip = (): void => {
          state.toggles[toggle] = !on;
        };
        scene.add(
          {
            id: `settings.toggle.${id}`,
            kind: "control",
            label: `${label}: ${s[on ? "common.on" : "common.off"]}`,
            rect: { x: W - 83, y: ry + 6.5, w: 51, h: 31 },
            onTap: flip,
          },
          toggleSwitch(W - 83, ry + 22, on, t.fill),
        );
      } else {
        const svg =
          iconSvg +
          scene.shape(label, 72, ry + 28, { size: 17, fill: t.fg }).svg +
          chevron(W - 36, ry + 22, 5, t.secondary, "right");
        scene.add(
          {
            id: `settings.row.${id}`,
            kind: "control",
            label,
            rect: { x: 16, y: ry, w: W - 32, h: ROW_H },
            onTap: () => {
              ui.page = row.key;
            },
          },
          svg,
        );
      }
    });
    y += group.length * ROW_H + GROUP_GAP;
  }
  scene.endClip();
  scene.scroll({
    rect: viewport,
    axis: "y",
    scrollBy: (d) => {
      ui.scroll = Math.min(maxScroll, Math.max(0, ui.scroll + d));
    },
  });
  scene.draw(rect({ x: 0, y: 0, w: W, h: top }, t.groupedBg));
}

function page(scene: Scene, ctx: Ctx, key: StringKey, ui: SettingsUi): void {
  const { W, s, theme: t } = ctx;
  const body = { x: 16, y: 130, w: W - 32, h: 44 };
  scene.draw(rect(body, t.cell, 10));
  scene.text("settings.page.empty", s["common.noContent"], 32, body.y + 28, { size: 17, fill: t.secondary });
  navBar(scene, ctx, s[key], {
    label: s["app.settings"],
    onTap: () => {
      ui.page = null;
    },
  });
}

export function buildSettings(scene: Scene, ctx: Ctx): void {
  const ui = settingsUi(ctx.state);
  appFrame(scene, ctx, ctx.theme.groupedBg);
  if (ui.page) page(scene, ctx, ui.page, ui);
  else list(scene, ctx, ui);
  appFinish(scene, ctx);
}
