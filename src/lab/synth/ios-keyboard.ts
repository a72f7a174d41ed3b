import { circle, rect } from "../../sim/phone/svg.js";
import { type Env, id } from "./layout-env.js";
import { chance, hsl, pick, randInt, uniform } from "./pick.js";
import { symbolSvg } from "./symbols.js";
import { shortLabel } from "./words.js";

/**
 * The iOS system keyboard and the Phone app's dial pad at Apple's published geometry, light and dark.
 * Every key is one `control` box covering its cap (the tappable thing); the glyph on it is not a
 * separate `text` box (the simulator's convention for buttons and keypads). Drawn from our own shapes.
 */

interface KeyStyle {
  bg: string;
  letter: string;
  func: string;
  ink: string;
  shadow: string;
}

function keyStyle(env: Env): KeyStyle {
  const { rng } = env;
  if (env.t.dark)
    return {
      bg: hsl(240, 0.03, uniform(rng, 0.1, 0.17)),
      letter: hsl(240, 0.02, uniform(rng, 0.33, 0.42)),
      func: hsl(240, 0.02, uniform(rng, 0.2, 0.27)),
      ink: "#ffffff",
      shadow: "#000000",
    };
  return {
    bg: hsl(220, uniform(rng, 0.05, 0.12), uniform(rng, 0.81, 0.86)),
    letter: "#ffffff",
    func: hsl(220, uniform(rng, 0.06, 0.12), uniform(rng, 0.68, 0.74)),
    ink: "#000000",
    shadow: "#898a8d",
  };
}

const LETTERS = ["qwertyuiop", "asdfghjkl", "zxcvbnm"];
const DIGITS = ["1234567890", '-/:;()$&@"', ".,?!'"];
const SYMBOLS_ROW = ["[]{}#%^*+=", "_\\|~<>€£¥•", ".,?!'"];

/** One key cap: a control box labelled with the character it types (or its name). */
function key(
  env: Env,
  k: KeyStyle,
  r: { x: number; y: number; w: number; h: number },
  label: string,
  face: { text?: string; size?: number; symbol?: string },
  func: boolean,
): void {
  const { scene, rng } = env;
  const fill = func ? k.func : k.letter;
  let ink = "";
  if (face.symbol) ink = symbolSvg(rng, r.x + r.w / 2 - 11, r.y + r.h / 2 - 11, 22, k.ink, fill, face.symbol);
  else if (face.text) {
    const size = face.size ?? 23;
    ink = scene.shape(face.text, r.x + r.w / 2, r.y + r.h / 2 + size * 0.36, {
      size,
      fill: k.ink,
      anchor: "middle",
    }).svg;
  }
  scene.add(
    { id: id(env, "key"), kind: "control", label, rect: r },
    rect({ ...r, y: r.y + 1 }, k.shadow, 5, 'fill-opacity="0.6"') + rect(r, fill, 5) + ink,
  );
}

/**
 * A keyboard whose bottom edge is at `bottom` (above the home-indicator area): QWERTY letters (lower
 * or upper case), numbers or symbols; 42 pt keys on a 54 pt row pitch, 6 pt gaps, 3 pt margins;
 * optional prediction bar above and globe/mic below. Returns the keyboard's top edge.
 */
export function keyboard(env: Env, H: number): number {
  const { rng, W, scene, locale } = env;
  const k = keyStyle(env);
  // Face ID phones: a globe + mic area (or just the home indicator) under the keys; none on Home-button phones.
  const below = env.safeBottom === 0 ? 0 : chance(rng, 0.8) ? 75 : 34;
  if (chance(rng, 0.15)) return numberPad(env, k, H - below);
  const keysH = 4 * 54 + 8;
  const predictive = chance(rng, 0.7);
  const top = H - below - keysH - (predictive ? 44 : 0);
  scene.draw(rect({ x: 0, y: top, w: W, h: H - top }, k.bg));
  let y = top + 8;
  if (predictive) {
    for (let i = 0; i < 3; i++) {
      const word = shortLabel(rng, locale).split(" ")[0] ?? "";
      const cell = { x: (W / 3) * i, y: top + 4, w: W / 3, h: 36 };
      if (i > 0) scene.draw(rect({ x: cell.x, y: top + 12, w: 0.5, h: 20 }, k.shadow));
      if (chance(rng, 0.15)) continue;
      const s = scene.shape(i === 1 && locale === "en" ? `“${word}”` : word, cell.x + cell.w / 2, top + 28, {
        size: 17,
        fill: k.ink,
        anchor: "middle",
      });
      scene.add({ id: id(env, "suggest"), kind: "control", label: word, rect: cell }, s.svg);
    }
    y += 44;
  }
  const mode = pick(rng, ["lower", "lower", "upper", "digits", "symbols"] as const);
  const rows = mode === "digits" ? DIGITS : mode === "symbols" ? SYMBOLS_ROW : LETTERS;
  const pitch = (W - 6) / 10;
  const kw = pitch - 6;
  for (let row = 0; row < 3; row++) {
    const chars = [...(rows[row] ?? "")];
    const ry = y + row * 54;
    const wide = row === 2 && mode !== "lower" && mode !== "upper";
    const cw = wide ? (W - 6 - 2 * (pitch * 1.35)) / chars.length - 6 : kw;
    const total = chars.length * (cw + 6) - 6;
    const x0 = (W - total) / 2;
    chars.forEach((ch, i) => {
      const face = mode === "upper" ? ch.toUpperCase() : ch;
      key(
        env,
        k,
        { x: x0 + i * (cw + 6), y: ry, w: cw, h: 42 },
        face,
        { text: face, size: mode === "lower" ? 25 : 22 },
        false,
      );
    });
    if (row === 2) {
      const fw = wide ? pitch * 1.35 - 6 : 42;
      const left = wide ? (mode === "digits" ? "#+=" : "123") : "shift";
      key(
        env,
        k,
        { x: 3, y: ry, w: fw, h: 42 },
        left,
        wide ? { text: left, size: 16 } : { symbol: "arrow.up" },
        mode !== "upper",
      );
      key(env, k, { x: W - 3 - fw, y: ry, w: fw, h: 42 }, "delete", { symbol: "delete.left" }, true);
    }
  }
  const by = y + 3 * 54;
  const sw = pitch * 2.3;
  const alt = mode === "lower" || mode === "upper" ? "123" : "ABC";
  key(env, k, { x: 3, y: by, w: sw - 6, h: 42 }, alt, { text: alt, size: 16 }, true);
  let sx = 3 + sw;
  if (below < 60 || chance(rng, 0.3)) {
    key(
      env,
      k,
      { x: sx, y: by, w: pitch - 6, h: 42 },
      below < 60 ? "globe" : "emoji",
      { symbol: below < 60 ? "globe" : "circle" },
      true,
    );
    sx += pitch;
  }
  const rw = sw;
  const space = locale === "zh" ? "空格" : "space";
  key(env, k, { x: sx, y: by, w: W - 3 - rw - sx, h: 42 }, "space", { text: space, size: 16 }, false);
  const ret =
    locale === "zh"
      ? pick(rng, ["换行", "发送", "搜索", "完成"])
      : pick(rng, ["return", "go", "search", "send", "done"]);
  key(
    env,
    k,
    { x: W - 3 - rw + 6, y: by, w: rw - 6, h: 42 },
    "return",
    { text: ret, size: 16 },
    ret === "return" || ret === "换行",
  );
  if (below >= 60) {
    env.scene.add(
      { id: id(env, "kb.globe"), kind: "icon", label: "globe", rect: { x: 22, y: by + 58, w: 28, h: 28 } },
      symbolSvg(rng, 24, by + 60, 24, k.ink, k.bg, "globe"),
    );
    env.scene.add(
      { id: id(env, "kb.mic"), kind: "icon", label: "mic", rect: { x: W - 48, y: by + 58, w: 26, h: 28 } },
      symbolSvg(rng, W - 46, by + 60, 24, k.ink, k.bg, "mic"),
    );
  }
  return top;
}

/**
 * The number pad (passcodes, phone-number fields): 3 × 4 full-width keys with a digit and its letters,
 * hairline gaps, blank bottom-left, 0, delete. Returns its top edge.
 */
function numberPad(env: Env, k: KeyStyle, bottom: number): number {
  const { W, scene, rng } = env;
  const h = chance(rng, 0.5) ? 46 : 54;
  const gap = chance(rng, 0.5) ? 0.5 : 6;
  const top = bottom - 4 * (h + gap) - (gap > 1 ? 6 : 0);
  scene.draw(rect({ x: 0, y: top, w: W, h: bottom - top + 40 }, k.bg));
  const kw = (W - (gap > 1 ? 12 : 0) - 2 * gap) / 3;
  for (let i = 0; i < 12; i++) {
    const r = {
      x: (gap > 1 ? 6 : 0) + (i % 3) * (kw + gap),
      y: top + (gap > 1 ? 6 : 0) + Math.floor(i / 3) * (h + gap),
      w: kw,
      h,
    };
    if (i === 9) continue;
    if (i === 11) {
      scene.add(
        { id: id(env, "key"), kind: "control", label: "delete", rect: r },
        symbolSvg(rng, r.x + kw / 2 - 13, r.y + h / 2 - 11, 26, k.ink, k.bg, "delete.left"),
      );
      continue;
    }
    const digit = i === 10 ? "0" : String(i + 1);
    const letters = DIAL_LETTERS[i === 10 ? 10 : i] ?? "";
    const lift = letters && i !== 10 ? 7 : 0;
    scene.add(
      { id: id(env, "key"), kind: "control", label: digit, rect: r },
      rect(r, k.letter, gap > 1 ? 5 : 0) +
        scene.shape(digit, r.x + kw / 2, r.y + h / 2 + 9 - lift, { size: 25, fill: k.ink, anchor: "middle" })
          .svg +
        (lift
          ? scene.shape(letters, r.x + kw / 2, r.y + h / 2 + 15, {
              size: 10,
              weight: "semibold",
              fill: k.ink,
              anchor: "middle",
            }).svg
          : ""),
    );
  }
  return top;
}

const DIAL = ["1", "2", "3", "4", "5", "6", "7", "8", "9", "*", "0", "#"];
const DIAL_LETTERS = ["", "ABC", "DEF", "GHI", "JKL", "MNO", "PQRS", "TUV", "WXYZ", "", "+", ""];

/**
 * The Phone app's keypad: 78 pt round keys (digit + letters), the number typed so far above, the green
 * call button and (when digits were typed) the delete key. Returns the y below the call button.
 */
export function dialPad(env: Env, top: number): number {
  const { rng, W, scene, t } = env;
  const d = randInt(rng, 74, 80);
  const px = d + randInt(rng, 18, 26);
  const py = d + randInt(rng, 12, 18);
  const keyFill = t.dark ? hsl(0, 0, uniform(rng, 0.17, 0.22)) : hsl(0, 0, uniform(rng, 0.88, 0.92));
  const typed = chance(rng, 0.6)
    ? Array.from({ length: randInt(rng, 3, 11) }, () => pick(rng, DIAL.slice(0, 11))).join("")
    : "";
  if (typed)
    scene.text(id(env, "dialed"), typed, W / 2, top + 40, {
      size: randInt(rng, 30, 38),
      fill: t.fg,
      anchor: "middle",
    });
  if (typed && chance(rng, 0.5)) {
    const s = scene.shape(env.locale === "en" ? "Add Number" : "添加号码", W / 2, top + 68, {
      size: 15,
      fill: t.tint,
      anchor: "middle",
    });
    scene.add(
      {
        id: id(env, "addnum"),
        kind: "control",
        label: "Add Number",
        rect: { x: s.rect.x - 4, y: top + 52, w: s.width + 8, h: 22 },
      },
      s.svg,
    );
  }
  const y0 = top + 96;
  DIAL.forEach((digit, i) => {
    const cx = W / 2 + ((i % 3) - 1) * px;
    const cy = y0 + d / 2 + Math.floor(i / 3) * py;
    const letters = DIAL_LETTERS[i] ?? "";
    const lift = letters ? d * 0.08 : 0;
    const size = digit === "*" ? d * 0.6 : d * 0.44;
    const ink =
      scene.shape(digit, cx, cy + size * 0.36 - lift + (digit === "*" ? d * 0.12 : 0), {
        size,
        fill: t.fg,
        anchor: "middle",
      }).svg +
      (letters
        ? scene.shape(letters.split("").join(" "), cx, cy + d * 0.3, {
            size: d * 0.13,
            weight: "semibold",
            fill: t.fg,
            anchor: "middle",
          }).svg
        : "");
    scene.add(
      {
        id: id(env, "dial"),
        kind: "control",
        label: digit,
        rect: { x: cx - d / 2, y: cy - d / 2, w: d, h: d },
      },
      circle(cx, cy, d / 2, keyFill) + ink,
    );
  });
  const cy = y0 + d / 2 + 4 * py;
  scene.add(
    {
      id: id(env, "call"),
      kind: "control",
      label: "call",
      rect: { x: W / 2 - d / 2, y: cy - d / 2, w: d, h: d },
    },
    circle(W / 2, cy, d / 2, "#34c759") +
      symbolSvg(rng, W / 2 - d * 0.2, cy - d * 0.2, d * 0.4, "#ffffff", "#34c759", "phone.fill"),
  );
  if (typed) {
    const s = 28;
    const x = W / 2 + px - s / 2;
    scene.add(
      {
        id: id(env, "backspace"),
        kind: "icon",
        label: "delete",
        rect: { x: x - 4, y: cy - s / 2 - 4, w: s + 8, h: s + 8 },
      },
      symbolSvg(
        rng,
        x,
        cy - s / 2 + 2,
        s,
        t.dark ? "#d0d0d0" : "#8e8e93",
        t.bg,
        chance(rng, 0.5) ? "delete.left.fill" : "delete.left",
      ),
    );
  }
  return cy + d / 2 + 12;
}
