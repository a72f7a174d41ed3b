import { type Ctx, METRICS } from "../context.js";
import { appIcon } from "../icons.js";
import type { Scene } from "../scene.js";
import { ellipsize } from "../scene.js";
import { chevron, path, rect } from "../svg.js";
import { clockTime } from "../time-format.js";

/** System chrome shared by all screens: status bar, notch, home indicator, nav bars, banner. */

export function statusBar(scene: Scene, ctx: Ctx, light: boolean, showTime = true): void {
  const fg = light ? "#ffffff" : "#000000";
  const { W } = ctx;
  if (showTime)
    scene.text("status.time", clockTime(ctx.wall, ctx.locale), 54, 32, {
      size: 17,
      weight: "semibold",
      fill: fg,
      anchor: "middle",
    });
  const right = W - 28;
  // Battery: body outline, fill proportional to charge, cap.
  const bx = right - 27;
  const pct = ctx.state.batteryPercent;
  const battery =
    rect(
      { x: bx, y: 20, w: 25, h: 12 },
      "none",
      3.5,
      `stroke="${fg}" stroke-opacity="0.4" stroke-width="1"`,
    ) +
    rect({ x: bx + 2, y: 22, w: (21 * pct) / 100, h: 8 }, ctx.state.toggles.lowPower ? "#ffcc00" : fg, 2) +
    rect({ x: bx + 26, y: 24, w: 1.5, h: 4 }, fg, 0.7, 'fill-opacity="0.4"');
  scene.add(
    { id: "status.battery", kind: "icon", label: `${pct}%`, rect: { x: bx, y: 20, w: 28, h: 12 } },
    battery,
  );
  const mid = bx - 24;
  if (ctx.state.toggles.airplane) {
    scene.add(
      {
        id: "status.airplane",
        kind: "icon",
        label: ctx.s["settings.airplane"],
        rect: { x: mid - 2, y: 18, w: 18, h: 16 },
      },
      path(
        `M${mid + 7} 18 L${mid + 9} 18 L${mid + 9} 24 L${mid + 16} 28 L${mid + 16} 30 L${mid + 9} 28 L${mid + 9} 32 L${mid + 11} 34 L${mid + 5} 34 L${mid + 7} 32 L${mid + 7} 28 L${mid} 30 L${mid} 28 L${mid + 7} 24 Z`,
        fg,
      ),
    );
    return;
  }
  if (ctx.state.toggles.wifi) {
    const cx = mid + 7;
    // Three arcs of a fan opening upward from (cx, 31), like the iOS Wi-Fi glyph.
    const arcs = [11, 7, 3]
      .map((r) => {
        const d = r * Math.SQRT1_2;
        return `<path d="M${cx - d} ${31 - d} A${r} ${r} 0 0 1 ${cx + d} ${31 - d}" fill="none" stroke="${fg}" stroke-width="2.2" stroke-linecap="round"/>`;
      })
      .join("");
    scene.add(
      {
        id: "status.wifi",
        kind: "icon",
        label: ctx.s["settings.wifi"],
        rect: { x: mid - 4, y: 19, w: 22, h: 14 },
      },
      `${arcs}<circle cx="${cx}" cy="30" r="1.6" fill="${fg}"/>`,
    );
  }
  const sx = mid - 26;
  const bars = [0, 1, 2, 3]
    .map((i) => rect({ x: sx + i * 5, y: 29 - i * 2.6, w: 3.2, h: 3.5 + i * 2.6 }, fg, 1))
    .join("");
  scene.draw(bars);
}

/** The notch hides these pixels on the real panel; drawing it makes renders read as a phone. */
export function notch(scene: Scene, ctx: Ctx): void {
  const c = ctx.W / 2;
  scene.draw(
    path(
      `M${c - 82} 0 L${c + 82} 0 L${c + 82} 12 Q${c + 82} 32 ${c + 62} 32 L${c - 62} 32 Q${c - 82} 32 ${c - 82} 12 Z`,
      "#000",
    ),
  );
}

export function homeIndicator(scene: Scene, ctx: Ctx, light: boolean): void {
  scene.draw(rect({ x: ctx.W / 2 - 67, y: ctx.H - 13, w: 134, h: 5 }, light ? "#ffffff" : "#000000", 2.5));
}

/** Navigation bar with an optional back button (chevron + previous title) and a centred title. */
export function navBar(
  scene: Scene,
  ctx: Ctx,
  title: string,
  back?: { label: string; onTap: () => void },
): void {
  const y = METRICS.statusBarH;
  const t = ctx.theme;
  scene.draw(rect({ x: 0, y: 0, w: ctx.W, h: y + METRICS.navBarH }, t.bar));
  scene.draw(rect({ x: 0, y: y + METRICS.navBarH - 0.5, w: ctx.W, h: 0.5 }, t.separator));
  if (back) {
    const label = scene.shape(back.label, 30, y + 28, { size: 17, fill: t.tint });
    scene.add(
      {
        id: "nav.back",
        kind: "control",
        label: back.label,
        rect: { x: 4, y, w: label.rect.x + label.width - 4 + 6, h: 44 },
        onTap: back.onTap,
      },
      chevron(17, y + 22, 10, t.tint, "left") + label.svg,
    );
  }
  if (title)
    scene.text("nav.title", ellipsize(ctx.fonts, title, 17, 200), ctx.W / 2, y + 28, {
      size: 17,
      weight: "semibold",
      fill: t.fg,
      anchor: "middle",
    });
}

/** A message notification banner at the top of the screen (tapping opens the thread). */
export function banner(scene: Scene, ctx: Ctx): void {
  const b = ctx.state.banner;
  if (!b || ctx.nowMs >= b.untilMs) return;
  const r = { x: 8, y: 8, w: ctx.W - 16, h: 76 };
  const t = ctx.theme;
  const svg =
    rect(r, t.dark ? "#2c2c2e" : "#f4f4f6", 20, 'stroke="#00000022" stroke-width="0.5"') +
    appIcon("messages", r.x + 12, r.y + 17, 38) +
    scene.shape(b.from, r.x + 62, r.y + 32, { size: 15, weight: "semibold", fill: t.fg }).svg +
    scene.shape(ctx.s["lock.now"], r.x + r.w - 14, r.y + 32, { size: 13, fill: t.secondary, anchor: "end" })
      .svg +
    scene.shape(ellipsize(ctx.fonts, b.text, 15, r.w - 80), r.x + 62, r.y + 54, { size: 15, fill: t.fg }).svg;
  scene.add(
    {
      id: "banner",
      kind: "control",
      label: `${b.from}: ${b.text}`,
      rect: r,
      opaque: true,
      onTap: () => ctx.nav.openThread(b.threadId),
      onSwipe: (g) => {
        if (g.direction !== "up") return false;
        ctx.state.banner = null;
        return true;
      },
    },
    svg,
  );
}
