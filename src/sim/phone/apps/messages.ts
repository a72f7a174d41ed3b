import { type Ctx, METRICS } from "../context.js";
import { buildKeyboard, keyboardTop } from "../keyboard.js";
import { ellipsize, type Scene, wrapText } from "../scene.js";
import type { AppUi, PhoneState, Thread } from "../state.js";
import { chevron, circle, path, rect } from "../svg.js";
import { clockTime, wallTime } from "../time-format.js";
import { appFinish, appFrame } from "./common.js";

type MessagesUi = AppUi["messages"];

const ROW_H = 76;
const LIST_TOP = 196;
const AVATAR_COLORS = ["#ff9500", "#34c759", "#5ac8fa", "#af52de", "#ff2d55", "#5856d6", "#a2845e"];

export function messagesUi(state: PhoneState): MessagesUi {
  state.ui.messages ??= {
    threadId: null,
    draft: "",
    pasteMenu: false,
    listScroll: 0,
    threadScroll: 0,
    focused: false,
  };
  return state.ui.messages;
}

const lastAt = (t: Thread): number => t.messages[t.messages.length - 1]?.atMs ?? 0;

/** Threads as the list shows them: most recent conversation first. */
export function sortedThreads(state: PhoneState): Thread[] {
  return [...state.threads].sort((a, b) => lastAt(b) - lastAt(a));
}

export function messagesSummary(state: PhoneState): string {
  const ui = messagesUi(state);
  const thread = state.threads.find((t) => t.id === ui.threadId);
  if (!thread) {
    const unread = state.threads.filter((t) => t.unread > 0).length;
    return `thread list, ${state.threads.length} threads${unread ? `, ${unread} unread` : ""}`;
  }
  const menu = ui.pasteMenu ? ", paste menu open" : "";
  return `thread with ${thread.name}, ${thread.messages.length} messages, draft "${ui.draft}"${menu}`;
}

export function messagesBack(state: PhoneState): boolean {
  const ui = messagesUi(state);
  if (ui.threadId === null) return false;
  ui.threadId = null;
  ui.pasteMenu = false;
  ui.draft = "";
  ui.focused = false;
  return true;
}

function avatar(scene: Scene, name: string, cx: number, cy: number, r: number, index: number): string {
  const initial = [...name][0] ?? "?";
  return (
    circle(cx, cy, r, AVATAR_COLORS[index % AVATAR_COLORS.length] ?? "#8e8e93") +
    scene.shape(initial.toUpperCase(), cx, cy + r * 0.36, {
      size: r,
      weight: "semibold",
      fill: "#fff",
      anchor: "middle",
    }).svg
  );
}

function stamp(ctx: Ctx, atMs: number): string {
  const w = wallTime(atMs, ctx.utcOffsetMinutes);
  const days = Math.round(
    (Date.UTC(ctx.wall.year, ctx.wall.month, ctx.wall.day) - Date.UTC(w.year, w.month, w.day)) / 86_400_000,
  );
  if (days <= 0) return clockTime(w, ctx.locale);
  if (days === 1) return ctx.s["common.yesterday"];
  return ctx.s[`dayShort.${w.weekday}` as keyof Ctx["s"]];
}

function list(scene: Scene, ctx: Ctx, ui: MessagesUi): void {
  const { W, H, s, theme: t, state } = ctx;
  const threads = sortedThreads(state);
  const viewport = { x: 0, y: LIST_TOP, w: W, h: H - LIST_TOP };
  const maxScroll = Math.max(0, threads.length * ROW_H + METRICS.homeIndicatorH - viewport.h);
  ui.listScroll = Math.min(maxScroll, Math.max(0, ui.listScroll));
  scene.beginClip(viewport);
  threads.forEach((thread, i) => {
    const y = LIST_TOP + i * ROW_H - ui.listScroll;
    if (y > H || y + ROW_H < LIST_TOP) return;
    const last = thread.messages[thread.messages.length - 1];
    const svg =
      rect({ x: 0, y, w: W, h: ROW_H }, t.bg) +
      (thread.unread > 0 ? circle(10, y + ROW_H / 2, 5, t.tint) : "") +
      avatar(scene, thread.name, 46, y + ROW_H / 2, 24, Number(thread.id.slice(1)) || i) +
      chevron(W - 20, y + 24, 5, t.secondary, "right") +
      rect({ x: 80, y: y + ROW_H - 0.5, w: W - 80, h: 0.5 }, t.separator);
    scene.add(
      {
        id: `messages.thread.${thread.id}`,
        kind: "control",
        label: thread.name,
        rect: { x: 0, y, w: W, h: ROW_H },
        onTap: () => ctx.nav.openThread(thread.id),
      },
      svg,
    );
    scene.text(`messages.thread.${thread.id}.name`, thread.name, 80, y + 28, {
      size: 17,
      weight: "semibold",
      fill: t.fg,
    });
    scene.text(`messages.thread.${thread.id}.time`, stamp(ctx, last?.atMs ?? 0), W - 32, y + 28, {
      size: 15,
      fill: t.secondary,
      anchor: "end",
    });
    const preview = ellipsize(ctx.fonts, last?.text ?? "", 15, W - 80 - 24);
    scene.text(`messages.thread.${thread.id}.preview`, preview, 80, y + 52, { size: 15, fill: t.secondary });
  });
  scene.endClip();
  scene.scroll({
    rect: viewport,
    axis: "y",
    scrollBy: (d) => {
      ui.listScroll = Math.min(maxScroll, Math.max(0, ui.listScroll + d));
    },
  });
  scene.text("messages.edit", s["common.edit"], 16, 75, { size: 17, fill: t.tint });
  scene.add(
    {
      id: "messages.compose",
      kind: "control",
      label: s["messages.compose"],
      rect: { x: W - 46, y: 58, w: 30, h: 30 },
    },
    rect({ x: W - 42, y: 64, w: 20, h: 20 }, "none", 4, `stroke="${t.tint}" stroke-width="1.8"`) +
      path(
        `M${W - 32} 74 L${W - 20} 60`,
        "none",
        `stroke="${t.tint}" stroke-width="2.2" stroke-linecap="round"`,
      ),
  );
  scene.text("title", s["app.messages"], 16, 132, { size: 34, weight: "semibold", fill: t.fg });
  const search = { x: 16, y: 146, w: W - 32, h: 36 };
  scene.add(
    { id: "messages.search", kind: "control", label: s["common.search"], rect: search },
    rect(search, t.fill, 10) +
      scene.shape(s["common.search"], 44, 170, { size: 17, fill: t.secondary }).svg +
      circle(30, 162, 5.5, "none", `stroke="${t.secondary}" stroke-width="1.8"`),
  );
}

const BUBBLE_MAX = 0.72;
const FONT = 17;
const LINE_H = 22;

function threadView(scene: Scene, ctx: Ctx, ui: MessagesUi, thread: Thread): void {
  const { W, H, s, theme: t, state } = ctx;
  // With the keyboard up the input bar sits right on top of it.
  const barTop = ui.focused ? keyboardTop(ctx) - 52 : H - METRICS.homeIndicatorH - 52;
  const top = METRICS.statusBarH + METRICS.navBarH + 16;
  // Lay bubbles out top-down, then anchor the bottom of the conversation above the input bar.
  const laid = thread.messages.map((m) => {
    const lines = wrapText(ctx.fonts, m.text, FONT, W * BUBBLE_MAX - 28);
    const width = Math.max(...lines.map((l) => ctx.fonts.measure(l, FONT))) + 28;
    return { m, lines, width, height: lines.length * LINE_H + 14 };
  });
  const contentH = laid.reduce((sum, b) => sum + b.height + 8, 0);
  const viewH = barTop - top;
  const maxScroll = Math.max(0, contentH - viewH);
  ui.threadScroll = Math.min(maxScroll, Math.max(0, ui.threadScroll));
  let y = top + Math.max(0, viewH - contentH) - maxScroll + ui.threadScroll;
  scene.beginClip({ x: 0, y: top - 16, w: W, h: barTop - top + 16 });
  laid.forEach((b, i) => {
    const x = b.m.fromMe ? W - 12 - b.width : 12;
    const fill = b.m.fromMe ? "#0b84fe" : t.incomingBubble;
    const ink = b.m.fromMe ? "#ffffff" : t.fg;
    const svg =
      rect({ x, y, w: b.width, h: b.height }, fill, 18) +
      b.lines
        .map((l, k) => scene.shape(l, x + 14, y + 7 + (k + 1) * LINE_H - 5, { size: FONT, fill: ink }).svg)
        .join("");
    scene.add(
      { id: `messages.bubble.${i}`, kind: "text", label: b.m.text, rect: { x, y, w: b.width, h: b.height } },
      svg,
    );
    y += b.height + 8;
  });
  scene.endClip();
  scene.scroll({
    rect: { x: 0, y: top, w: W, h: viewH },
    axis: "y",
    scrollBy: (d) => {
      ui.threadScroll = Math.min(maxScroll, Math.max(0, ui.threadScroll - d));
    },
  });
  // Nav bar: back button, avatar and name.
  scene.draw(
    rect({ x: 0, y: 0, w: W, h: METRICS.statusBarH + METRICS.navBarH + 14 }, t.bar) +
      rect({ x: 0, y: METRICS.statusBarH + METRICS.navBarH + 14, w: W, h: 0.5 }, t.separator),
  );
  const back = (): void => void messagesBack(state);
  scene.add(
    {
      id: "nav.back",
      kind: "control",
      label: s["common.back"],
      rect: { x: 0, y: METRICS.statusBarH, w: 44, h: 44 },
      onTap: back,
    },
    chevron(20, METRICS.statusBarH + 22, 10, t.tint, "left"),
  );
  scene.draw(avatar(scene, thread.name, W / 2, METRICS.statusBarH + 18, 18, Number(thread.id.slice(1)) || 0));
  scene.text("nav.title", thread.name, W / 2, METRICS.statusBarH + 53, {
    size: 12,
    fill: t.fg,
    anchor: "middle",
  });
  // Input bar: text field and Send.
  scene.draw(rect({ x: 0, y: barTop, w: W, h: H - barTop }, t.bar));
  const field = { x: 12, y: barTop + 8, w: W - 100, h: 36 };
  const shown = ui.draft ? ellipsize(ctx.fonts, ui.draft, FONT, field.w - 24) : s["messages.placeholder"];
  scene.add(
    {
      id: "messages.field",
      kind: "control",
      label: ui.draft || s["messages.placeholder"],
      rect: field,
      onTap: () => {
        ui.pasteMenu = false;
        if (!ui.focused) state.keyboard = { ...state.keyboard, layer: "letters", shift: "auto" };
        ui.focused = true;
      },
      // Long press opens the edit menu, which iOS only offers when there is something to paste.
      onLongPress: () => {
        ui.pasteMenu = (state.clipboard ?? "") !== "";
        return ui.pasteMenu;
      },
    },
    rect(field, t.bg, 18, `stroke="${t.separator}" stroke-width="1"`) +
      scene.shape(shown, field.x + 12, field.y + 24, { size: FONT, fill: ui.draft ? t.fg : t.secondary }).svg,
  );
  const sendRect = { x: W - 80, y: barTop + 8, w: 68, h: 36 };
  const enabled = ui.draft.trim() !== "";
  const send = (): void => {
    if (!enabled) return;
    thread.messages.push({ fromMe: true, text: ui.draft, atMs: ctx.nowMs });
    ui.draft = "";
    ui.pasteMenu = false;
    ui.threadScroll = 0;
  };
  scene.add(
    { id: "messages.send", kind: "control", label: s["messages.send"], rect: sendRect, onTap: send },
    rect(sendRect, enabled ? "#0b84fe" : t.fill, 18) +
      scene.shape(s["messages.send"], sendRect.x + sendRect.w / 2, sendRect.y + 24, {
        size: FONT,
        weight: "semibold",
        fill: enabled ? "#fff" : t.secondary,
        anchor: "middle",
      }).svg,
  );
  if (ui.focused)
    buildKeyboard(scene, ctx, {
      text: ui.draft,
      set: (text) => {
        ui.draft = text;
      },
    });
  if (ui.pasteMenu && state.clipboard) {
    const clip = state.clipboard;
    // A dimmed-free backdrop that closes the menu when tapping elsewhere (hidden from truth).
    scene.add({
      id: "messages.menu.backdrop",
      kind: "control",
      label: "",
      rect: { x: 0, y: 0, w: W, h: H },
      hidden: true,
      onTap: () => {
        ui.pasteMenu = false;
      },
    });
    const label = s["messages.paste"];
    const w = ctx.fonts.measure(label, 15) + 32;
    const menu = { x: field.x + 16, y: field.y - 48, w, h: 38 };
    const svg =
      rect(menu, "#2c2c2e", 9) +
      path(`M${menu.x + 24} ${menu.y + 38} l8 8 l8 -8 Z`, "#2c2c2e") +
      scene.shape(label, menu.x + w / 2, menu.y + 25, { size: 15, fill: "#fff", anchor: "middle" }).svg;
    const paste = (): void => {
      ui.draft += clip;
      ui.pasteMenu = false;
    };
    scene.add({ id: "messages.paste", kind: "control", label, rect: menu, onTap: paste }, svg);
  }
}

export function buildMessages(scene: Scene, ctx: Ctx): void {
  const ui = messagesUi(ctx.state);
  const thread = ctx.state.threads.find((t) => t.id === ui.threadId);
  appFrame(scene, ctx, ctx.theme.bg);
  if (thread) threadView(scene, ctx, ui, thread);
  else list(scene, ctx, ui);
  appFinish(scene, ctx);
}
