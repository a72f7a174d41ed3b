import type { BedPoint } from "../../rig/motion.js";

/** What one `?` report is made of. */
export interface ReportFacts {
  state: string;
  /** GRBL is homing, running, holding or jogging (the "busy" refresh rates apply). */
  busy: boolean;
  mpos: BedPoint;
  wco: BedPoint;
  feed: number;
  spindleS: number;
  spindleOn: boolean;
  /** `$10`: bit 0 MPos (else WPos), bit 1 buffer state. */
  mask: number;
  plannerFree: number;
  rxFree: number;
  /** Active input pins as `Pn:` letters (`X`, `Y` for closed limit switches); "" for none. */
  pins: string;
}

// config.h: REPORT_OVR_REFRESH_BUSY_COUNT 20, _IDLE_COUNT 10; REPORT_WCO_REFRESH_BUSY_COUNT 30, _IDLE_COUNT 10.
const OVR_BUSY = 20;
const OVR_IDLE = 10;
const WCO_BUSY = 30;
const WCO_IDLE = 10;

const f3 = (n: number) => (Object.is(Number(n.toFixed(3)), -0) ? 0 : n).toFixed(3);

/**
 * GRBL 1.1h's real-time status report (gnea/grbl `grbl/report.c`, `report_realtime_status`): fields in
 * its order; `Bf:` only with `$10` bit 1; `Pn:` only while a pin is active; `WCO:` and `Ov:` only when
 * their refresh counters run out (every 10th report idle, 30th/20th busy, and right after a change);
 * `A:` (spindle on) only inside the `Ov:` block — so most reports of an energised solenoid have no `A:`.
 * The counters start at 0 after a reset (the `sys` struct is zeroed in `main.c`).
 */
export class StatusReporter {
  private wcoCounter = 0;
  private ovrCounter = 0;

  /** WCO changed (G92, G10, homing): `system_flag_wco_change()` zeroes the counter. */
  wcoChanged(): void {
    this.wcoCounter = 0;
  }

  /** The spindle changed: `spindle_set_state()` sets `sys.report_ovr_counter = 0` to report at once. */
  spindleChanged(): void {
    this.ovrCounter = 0;
  }

  reset(): void {
    this.wcoCounter = 0;
    this.ovrCounter = 0;
  }

  format(f: ReportFacts): string {
    const mposMode = (f.mask & 1) === 1;
    const p = mposMode ? f.mpos : { xMm: f.mpos.xMm - f.wco.xMm, yMm: f.mpos.yMm - f.wco.yMm };
    let r = `<${f.state}|${mposMode ? "MPos" : "WPos"}:${f3(p.xMm)},${f3(p.yMm)},0.000`;
    if (f.mask & 2) r += `|Bf:${f.plannerFree},${f.rxFree}`;
    r += `|FS:${Math.round(f.feed)},${Math.round(f.spindleS)}`;
    if (f.pins) r += `|Pn:${f.pins}`;
    if (this.wcoCounter > 0) this.wcoCounter--;
    else {
      this.wcoCounter = (f.busy ? WCO_BUSY : WCO_IDLE) - 1;
      if (this.ovrCounter === 0) this.ovrCounter = 1; // "Set override on next report."
      r += `|WCO:${f3(f.wco.xMm)},${f3(f.wco.yMm)},0.000`;
    }
    if (this.ovrCounter > 0) this.ovrCounter--;
    else {
      this.ovrCounter = (f.busy ? OVR_BUSY : OVR_IDLE) - 1;
      r += "|Ov:100,100,100";
      if (f.spindleOn) r += "|A:S";
    }
    return `${r}>`;
  }
}
