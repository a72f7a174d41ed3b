/**
 * Seeded pseudo-random numbers (mulberry32). Randomness is injected as a `Random` so a simulation
 * with the same seed produces the same frames, byte for byte.
 */
export interface Random {
  /** Uniform in [0, 1). */
  next(): number;
}

export function seededRandom(seed: number): Random {
  let state = seed >>> 0;
  return {
    next(): number {
      state = (state + 0x6d2b79f5) >>> 0;
      let t = state;
      t = Math.imul(t ^ (t >>> 15), t | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    },
  };
}

/** Standard normal sample (Box–Muller) from a uniform source. */
export function gaussian(random: Random): number {
  const u = Math.max(random.next(), 1e-12);
  const v = random.next();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
}
