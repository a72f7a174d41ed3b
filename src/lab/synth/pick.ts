import type { Random } from "../../util/random.js";

/** Small helpers over a seeded `Random`, so every synthetic screen is reproducible from its seed. */

/** Integer in [lo, hi], both inclusive. */
export function randInt(rng: Random, lo: number, hi: number): number {
  return lo + Math.floor(rng.next() * (hi - lo + 1));
}

/** Uniform in [lo, hi). */
export function uniform(rng: Random, lo: number, hi: number): number {
  return lo + rng.next() * (hi - lo);
}

export function chance(rng: Random, p: number): boolean {
  return rng.next() < p;
}

/** One element of a non-empty list. */
export function pick<T>(rng: Random, items: readonly T[]): T {
  const item = items[Math.floor(rng.next() * items.length)];
  if (item === undefined) throw new RangeError("pick: empty list");
  return item;
}

/** `#rrggbb` from HSL (h in degrees, s and l in 0–1). */
export function hsl(h: number, s: number, l: number): string {
  const k = (n: number): number => (n + h / 30) % 12;
  const a = s * Math.min(l, 1 - l);
  const f = (n: number): number => l - a * Math.max(-1, Math.min(k(n) - 3, Math.min(9 - k(n), 1)));
  const hex = (v: number): string =>
    Math.round(v * 255)
      .toString(16)
      .padStart(2, "0");
  return `#${hex(f(0))}${hex(f(8))}${hex(f(4))}`;
}

/** A random saturated colour. */
export function vivid(rng: Random): string {
  return hsl(rng.next() * 360, uniform(rng, 0.5, 0.95), uniform(rng, 0.4, 0.6));
}
