import type { Scene } from "../../sim/phone/scene.js";
import type { Theme } from "../../sim/phone/theme.js";
import type { Random } from "../../util/random.js";
import { pick } from "./pick.js";

/** What every section of a random layout draws with (see layout.ts). */
export interface Env {
  rng: Random;
  scene: Scene;
  locale: "en" | "zh";
  t: Theme;
  W: number;
  seq: number;
}

export const id = (env: Env, what: string): string => `${what}.${env.seq++}`;

export function text(
  env: Env,
  label: string,
  x: number,
  y: number,
  size: number,
  fill: string,
  anchor: "start" | "middle" | "end" = "start",
): void {
  const weight = pick(env.rng, ["regular", "regular", "semibold", "light"] as const);
  env.scene.text(id(env, "text"), label, x, y, { size, fill, anchor, weight });
}
