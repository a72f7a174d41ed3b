import { type Ctx, METRICS } from "../context.js";
import type { Scene } from "../scene.js";
import { homeIndicator, notch, statusBar } from "../screens/chrome.js";
import { circle, rect } from "../svg.js";

/** Full-screen background every app screen starts with. */
export function appFrame(scene: Scene, ctx: Ctx, bg: string): void {
  scene.draw(rect({ x: 0, y: 0, w: ctx.W, h: ctx.H }, bg));
}

/** Status bar, notch and home indicator, drawn last so content scrolling beneath never covers them. */
export function appFinish(scene: Scene, ctx: Ctx, lightContent = ctx.theme.dark): void {
  statusBar(scene, ctx, lightContent);
  notch(scene, ctx);
  homeIndicator(scene, ctx, lightContent);
}

/** Bottom tab bar; returns the top y of the bar so content can stop above it. */
export function tabBar<T extends string>(
  scene: Scene,
  ctx: Ctx,
  tabs: { id: T; label: string; glyph: (cx: number, cy: number, color: string) => string }[],
  selected: T,
  onSelect: (id: T) => void,
  idPrefix: string,
  selectedColor = "#ff9500",
): number {
  const top = ctx.H - METRICS.tabBarH - METRICS.homeIndicatorH;
  const t = ctx.theme;
  scene.draw(
    rect({ x: 0, y: top, w: ctx.W, h: ctx.H - top }, t.bar) +
      rect({ x: 0, y: top, w: ctx.W, h: 0.5 }, t.separator),
  );
  const w = ctx.W / tabs.length;
  tabs.forEach((tab, i) => {
    const color = tab.id === selected ? selectedColor : t.secondary;
    const cx = w * i + w / 2;
    const svg =
      tab.glyph(cx, top + 17, color) +
      scene.shape(tab.label, cx, top + 42, { size: 10, weight: "semibold", fill: color, anchor: "middle" })
        .svg;
    scene.add(
      {
        id: `${idPrefix}.${tab.id}`,
        kind: "control",
        label: tab.label,
        rect: { x: w * i, y: top, w, h: METRICS.tabBarH },
        onTap: () => onSelect(tab.id),
      },
      svg,
    );
  });
  return top;
}

/** A round iOS Clock-style button (80 pt) with a text label. */
export function roundButton(
  scene: Scene,
  id: string,
  label: string,
  cx: number,
  cy: number,
  colors: { bg: string; fg: string },
  onTap?: () => void,
): void {
  const svg =
    circle(cx, cy, 40, colors.bg) +
    circle(cx, cy, 36, "none", `stroke="${colors.fg}" stroke-opacity="0.25" stroke-width="1.5"`) +
    scene.shape(label, cx, cy + 6, { size: 16, fill: colors.fg, anchor: "middle" }).svg;
  scene.add(
    {
      id,
      kind: "control",
      label,
      rect: { x: cx - 40, y: cy - 40, w: 80, h: 80 },
      ...(onTap ? { onTap } : {}),
    },
    svg,
  );
}
