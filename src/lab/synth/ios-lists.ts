import { ellipsize } from "../../sim/phone/scene.js";
import { rect } from "../../sim/phone/svg.js";
import { iconButton, iosStepper, iosSwitch } from "./ios-controls.js";
import { type Env, id, text } from "./layout-env.js";
import { chance, pick, randInt, vivid } from "./pick.js";
import { symbolSvg } from "./symbols.js";
import { sentence, shortLabel, valueText } from "./words.js";

/**
 * Grouped lists as iOS Settings, Mail, App Store and edit modes draw them: 44 pt rows with 17 pt
 * labels, 29 pt coloured tiles, and one accessory per row — chevron, value, switch (on or off),
 * checkmark, info ⓘ button, stepper, reorder handle ≡, delete ⊖, selection circle, download ☁↓ or a
 * "GET" pill. A row that navigates is one `control`; a row with its own control (switch, stepper,
 * button) is `text` + that control; bare symbols that are tappable are `icon`s.
 */

type Accessory =
  | "chevron"
  | "value"
  | "switch"
  | "check"
  | "info"
  | "stepper"
  | "reorder"
  | "delete"
  | "select"
  | "download"
  | "get";

const ACCESSORIES: readonly Accessory[] = [
  "chevron",
  "chevron",
  "value",
  "switch",
  "switch",
  "switch",
  "check",
  "info",
  "stepper",
  "reorder",
  "delete",
  "select",
  "download",
  "get",
];

/** A 29 pt rounded tile with a white symbol (Settings' row icons). */
function rowTile(env: Env, x: number, y: number): string {
  const bg = vivid(env.rng);
  return rect({ x, y, w: 29, h: 29 }, bg, 7) + symbolSvg(env.rng, x + 5.5, y + 5.5, 18, "#ffffff", bg);
}

/** One grouped section (header, rows, footer); returns the y below it. */
export function groupedSection(env: Env, y: number, maxY: number): number {
  const { rng, W, t, scene, locale } = env;
  if (chance(rng, 0.5)) {
    const head = shortLabel(rng, locale);
    text(
      env,
      ellipsize(scene.fonts, locale === "en" ? head.toUpperCase() : head, 13, W - 64),
      32,
      y + 24,
      13,
      t.secondary,
    );
    y += 34;
  }
  const mixed = chance(rng, 0.5);
  const main = pick(rng, ACCESSORIES);
  const subtitle = chance(rng, 0.2);
  const rowH = subtitle ? randInt(rng, 58, 64) : 44;
  const n = Math.min(randInt(rng, 1, 7), Math.floor((maxY - y) / rowH));
  if (n <= 0) return maxY;
  const inset = chance(rng, 0.8) ? 16 : 0;
  const cell = t.dark ? t.cell : "#ffffff";
  scene.draw(rect({ x: inset, y, w: W - 2 * inset, h: n * rowH }, cell, inset ? 10 : 0));
  const tiles = chance(rng, 0.5);
  for (let i = 0; i < n; i++) {
    const ry = y + i * rowH;
    const acc = mixed ? pick(rng, ACCESSORIES) : main;
    let tx = inset + 16;
    const lead = acc === "delete" || acc === "select";
    if (lead) tx += 38;
    if (tiles) tx += 45;
    if (i > 0) scene.draw(rect({ x: tx, y: ry, w: W - tx - inset, h: 0.33 }, t.separator));
    row(env, { inset, ry, rowH, tx, acc, tiles, subtitle, cell });
  }
  y += n * rowH;
  if (chance(rng, 0.3)) {
    const foot = ellipsize(scene.fonts, sentence(rng, locale), 13, W - 64);
    text(env, foot, 32, y + 20, 13, t.secondary);
    y += 26;
  }
  return y + 20;
}

interface RowSpec {
  inset: number;
  ry: number;
  rowH: number;
  tx: number;
  acc: Accessory;
  tiles: boolean;
  subtitle: boolean;
  cell: string;
}

function row(env: Env, r: RowSpec): void {
  const { rng, W, t, scene, locale } = env;
  const { inset, ry, rowH, tx, acc } = r;
  const cy = ry + rowH / 2;
  const right = W - inset - 16;
  const label = ellipsize(scene.fonts, shortLabel(rng, locale), 17, right - tx - 110);
  const base = r.subtitle ? cy - 3 : cy + 6;
  const tileSvg = r.tiles
    ? rowTile(env, inset + 16 + (acc === "delete" || acc === "select" ? 38 : 0), cy - 14.5)
    : "";
  const subText = r.subtitle ? ellipsize(scene.fonts, sentence(rng, locale), 13, right - tx - 60) : "";
  const sub = subText ? scene.shape(subText, tx, cy + 16, { size: 13, fill: t.secondary }) : null;
  const rowRect = { x: inset, y: ry, w: W - 2 * inset, h: rowH };
  const labelSvg = scene.shape(label, tx, base, { size: 17, fill: t.fg }).svg + (sub?.svg ?? "");
  if (acc === "chevron" || acc === "value" || acc === "check") {
    let extra = "";
    if (acc === "chevron" || (acc === "value" && chance(rng, 0.7)))
      extra += symbolSvg(rng, right - 9, cy - 7, 14, t.dark ? "#5a5a5e" : "#c4c4c7", r.cell, "chevron.right");
    if (acc === "value")
      extra += scene.shape(valueText(rng), right - (extra ? 18 : 0), cy + 6, {
        size: 17,
        fill: t.secondary,
        anchor: "end",
      }).svg;
    if (acc === "check" && chance(rng, 0.5))
      extra += symbolSvg(rng, right - 18, cy - 9, 18, t.tint, r.cell, "checkmark");
    scene.add({ id: id(env, "row"), kind: "control", label, rect: rowRect }, tileSvg + labelSvg + extra);
    return;
  }
  scene.draw(tileSvg);
  text(env, label, tx, base, 17, t.fg);
  if (subText) text(env, subText, tx, cy + 16, 13, t.secondary);
  if (acc === "switch") iosSwitch(env, right - 51, cy, label);
  else if (acc === "stepper") iosStepper(env, right, cy);
  else if (acc === "info") {
    if (chance(rng, 0.5)) text(env, valueText(rng), right - 34, cy + 6, 17, t.secondary, "end");
    iconButton(env, right - 22, cy - 11, 22, t.tint, r.cell, "info.circle");
  } else if (acc === "reorder")
    iconButton(env, right - 22, cy - 11, 22, t.secondary, r.cell, "line.3.horizontal");
  else if (acc === "delete")
    iconButton(env, inset + 14, cy - 11, 22, "#ff3b30", "#ffffff", "minus.circle.fill");
  else if (acc === "select") {
    const on = chance(rng, 0.5);
    iconButton(
      env,
      inset + 14,
      cy - 11,
      22,
      on ? t.tint : t.secondary,
      r.cell,
      on ? "checkmark.circle.fill" : "circle",
    );
  } else if (acc === "download")
    iconButton(
      env,
      right - 24,
      cy - 12,
      24,
      t.tint,
      r.cell,
      pick(rng, ["icloud.and.arrow.down", "arrow.down.circle"]),
    );
  else if (acc === "get") {
    const word = locale === "en" ? pick(rng, ["GET", "OPEN", "UPDATE"]) : pick(rng, ["获取", "打开", "更新"]);
    const s = scene.shape(word, 0, 0, { size: 15, weight: "semibold" });
    const w = Math.max(74, s.width + 28);
    const pill = { x: right - w, y: cy - 14, w, h: 28 };
    const bg = t.dark ? "#2c2c2e" : "#eeeef0";
    scene.add(
      { id: id(env, "get"), kind: "control", label: word, rect: pill },
      rect(pill, bg, 14) +
        scene.shape(word, pill.x + w / 2, cy + 5.5, {
          size: 15,
          weight: "semibold",
          fill: t.tint,
          anchor: "middle",
        }).svg,
    );
  }
}

/** Chat bubbles (Messages): incoming grey on the left, outgoing tinted on the right; lines are `text`. */
export function bubbles(env: Env, y: number, maxY: number): number {
  const { rng, W, t, scene, locale } = env;
  while (y < maxY - 50) {
    const out = chance(rng, 0.5);
    const lines = randInt(rng, 1, 3);
    const bw = Math.min(W * 0.72, 60 + rng.next() * W * 0.6);
    const h = 14 + lines * 22;
    if (y + h > maxY) break;
    const x = out ? W - 16 - bw : 16;
    const fill = out ? (chance(rng, 0.85) ? "#0a84ff" : "#34c759") : t.dark ? "#262629" : "#e9e9eb";
    const ink = out ? "#ffffff" : t.fg;
    scene.draw(rect({ x, y, w: bw, h }, fill, 18));
    for (let i = 0; i < lines; i++)
      text(env, ellipsize(scene.fonts, sentence(rng, locale), 17, bw - 24), x + 12, y + 25 + i * 22, 17, ink);
    y += h + (chance(rng, 0.3) ? 24 : 6);
  }
  return y;
}
