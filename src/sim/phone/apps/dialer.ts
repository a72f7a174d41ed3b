import type { Ctx } from "../context.js";
import type { Scene } from "../scene.js";
import type { AppUi, PhoneState, PhoneTab } from "../state.js";
import { circle, line, path, rect } from "../svg.js";
import { appFinish, appFrame, tabBar } from "./common.js";

/**
 * The Phone app: its Keypad tab (the one the eval dials on) and the outgoing-call screen; the other
 * tabs are empty. Keypad metrics are iOS 17's on a 390×844 pt iPhone, as `src/vision/dial-pad.ts`
 * documents them from screenshots: 78 pt round keys on a 102 pt horizontal and 90 pt vertical pitch,
 * the digit over its letters (`ABC`), `*` and `#` beside `0`, the green call button (#34C759) one row
 * below `0`, and a delete key to its right once a digit is typed. Numbers are shown as typed (iOS
 * formats some regions' numbers, e.g. US ones as "(555) 123-4567"; this simulator does not).
 */

type PhoneUi = AppUi["phone"];

export const KEYPAD = { key: 78, pitchX: 102, pitchY: 90, firstRowY: 300, numberY: 190 } as const;

const KEYS: [label: string, letters: string][] = [
  ["1", ""],
  ["2", "ABC"],
  ["3", "DEF"],
  ["4", "GHI"],
  ["5", "JKL"],
  ["6", "MNO"],
  ["7", "PQRS"],
  ["8", "TUV"],
  ["9", "WXYZ"],
  ["*", ""],
  ["0", "+"],
  ["#", ""],
];

/** The longest number the keypad takes (E.164 allows 15 digits; pauses and codes add a few). */
const MAX_ENTRY = 32;
const GREEN = "#34c759";
const RED = "#ff3b30";

export function phoneUi(state: PhoneState): PhoneUi {
  state.ui.phone ??= { tab: "keypad", entry: "" };
  return state.ui.phone;
}

export function phoneSummary(state: PhoneState): string {
  if (state.call) return `calling ${state.call.number}`;
  const ui = phoneUi(state);
  return ui.tab === "keypad" ? `keypad, number "${ui.entry}"` : `${ui.tab} tab`;
}

/** Place a call to the typed number; with nothing typed, iOS fills in the last number called. */
function callTapped(state: PhoneState, ui: PhoneUi, nowMs: number): void {
  if (ui.entry === "") {
    ui.entry = state.calls[state.calls.length - 1]?.number ?? "";
    return;
  }
  const call = { number: ui.entry, startedAtMs: nowMs };
  state.call = call;
  state.calls.push(call);
  ui.entry = "";
}

function handset(cx: number, cy: number, fill: string, rotateDeg = 0): string {
  // A receiver: two round ends joined by a curved handle.
  const d = `M${cx - 13} ${cy - 6} q2 -6 8 -6 l2 5 q-4 3 -2 6 q4 7 11 10 q3 2 6 -2 l5 2 q0 6 -6 8 q-14 0 -24 -23 Z`;
  return `<g transform="rotate(${rotateDeg} ${cx} ${cy})">${path(d, fill)}</g>`;
}

function keypad(scene: Scene, ctx: Ctx, ui: PhoneUi): void {
  const { W, theme: t, s, state } = ctx;
  const keyFill = t.dark ? "#333333" : "#e5e5ea";
  if (ui.entry) {
    scene.text("phone.number", ui.entry, W / 2, KEYPAD.numberY, {
      size: ui.entry.length > 12 ? 28 : 36,
      fill: t.fg,
      anchor: "middle",
    });
    scene.text("phone.addNumber", s["phone.addNumber"], W / 2, KEYPAD.numberY + 34, {
      size: 17,
      fill: t.tint,
      anchor: "middle",
    });
  }
  KEYS.forEach(([label, letters], i) => {
    const cx = W / 2 + ((i % 3) - 1) * KEYPAD.pitchX;
    const cy = KEYPAD.firstRowY + Math.floor(i / 3) * KEYPAD.pitchY;
    const r = KEYPAD.key / 2;
    const big = label === "*" || label === "#";
    const svg =
      circle(cx, cy, r, keyFill) +
      scene.shape(label, cx, cy + (letters ? 6 : big ? 16 : 12), {
        size: label === "*" ? 44 : 36,
        fill: t.fg,
        anchor: "middle",
      }).svg +
      (letters
        ? scene.shape(letters, cx, cy + 23, { size: 10, weight: "semibold", fill: t.fg, anchor: "middle" })
            .svg
        : "");
    const type = (ch: string) => {
      if (ui.entry.length < MAX_ENTRY) ui.entry += ch;
    };
    scene.add(
      {
        id: `phone.key.${label}`,
        kind: "control",
        label,
        rect: { x: cx - r, y: cy - r, w: 2 * r, h: 2 * r },
        onTap: () => type(label),
        // Holding 0 types "+" (international prefix), as on iOS.
        ...(label === "0"
          ? {
              onLongPress: () => {
                type("+");
                return true;
              },
            }
          : {}),
      },
      svg,
    );
  });
  const callY = KEYPAD.firstRowY + 4 * KEYPAD.pitchY;
  const r = KEYPAD.key / 2;
  scene.add(
    {
      id: "phone.call",
      kind: "control",
      label: "call",
      rect: { x: W / 2 - r, y: callY - r, w: 2 * r, h: 2 * r },
      onTap: () => callTapped(state, ui, ctx.nowMs),
    },
    circle(W / 2, callY, r, GREEN) + handset(W / 2, callY, "#ffffff"),
  );
  if (ui.entry) {
    const dx = W / 2 + KEYPAD.pitchX;
    scene.add(
      {
        id: "phone.delete",
        kind: "control",
        label: "delete",
        rect: { x: dx - 22, y: callY - 22, w: 44, h: 44 },
        onTap: () => {
          ui.entry = ui.entry.slice(0, -1);
        },
      },
      path(
        `M${dx - 16} ${callY} L${dx - 8} ${callY - 10} L${dx + 14} ${callY - 10} L${dx + 14} ${callY + 10} L${dx - 8} ${callY + 10} Z`,
        t.secondary,
      ) +
        line(dx - 2, callY - 5, dx + 8, callY + 5, t.dark ? "#000" : "#fff", 2) +
        line(dx + 8, callY - 5, dx - 2, callY + 5, t.dark ? "#000" : "#fff", 2),
    );
  }
}

/** The outgoing call: number, "calling…", two of the in-call buttons and the red end button. */
function callScreen(scene: Scene, ctx: Ctx, number: string): void {
  const { W, H, s, state } = ctx;
  scene.draw(rect({ x: 0, y: 0, w: W, h: H }, "#1c1c1e"));
  scene.text("call.number", number, W / 2, 150, { size: 34, fill: "#ffffff", anchor: "middle" });
  scene.text("call.status", s["phone.calling"], W / 2, 182, { size: 17, fill: "#ebebf5", anchor: "middle" });
  (["phone.mute", "phone.speaker"] as const).forEach((key, i) => {
    const cx = W / 2 + (i === 0 ? -1 : 1) * KEYPAD.pitchX;
    scene.add(
      {
        id: `call.${key.slice(6)}`,
        kind: "control",
        label: s[key],
        rect: { x: cx - 39, y: 460, w: 78, h: 78 },
      },
      circle(cx, 499, 39, "#3a3a3c") +
        scene.shape(s[key], cx, 560, { size: 13, fill: "#ffffff", anchor: "middle" }).svg,
    );
  });
  scene.add(
    {
      id: "call.end",
      kind: "control",
      label: s["phone.end"],
      rect: { x: W / 2 - 39, y: 661, w: 78, h: 78 },
      onTap: () => {
        state.call = null;
      },
    },
    circle(W / 2, 700, 39, RED) + handset(W / 2, 700, "#ffffff", 135),
  );
  scene.drawText(s["phone.end"], W / 2, 760, { size: 13, fill: "#ffffff", anchor: "middle" });
}

const TABS: PhoneTab[] = ["favorites", "recents", "contacts", "keypad", "voicemail"];

export function buildDialer(scene: Scene, ctx: Ctx): void {
  const ui = phoneUi(ctx.state);
  const call = ctx.state.call;
  if (call) {
    callScreen(scene, ctx, call.number);
    appFinish(scene, ctx, true);
    return;
  }
  const t = ctx.theme;
  appFrame(scene, ctx, t.bg);
  if (ui.tab === "keypad") keypad(scene, ctx, ui);
  else {
    scene.text("title", ctx.s[`phone.${ui.tab}`], 16, 132, { size: 34, weight: "semibold", fill: t.fg });
    scene.text("phone.empty", ctx.s["common.noContent"], ctx.W / 2, 430, {
      size: 17,
      fill: t.secondary,
      anchor: "middle",
    });
  }
  tabBar(
    scene,
    ctx,
    TABS.map((id) => ({
      id,
      label: ctx.s[`phone.${id}`],
      glyph: (cx: number, cy: number, c: string) =>
        id === "keypad"
          ? [-6, 0, 6].flatMap((dy) => [-6, 0, 6].map((dx) => circle(cx + dx, cy + dy, 2, c))).join("")
          : circle(cx, cy, 9, "none", `stroke="${c}" stroke-width="2"`),
    })),
    ui.tab,
    (id) => {
      ui.tab = id;
    },
    "phone.tab",
    t.tint,
  );
  appFinish(scene, ctx);
}
