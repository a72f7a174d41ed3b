import { STRINGS } from "../../sim/phone/strings.js";
import type { Random } from "../../util/random.js";
import { chance, pick, randInt } from "./pick.js";

/**
 * Random English and Chinese strings for synthetic screens. Chinese text draws only on characters the
 * phone's own Chinese strings use, so the shipped font subsets always have the glyphs.
 */

const EN_WORDS = (
  "account add alarm album all archive back battery book calendar call cancel card chat clear close " +
  "cloud code connect contacts copy daily data delete device display done download draft edit email " +
  "event favorites files filter find follow friends general group help history home inbox info invite " +
  "keyboard language later library link list location login map media message more music network new " +
  "news next notes notifications open order password payment phone photos play playlist privacy " +
  "profile recent reminder reply report restore save scan search security select send settings share " +
  "shop show sign skip sleep sort storage subscribe sync today track transfer update upload video view " +
  "wallet weather week wifi work"
).split(" ");

const NAMES = [
  "Anna",
  "Ben",
  "Chloe",
  "Daniel",
  "Eva",
  "Felix",
  "Grace",
  "Hugo",
  "Iris",
  "Jack",
  "Mia",
  "Noah",
];

const ZH_CHARS = [
  ...new Set(
    Object.values(STRINGS.zh)
      .join("")
      .replace(/[\s\p{P}\p{S}0-9A-Za-z]/gu, ""),
  ),
];

function enPhrase(rng: Random, words: number): string {
  const parts = Array.from({ length: words }, () => pick(rng, EN_WORDS));
  if (chance(rng, 0.15)) parts.splice(randInt(rng, 0, parts.length), 0, pick(rng, NAMES));
  if (chance(rng, 0.15)) parts.push(String(randInt(rng, 1, 999)));
  const text = parts.join(" ");
  return chance(rng, 0.2) ? text.toUpperCase() : text.charAt(0).toUpperCase() + text.slice(1);
}

function zhPhrase(rng: Random, chars: number): string {
  let text = Array.from({ length: chars }, () => pick(rng, ZH_CHARS)).join("");
  if (chance(rng, 0.15)) text += String(randInt(rng, 1, 99));
  return text;
}

/** A short label (1–3 words, or 2–5 hanzi). */
export function shortLabel(rng: Random, locale: "en" | "zh"): string {
  return locale === "en" ? enPhrase(rng, randInt(rng, 1, 3)) : zhPhrase(rng, randInt(rng, 2, 5));
}

/** A sentence-length string (3–12 words, or 6–24 hanzi). */
export function sentence(rng: Random, locale: "en" | "zh"): string {
  return locale === "en" ? enPhrase(rng, randInt(rng, 3, 12)) : zhPhrase(rng, randInt(rng, 6, 24));
}

/** A value-like string: a time, a percentage, a count, a price. */
export function valueText(rng: Random): string {
  const kind = randInt(rng, 0, 3);
  if (kind === 0) return `${randInt(rng, 1, 12)}:${String(randInt(rng, 0, 59)).padStart(2, "0")}`;
  if (kind === 1) return `${randInt(rng, 0, 100)}%`;
  if (kind === 2) return String(randInt(rng, 1, 9999));
  return `$${randInt(rng, 1, 499)}.${String(randInt(rng, 0, 99)).padStart(2, "0")}`;
}
