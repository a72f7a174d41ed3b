import type { RgbImage } from "../shared/image.js";
import { greySmall } from "./verdict.js";

/**
 * Cheap screen statistics for the poll trigger: no model runs. Each zone of the rectified screen keeps a
 * fast and a slow moving average of its mean grey level and its edge energy; a zone whose fast average
 * departs from the slow one for `debounceSamples` samples in a row reports an event once, then re-arms
 * when the two meet again. The status bar is never a zone, so the clock ticking wakes nobody.
 */
export interface WatchZone {
  name: string;
  /** Vertical span, fractions of the screen height. */
  top: number;
  bottom: number;
}

export const DEFAULT_ZONES: readonly WatchZone[] = [
  { name: "banner", top: 0.06, bottom: 0.16 },
  { name: "lower", top: 0.5, bottom: 0.88 },
  { name: "dock", top: 0.88, bottom: 1 },
];

export interface WatcherOptions {
  zones: readonly WatchZone[];
  /** Time constants of the moving averages (ms). */
  fastMs: number;
  slowMs: number;
  /** Departure (grey levels, 0–255) of the fast from the slow average that counts as activity. */
  threshold: number;
  debounceSamples: number;
  width: number;
}

export const DEFAULT_WATCHER_OPTIONS: WatcherOptions = {
  zones: DEFAULT_ZONES,
  fastMs: 5_000,
  slowMs: 20_000,
  threshold: 6,
  debounceSamples: 2,
  width: 48,
};

export interface ZoneStats {
  mean: number;
  edges: number;
}

export interface WatchEvent {
  zone: string;
  tMs: number;
  /** Largest departure of mean or edge energy, grey levels. */
  departure: number;
}

interface ZoneState {
  fast: ZoneStats;
  slow: ZoneStats;
  streak: number;
  fired: boolean;
}

/** Mean grey level and mean horizontal+vertical gradient of each zone (raw grey, not normalised). */
export function zoneStats(image: RgbImage, zones: readonly WatchZone[], width: number): ZoneStats[] {
  const g = greySmall(image, width, 0);
  // greySmall normalises contrast; undo nothing: departures are relative between samples of one screen.
  return zones.map((z) => {
    const y0 = Math.floor(z.top * g.h);
    const y1 = Math.max(y0 + 1, Math.ceil(z.bottom * g.h));
    let sum = 0;
    let edges = 0;
    let n = 0;
    for (let y = y0; y < Math.min(y1, g.h); y++)
      for (let x = 0; x < g.w; x++) {
        const v = g.v[y * g.w + x] ?? 0;
        sum += v;
        if (x + 1 < g.w) edges += Math.abs(v - (g.v[y * g.w + x + 1] ?? 0));
        if (y + 1 < g.h) edges += Math.abs(v - (g.v[(y + 1) * g.w + x] ?? 0));
        n++;
      }
    return { mean: n ? sum / n : 0, edges: n ? edges / n : 0 };
  });
}

export class ScreenWatcher {
  private state: ZoneState[] | null = null;
  private lastMs: number | null = null;

  constructor(private readonly options: WatcherOptions = DEFAULT_WATCHER_OPTIONS) {}

  /** Feed one rectified frame taken at `tMs`; returns the zones that just became active. */
  update(image: RgbImage, tMs: number): WatchEvent[] {
    const stats = zoneStats(image, this.options.zones, this.options.width);
    const dt = this.lastMs === null ? 0 : Math.max(0, tMs - this.lastMs);
    this.lastMs = tMs;
    if (!this.state) {
      this.state = stats.map((s) => ({ fast: { ...s }, slow: { ...s }, streak: 0, fired: false }));
      return [];
    }
    const events: WatchEvent[] = [];
    const af = 1 - Math.exp(-dt / this.options.fastMs);
    const as = 1 - Math.exp(-dt / this.options.slowMs);
    stats.forEach((s, i) => {
      const z = this.state?.[i];
      const zone = this.options.zones[i];
      if (!z || !zone) return;
      z.fast = {
        mean: z.fast.mean + af * (s.mean - z.fast.mean),
        edges: z.fast.edges + af * (s.edges - z.fast.edges),
      };
      z.slow = {
        mean: z.slow.mean + as * (s.mean - z.slow.mean),
        edges: z.slow.edges + as * (s.edges - z.slow.edges),
      };
      const departure = Math.max(Math.abs(z.fast.mean - z.slow.mean), Math.abs(z.fast.edges - z.slow.edges));
      if (departure > this.options.threshold) {
        z.streak++;
        if (z.streak >= this.options.debounceSamples && !z.fired) {
          z.fired = true;
          events.push({ zone: zone.name, tMs, departure });
        }
      } else if (departure < this.options.threshold / 2) {
        z.streak = 0;
        z.fired = false;
      }
    });
    return events;
  }
}
