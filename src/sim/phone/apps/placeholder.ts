import type { Ctx } from "../context.js";
import { APP_TITLE, appIcon } from "../icons.js";
import type { Scene } from "../scene.js";
import type { AppId } from "../state.js";
import { appFinish, appFrame } from "./common.js";

/** Apps without behaviour of their own: a real screen with the app's title, icon and an empty state. */
export function buildPlaceholder(scene: Scene, ctx: Ctx, app: AppId): void {
  const { W, theme: t, s } = ctx;
  appFrame(scene, ctx, t.bg);
  scene.text("title", s[APP_TITLE[app]], 16, 132, { size: 34, weight: "semibold", fill: t.fg });
  scene.add(
    {
      id: `${app}.icon`,
      kind: "icon",
      label: s[APP_TITLE[app]],
      rect: { x: W / 2 - 45, y: 300, w: 90, h: 90 },
    },
    appIcon(app, W / 2 - 45, 300, 90),
  );
  scene.text(`${app}.empty`, s["common.noContent"], W / 2, 430, {
    size: 17,
    fill: t.secondary,
    anchor: "middle",
  });
  appFinish(scene, ctx);
}
