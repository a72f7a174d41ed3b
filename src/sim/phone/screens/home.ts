import type { Ctx } from "../context.js";
import { GESTURE_THRESHOLDS as T } from "../gesture-thresholds.js";
import { APP_TITLE, appIcon } from "../icons.js";
import type { Scene } from "../scene.js";
import { type AppId, unreadCount } from "../state.js";
import { circle, rect } from "../svg.js";
import { homeIndicator, notch, statusBar } from "./chrome.js";

/** Home screen pages (4-column grid) and the dock. Order follows a typical iPhone first page. */
export const HOME_PAGES: readonly AppId[][] = [
  [
    "calendar",
    "photos",
    "camera",
    "mail",
    "notes",
    "reminders",
    "clock",
    "weather",
    "maps",
    "health",
    "wallet",
    "settings",
    "books",
    "appstore",
    "files",
    "calculator",
  ],
  ["contacts", "translate", "stocks", "compass"],
];
export const DOCK: readonly AppId[] = ["phone", "safari", "messages", "music"];

/** Icon grid metrics (points): 60 pt icons, 27 pt side margins, 92 pt column pitch, 102 pt row pitch. */
export const ICON = { size: 60, left: 27, top: 72, colPitch: 92, rowPitch: 102 } as const;

function badge(scene: Scene, x: number, y: number, count: number, id: string): void {
  if (count <= 0) return;
  const text = count > 99 ? "99+" : String(count);
  const label = scene.shape(text, 0, 0, { size: 15, weight: "semibold" });
  const w = Math.max(23, label.width + 12);
  const r = { x: x + ICON.size - 14, y: y - 8, w, h: 23 };
  scene.add(
    { id, kind: "icon", label: text, rect: r },
    rect(r, "#ff3b30", 11.5) +
      scene.shape(text, r.x + w / 2, r.y + 17, {
        size: 15,
        weight: "semibold",
        fill: "#fff",
        anchor: "middle",
      }).svg,
  );
}

function icon(scene: Scene, ctx: Ctx, app: AppId, x: number, y: number, withLabel: boolean): void {
  const label = ctx.s[APP_TITLE[app]];
  const open = (): void => ctx.nav.openApp(app);
  scene.add(
    { id: `home.icon.${app}`, kind: "icon", label, rect: { x, y, w: ICON.size, h: ICON.size }, onTap: open },
    appIcon(app, x, y, ICON.size),
  );
  if (withLabel)
    scene.text(
      `home.label.${app}`,
      label,
      x + ICON.size / 2,
      y + ICON.size + 17,
      { size: 12, fill: "#ffffff", anchor: "middle" },
      { onTap: open },
    );
  if (app === "messages") badge(scene, x, y, unreadCount(ctx.state), "home.badge.messages");
}

export function buildHome(scene: Scene, ctx: Ctx): void {
  const { W, H, state } = ctx;
  scene.draw(rect({ x: 0, y: 0, w: W, h: H }, "url(#wall)"));
  statusBar(scene, ctx, true);
  notch(scene, ctx);
  const page = HOME_PAGES[state.homePage] ?? HOME_PAGES[0] ?? [];
  page.forEach((app, i) => {
    const x = ICON.left + (i % 4) * ICON.colPitch;
    const y = ICON.top + Math.floor(i / 4) * ICON.rowPitch;
    icon(scene, ctx, app, x, y, true);
  });
  const dockY = H - 12 - 96;
  scene.draw(
    HOME_PAGES.map((_, i) =>
      circle(
        W / 2 + (i - (HOME_PAGES.length - 1) / 2) * 16,
        dockY - 18,
        3.5,
        i === state.homePage ? "#ffffff" : "#ffffff66",
      ),
    ).join(""),
  );
  scene.draw(rect({ x: 12, y: dockY, w: W - 24, h: 96 }, "#ffffff", 32, 'fill-opacity="0.28"'));
  DOCK.forEach((app, i) => {
    icon(scene, ctx, app, ICON.left + i * ICON.colPitch, dockY + 18, false);
  });
  // Horizontal swipes anywhere change page (iOS pages snap; one page per swipe).
  scene.scroll({
    rect: { x: 0, y: 0, w: W, h: H },
    axis: "x",
    scrollBy: (d) => {
      if (Math.abs(d) < T.pageSwipeMinMm * ctx.ptPerMm) return;
      state.homePage = Math.max(0, Math.min(HOME_PAGES.length - 1, state.homePage + (d > 0 ? 1 : -1)));
    },
  });
  homeIndicator(scene, ctx, true);
}
