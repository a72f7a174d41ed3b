import { clockUi, timerPhase } from "../apps/clock.js";
import type { Ctx } from "../context.js";
import { appIcon } from "../icons.js";
import type { Scene } from "../scene.js";
import { rect } from "../svg.js";

/**
 * A finished timer outside the Clock app shows a persistent banner (iOS shows an alert) until the
 * user opens Clock, where Stop clears it. Drawn below a message banner if both are up.
 */
export function timerDoneBanner(scene: Scene, ctx: Ctx): void {
  const s = ctx.state;
  if (timerPhase(s, ctx.nowMs) !== "done") return;
  if (s.foreground === "clock" && !s.switcher) return;
  const messageUp = s.banner !== null && ctx.nowMs < s.banner.untilMs;
  const r = { x: 8, y: messageUp ? 92 : 8, w: ctx.W - 16, h: 64 };
  const t = ctx.theme;
  const label = `${ctx.s["app.clock"]}: ${ctx.s["clock.timerDone"]}`;
  const svg =
    rect(r, t.dark ? "#2c2c2e" : "#f4f4f6", 20, 'stroke="#00000022" stroke-width="0.5"') +
    appIcon("clock", r.x + 12, r.y + 13, 38) +
    scene.shape(ctx.s["app.clock"], r.x + 62, r.y + 27, { size: 13, fill: t.secondary }).svg +
    scene.shape(ctx.s["clock.timerDone"], r.x + 62, r.y + 49, { size: 17, weight: "semibold", fill: t.fg })
      .svg;
  const open = (): void => {
    ctx.nav.openApp("clock");
    clockUi(s).tab = "timer";
  };
  scene.add({ id: "banner.timer", kind: "control", label, rect: r, onTap: open, opaque: true }, svg);
}
