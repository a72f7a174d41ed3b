/**
 * What the phone-side calibration page reports: every touch-down the digitizer delivers, as a fraction
 * of the screen (0–1, x right, y down) plus the time. A real page reports CSS pixels; the simulated one
 * quantises to the panel's device pixels so reports are no finer than a real phone's.
 */
export interface TouchReport {
  /** 0–1 fraction of the screen width, from the left edge. */
  x: number;
  /** 0–1 fraction of the screen height, from the top edge. */
  y: number;
  /** Milliseconds on the phone's clock. */
  tMs: number;
}

/** A bounded log of touch-downs (oldest dropped first). */
export class TouchLog {
  private readonly reports: TouchReport[] = [];

  constructor(
    private readonly screenPx: { width: number; height: number },
    private readonly capacity = 512,
  ) {}

  /** Record a touch-down given as fractions of the screen. */
  record(xFrac: number, yFrac: number, tMs: number): void {
    const { width, height } = this.screenPx;
    this.reports.push({
      x: Math.round(xFrac * width) / width,
      y: Math.round(yFrac * height) / height,
      tMs,
    });
    if (this.reports.length > this.capacity) this.reports.shift();
  }

  /** Reports at or after `sinceMs`, oldest first (copies). */
  since(sinceMs: number): TouchReport[] {
    return this.reports.filter((r) => r.tMs >= sinceMs).map((r) => ({ ...r }));
  }
}
