import type { Trigger } from "../agent/ports.js";
import type { Logger } from "../log/logger.js";
import type { RgbImage } from "../shared/image.js";
import type { Clock } from "../util/clock.js";
import { type Grey, greyGrid } from "../vision/verdict.js";
import { ScreenWatcher, type WatchEvent } from "../vision/watcher.js";
import type { PollConfig, PollZone } from "./config.js";
import type { ScreenFrameSource } from "./frames.js";
import type { TriggerHook } from "./hooks.js";

export { greyGrid };

/** Width of the grey grid the local pre-filter compares (cells); a badge is ~4 cells wide. */
export const POLL_GRID_WIDTH = 64;
/** Cells a spot (badge) must cover; one cell can be a stuck reflection or noise. */
const MIN_SPOT_CELLS = 2;

export interface PollHookDeps {
  frames: ScreenFrameSource;
  clock: Clock;
  log: Logger;
  /** True while anyone holds or waits for the arm: their gestures change the screen, not news. */
  armInUse?: () => boolean;
}

/** A grey image, area-averaged down to a grid (raw levels 0–255, no normalisation). */
type Grid = Grey;

interface ZoneState {
  /** First sample at which ≥ minChangedFraction of the band differed from the settled screen. */
  changedSince: number | null;
  /** The screen watcher reported a large change since `changedSince`. */
  confirmed: boolean;
  /** First sample of the current run of samples with no cell moving between samples. */
  stillSince: number | null;
}

/** What one sample found in one band (exported for tests and diagnostics). */
export interface ZoneReading {
  zone: string;
  /** Share of cells that differ from the settled screen. */
  changed: number;
  /** Cells that differ from the previous sample. */
  moving: number;
  /** Largest grey-level difference of one cell from the settled screen. */
  maxDelta: number;
  watcher: boolean;
}

/**
 * The poll trigger. Between sessions it samples a rectified picture of the screen (`intervalMs`) and
 * wakes a session when something new appears in a watched band, without running any model:
 *
 * 1. The screen watcher (src/vision/watcher.ts) keeps fast/slow moving averages of each band's grey
 *    level and edge energy; a departure between them is a *large* change (a banner sliding in, a
 *    notification card on the lock screen, the screen lighting up). A running timer or a playing
 *    video keeps the averages level and does not count.
 * 2. A local pre-filter compares a 64-cell-wide grey grid with the *settled* screen (the last picture
 *    every band agreed with for a while): a large change must also leave ≥ `minChangedFraction` of
 *    its band changed for `persistMs`, so a short animation that comes and goes wakes nobody.
 * 3. Bands marked `spots` (the dock) also fire for a small mark that appears, holds still and stays
 *    `persistMs` — a new badge, which is too small to move the band's averages.
 *
 * The status bar (whose clock changes every minute) and the lock screen's big clock lie outside the
 * default bands, so a clock tick can never wake a session. A band that stays still for twice
 * `persistMs` without waking becomes the new settled screen; after a session (`rebase`) or while the
 * arm is in use everything settles afresh.
 */
export class PollHook implements TriggerHook {
  readonly name = "poll";
  readonly duringSession = false;
  private watcher: ScreenWatcher;
  private settled: Grid | null = null;
  private previous: Grid | null = null;
  private zones: ZoneState[] = [];
  /** Per grid cell of spot bands: since when it differs from the settled screen (NaN = it does not). */
  private spotSince: Float64Array | null = null;
  private lastSampleAt = Number.NEGATIVE_INFINITY;
  private armLastSeen = Number.NEGATIVE_INFINITY;
  /** The last sample's readings, for diagnostics. */
  lastReadings: ZoneReading[] = [];

  constructor(
    private readonly deps: PollHookDeps,
    private readonly config: PollConfig,
  ) {
    this.watcher = this.newWatcher();
  }

  async check(now: number): Promise<Trigger[]> {
    if (this.deps.armInUse?.()) {
      this.armLastSeen = now;
      this.rebase();
      return [];
    }
    if (now - this.armLastSeen < this.config.armSettleMs) return [];
    if (now - this.lastSampleAt < this.config.intervalMs) return [];
    this.lastSampleAt = now;
    const frame = await this.deps.frames.grab();
    if (!frame) return [];
    return this.observe(frame.image, frame.atMs);
  }

  /** Forget the settled screen: the next sample becomes it. */
  rebase(): void {
    this.watcher = this.newWatcher();
    this.settled = null;
    this.previous = null;
    this.zones = [];
    this.spotSince = null;
    this.lastReadings = [];
  }

  /** Feed one rectified screen taken at `tMs`; returns at most one poll trigger. */
  observe(image: RgbImage, tMs: number): Trigger[] {
    const { config } = this;
    const events = this.watcher.update(image, tMs);
    const grid = greyGrid(image, POLL_GRID_WIDTH);
    const settled = this.settled;
    const previous = this.previous;
    this.previous = grid;
    if (!settled || !previous || settled.h !== grid.h) {
      this.settled = copyGrid(grid);
      this.zones = config.zones.map(() => ({ changedSince: null, confirmed: false, stillSince: tMs }));
      return [];
    }
    const fired: string[] = [];
    this.lastReadings = config.zones.map((zone, i) => {
      const st = this.zones[i] as ZoneState;
      const rows = zoneRows(zone, grid.h);
      const changedCells = countCells(grid, settled, rows, config.blockDelta);
      const moving = countCells(grid, previous, rows, config.blockDelta);
      const total = (rows.end - rows.start) * grid.w;
      const changed = changedCells / Math.max(1, total);
      const maxDelta = maxCellDelta(grid, settled, rows);
      const watcherSaw = events.some((e: WatchEvent) => e.zone === zone.name);
      st.stillSince = moving === 0 ? (st.stillSince ?? tMs) : null;
      let reason: string | null = null;
      // Large change: the watcher saw it and it has stayed on screen.
      if (changed >= config.minChangedFraction) {
        st.changedSince ??= tMs;
        if (watcherSaw) st.confirmed = true;
        if (st.confirmed && tMs - st.changedSince >= config.persistMs)
          reason = `${zone.name}: ${Math.round(changed * 100)}% of the band changed and stayed`;
      } else {
        st.changedSince = null;
        st.confirmed = false;
      }
      // Small mark in a spot band: the same cells changed (at half the delta), still, for persistMs.
      if (zone.spots) {
        const marked = this.markSpots(grid, settled, rows, tMs);
        if (marked >= MIN_SPOT_CELLS && changed < config.minChangedFraction && moving === 0)
          reason ??= `${zone.name}: a small new mark appeared and stayed (${marked} cells; a badge?)`;
      }
      if (reason) {
        fired.push(reason);
        this.settle(grid, rows, st, tMs);
      } else if (st.stillSince !== null && tMs - st.stillSince >= 2 * config.persistMs) {
        // Still for a while and nothing worth waking for: this is how the band looks now.
        this.settle(grid, rows, st, tMs);
      }
      return { zone: zone.name, changed, moving, maxDelta, watcher: watcherSaw };
    });
    if (fired.length === 0) return [];
    this.deps.log.info("poll: the screen changed", { reasons: fired });
    return [{ kind: "poll", reason: `screen changed — ${fired.join("; ")}` }];
  }

  private settle(grid: Grid, rows: { start: number; end: number }, st: ZoneState, tMs: number): void {
    const settled = this.settled;
    if (settled) settled.v.set(grid.v.subarray(rows.start * grid.w, rows.end * grid.w), rows.start * grid.w);
    st.changedSince = null;
    st.confirmed = false;
    st.stillSince = tMs;
    this.spotSince?.fill(Number.NaN, rows.start * grid.w, rows.end * grid.w);
  }

  /**
   * Update, per cell of a spot band, since when it has differed from the settled screen by more than
   * half `blockDelta` (a badge is small and partly covers its cells); returns how many cells have done
   * so for at least `persistMs`. Camera noise moves from cell to cell, a badge stays put.
   */
  private markSpots(grid: Grid, settled: Grid, rows: { start: number; end: number }, tMs: number): number {
    if (this.spotSince?.length !== grid.v.length)
      this.spotSince = new Float64Array(grid.v.length).fill(Number.NaN);
    const since = this.spotSince;
    const delta = this.config.blockDelta / 2;
    let marked = 0;
    for (let i = rows.start * grid.w; i < rows.end * grid.w; i++) {
      if (Math.abs((grid.v[i] ?? 0) - (settled.v[i] ?? 0)) <= delta) since[i] = Number.NaN;
      else {
        if (Number.isNaN(since[i] ?? Number.NaN)) since[i] = tMs;
        if (tMs - (since[i] ?? tMs) >= this.config.persistMs) marked++;
      }
    }
    return marked;
  }

  private newWatcher(): ScreenWatcher {
    return new ScreenWatcher({
      zones: this.config.zones.map(({ name, top, bottom }) => ({ name, top, bottom })),
      fastMs: 5_000,
      slowMs: 20_000,
      threshold: this.config.threshold,
      debounceSamples: 2,
      width: 48,
    });
  }
}

function zoneRows(zone: PollZone, h: number): { start: number; end: number } {
  const start = Math.min(h - 1, Math.floor(zone.top * h));
  return { start, end: Math.max(start + 1, Math.min(h, Math.ceil(zone.bottom * h))) };
}

function countCells(a: Grid, b: Grid, rows: { start: number; end: number }, delta: number): number {
  let n = 0;
  for (let i = rows.start * a.w; i < rows.end * a.w; i++)
    if (Math.abs((a.v[i] ?? 0) - (b.v[i] ?? 0)) > delta) n++;
  return n;
}

function maxCellDelta(a: Grid, b: Grid, rows: { start: number; end: number }): number {
  let max = 0;
  for (let i = rows.start * a.w; i < rows.end * a.w; i++)
    max = Math.max(max, Math.abs((a.v[i] ?? 0) - (b.v[i] ?? 0)));
  return max;
}

function copyGrid(g: Grid): Grid {
  return { w: g.w, h: g.h, v: new Float32Array(g.v) };
}
