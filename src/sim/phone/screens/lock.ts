import type { Ctx } from "../context.js";
import { appIcon } from "../icons.js";
import { ellipsize, type Scene } from "../scene.js";
import { circle, path, rect } from "../svg.js";
import { clockTime, longDate } from "../time-format.js";
import { homeIndicator, notch, statusBar } from "./chrome.js";

/** How long the keypad shakes after a wrong passcode, and how far it swings (points). */
export const SHAKE_MS = 500;
const SHAKE_PT = 14;

/** Horizontal offset of the shaking title/dots at `nowMs` (0 when not shaking). */
export function shakeOffset(ctx: Ctx): number {
  const start = ctx.state.shakeStartMs;
  if (start === null) return 0;
  const t = ctx.nowMs - start;
  if (t < 0 || t >= SHAKE_MS) return 0;
  return Math.round(SHAKE_PT * Math.sin((2 * Math.PI * t) / 125) * (1 - t / SHAKE_MS) * 10) / 10;
}

function lockGlyph(cx: number, y: number): string {
  return (
    path(
      `M${cx - 6} ${y + 9} L${cx - 6} ${y + 5} A6 6 0 0 1 ${cx + 6} ${y + 5} L${cx + 6} ${y + 9}`,
      "none",
      'stroke="#fff" stroke-width="2.2"',
    ) + rect({ x: cx - 9, y: y + 9, w: 18, h: 14 }, "#ffffff", 3)
  );
}

export function buildLock(scene: Scene, ctx: Ctx): void {
  const { W, H, s } = ctx;
  scene.draw(rect({ x: 0, y: 0, w: W, h: H }, "url(#wall)"));
  statusBar(scene, ctx, true, false);
  notch(scene, ctx);
  scene.draw(lockGlyph(W / 2, 48));
  scene.text("lock.date", longDate(ctx.wall, ctx.locale, s), W / 2, 112, {
    size: 20,
    weight: "semibold",
    fill: "#ffffffdd",
    anchor: "middle",
  });
  scene.text("lock.time", clockTime(ctx.wall, ctx.locale), W / 2, 200, {
    size: 88,
    weight: "semibold",
    fill: "#ffffff",
    anchor: "middle",
  });
  const unread = ctx.state.threads.filter((t) => t.unread > 0);
  unread.slice(0, 4).forEach((thread, i) => {
    const r = { x: 12, y: 250 + i * 84, w: W - 24, h: 76 };
    const last = thread.messages[thread.messages.length - 1];
    const svg =
      rect(r, "#ffffffd0", 20) +
      appIcon("messages", r.x + 12, r.y + 19, 38) +
      scene.shape(thread.name, r.x + 62, r.y + 32, { size: 15, weight: "semibold" }).svg +
      scene.shape(s["lock.now"], r.x + r.w - 14, r.y + 32, { size: 13, fill: "#555", anchor: "end" }).svg +
      scene.shape(ellipsize(ctx.fonts, last?.text ?? "", 15, r.w - 80), r.x + 62, r.y + 54, { size: 15 }).svg;
    scene.add(
      {
        id: `lock.notification.${thread.id}`,
        kind: "control",
        label: `${thread.name}: ${last?.text ?? ""}`,
        rect: r,
        onTap: () => {
          ctx.state.pendingThread = thread.id;
          ctx.nav.showPasscode();
        },
      },
      svg,
    );
  });
  const by = H - 90;
  scene.add(
    {
      id: "lock.flashlight",
      kind: "control",
      label: s["lock.flashlight"],
      rect: { x: 21, y: by - 25, w: 50, h: 50 },
    },
    circle(46, by, 25, "#00000055") + rect({ x: 41, y: by - 12, w: 10, h: 24 }, "#fff", 2),
  );
  scene.add(
    {
      id: "lock.camera",
      kind: "control",
      label: s["lock.camera"],
      rect: { x: W - 71, y: by - 25, w: 50, h: 50 },
    },
    circle(W - 46, by, 25, "#00000055") +
      rect({ x: W - 58, y: by - 8, w: 24, h: 17 }, "#fff", 3) +
      circle(W - 46, by + 0.5, 4.5, "#555"),
  );
  scene.text("lock.hint", s["lock.swipeUp"], W / 2, H - 36, {
    size: 15,
    fill: "#ffffffcc",
    anchor: "middle",
  });
  homeIndicator(scene, ctx, true);
}

const LETTERS = ["", "ABC", "DEF", "GHI", "JKL", "MNO", "PQRS", "TUV", "WXYZ"];

export function buildPasscode(scene: Scene, ctx: Ctx): void {
  const { W, H, s, state } = ctx;
  scene.draw(
    rect({ x: 0, y: 0, w: W, h: H }, "url(#wall)") +
      rect({ x: 0, y: 0, w: W, h: H }, "#000000", 0, 'fill-opacity="0.45"'),
  );
  statusBar(scene, ctx, true);
  notch(scene, ctx);
  const dx = shakeOffset(ctx);
  scene.text("passcode.title", s["passcode.title"], W / 2 + dx, 160, {
    size: 20,
    fill: "#ffffff",
    anchor: "middle",
  });
  const n = ctx.passcodeLength;
  const x0 = W / 2 + dx - ((n - 1) * 26) / 2;
  const dots = Array.from({ length: n }, (_, i) =>
    circle(
      x0 + i * 26,
      200,
      6.5,
      i < state.entered.length ? "#ffffff" : "none",
      'stroke="#ffffff" stroke-width="1.3"',
    ),
  ).join("");
  scene.add(
    {
      id: "passcode.dots",
      // Drawn circles, not text: the label is for tests, no OCR could read it.
      kind: "control",
      label: `${state.entered.length}/${n}`,
      rect: { x: x0 - 8, y: 192, w: (n - 1) * 26 + 16, h: 16 },
    },
    dots,
  );
  const keys = ["1", "2", "3", "4", "5", "6", "7", "8", "9", "0"];
  keys.forEach((digit, i) => {
    const col = i === 9 ? 1 : i % 3;
    const row = i === 9 ? 3 : Math.floor(i / 3);
    const cx = W / 2 + (col - 1) * 102;
    const cy = 300 + row * 92;
    const letters = i === 9 ? "" : (LETTERS[i] ?? "");
    const svg =
      circle(cx, cy, 39, "#ffffff", 'fill-opacity="0.22"') +
      scene.shape(digit, cx, cy + (letters ? 6 : 12), {
        size: 36,
        weight: "light",
        fill: "#fff",
        anchor: "middle",
      }).svg +
      (letters
        ? scene.shape(letters, cx, cy + 22, { size: 10, weight: "semibold", fill: "#fff", anchor: "middle" })
            .svg
        : "");
    scene.add(
      {
        id: `passcode.key.${digit}`,
        kind: "control",
        label: digit,
        rect: { x: cx - 39, y: cy - 39, w: 78, h: 78 },
        onTap: () => ctx.nav.passcodeDigit(digit),
      },
      svg,
    );
  });
  const y = 300 + 3 * 92 + 10;
  scene.text("passcode.emergency", s["passcode.emergency"], W / 2 - 102, y + 120, {
    size: 17,
    fill: "#fff",
    anchor: "middle",
  });
  const hasDigits = state.entered.length > 0;
  const label = hasDigits ? s["passcode.delete"] : s["passcode.cancel"];
  const shaped = scene.shape(label, W / 2 + 102, y + 120, { size: 17, fill: "#fff", anchor: "middle" });
  scene.add(
    {
      id: hasDigits ? "passcode.delete" : "passcode.cancel",
      kind: "control",
      label,
      rect: { x: shaped.rect.x - 10, y: shaped.rect.y - 10, w: shaped.rect.w + 20, h: shaped.rect.h + 20 },
      onTap: () => (hasDigits ? ctx.nav.passcodeDelete() : ctx.nav.passcodeCancel()),
    },
    shaped.svg,
  );
  homeIndicator(scene, ctx, true);
}
