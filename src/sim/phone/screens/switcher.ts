import { buildApp } from "../apps/registry.js";
import type { Ctx } from "../context.js";
import { GESTURE_THRESHOLDS as T } from "../gesture-thresholds.js";
import { APP_TITLE, appIcon } from "../icons.js";
import { Scene } from "../scene.js";
import { rect } from "../svg.js";
import { notch, statusBar } from "./chrome.js";

/** Cards are the app's own screen scaled down, laid out left to right, most recent first. */
export const CARD_SCALE = 0.46;
const GAP = 16;
const LEFT = 24;
const TOP = 210;

export function buildSwitcher(scene: Scene, ctx: Ctx): void {
  const { W, H, state, s } = ctx;
  scene.draw(
    rect({ x: 0, y: 0, w: W, h: H }, "url(#wall)") +
      rect({ x: 0, y: 0, w: W, h: H }, "#000", 0, 'fill-opacity="0.55"'),
  );
  statusBar(scene, ctx, true);
  notch(scene, ctx);
  scene.onTapEmpty = () => ctx.nav.goHome();
  const cw = W * CARD_SCALE;
  const ch = H * CARD_SCALE;
  const maxScroll = Math.max(0, state.recents.length * (cw + GAP) - GAP + 2 * LEFT - W);
  state.switcherScroll = Math.min(maxScroll, Math.max(0, state.switcherScroll));
  if (state.recents.length === 0)
    scene.text("switcher.empty", s["switcher.empty"], W / 2, H / 2, {
      size: 17,
      fill: "#ffffffb0",
      anchor: "middle",
    });
  state.recents.forEach((app, i) => {
    const x = LEFT + i * (cw + GAP) - state.switcherScroll;
    if (x > W || x + cw < 0) return;
    const title = s[APP_TITLE[app]];
    scene.add(
      {
        id: `switcher.title.${app}`,
        kind: "text",
        label: title,
        rect: scene.shape(title, x + 40, TOP - 14, { size: 15 }).rect,
      },
      appIcon(app, x, TOP - 40, 30) +
        scene.shape(title, x + 40, TOP - 14, { size: 15, weight: "semibold", fill: "#fff" }).svg,
    );
    const preview = new Scene(ctx.fonts, W, H, `p${i}`);
    buildApp(preview, ctx, app);
    const card = { x, y: TOP, w: cw, h: ch };
    scene.beginClip(card, 38 * CARD_SCALE);
    scene.draw(`<g transform="translate(${x} ${TOP}) scale(${CARD_SCALE})">${preview.body()}</g>`);
    scene.endClip();
    scene.add({
      id: `switcher.card.${app}`,
      kind: "control",
      label: title,
      rect: card,
      onTap: () => ctx.nav.openApp(app),
      // Throwing a card up force-quits the app: far enough, or fast enough.
      onSwipe: (g) => {
        if (g.direction !== "up") return false;
        const far = -g.dyMm * ctx.ptPerMm >= 0.4 * ch;
        const flick = -g.dyMm >= T.cardFlickMinMm && -g.releaseVyMmS >= T.flickMinSpeedMmS;
        if (far || flick) ctx.nav.forceQuit(app);
        return true;
      },
    });
  });
  scene.scroll({
    rect: { x: 0, y: 0, w: W, h: H },
    axis: "x",
    scrollBy: (d) => {
      state.switcherScroll = Math.min(maxScroll, Math.max(0, state.switcherScroll + d));
    },
  });
}
