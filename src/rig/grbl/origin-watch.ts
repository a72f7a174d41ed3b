import type { RigProfile } from "../profile.js";
import { originUnconfirmedError, SAME_MM } from "./position-record.js";
import type { Xyz } from "./protocol.js";
import type { GrblSession } from "./session.js";

/** A bed point (mm) in the driver's own terms. */
export interface BedXy {
  x: number;
  y: number;
}

/**
 * Why the parked origin of one back-end may have been lost since it was last referenced, and what is
 * needed to restore it without the operator. An e-stop (`halt()`, which soft-resets GRBL) or an alarm
 * clears GRBL's volatile G92 origin; declaring "the carriage is at park" afterwards would be the same
 * lie as a blind start-up reference (issue 14, problem 3). GRBL keeps its machine position (MPos) across
 * a soft reset when no steps were lost, so if MPos still equals the last one seen at rest, the origin is
 * restored from it (G92 re-declares the bed position that MPos had); otherwise the operator must confirm.
 * Contract: only parked-origin rigs consult it (homing rigs home instead).
 */
export class OriginWatch {
  private doubts: string[] = [];
  /** MPos the last time the carriage was seen at rest while referenced. */
  private lastMpos: BedXy | null = null;
  /** bed = MPos + offset, as the last reference declared it (G92 keeps it constant until a reset). */
  private offset: BedXy | null = null;

  /** Whether the origin may have been lost since the last reference. */
  get doubted(): boolean {
    return this.doubts.length > 0;
  }

  /** The origin may have been lost (`why` names the event); the next reference must check. */
  lost(why: string): void {
    if (!this.doubts.includes(why)) this.doubts.push(why);
  }

  /**
   * The board reset on its own (its banner came unasked: reset button, USB brown-out): GRBL's MPos
   * restarted from 0,0 wherever the carriage was, possibly mid-move with steps lost, so no kept MPos can
   * vouch for it — only the operator (or homing). The next `check` throws until `confirmed()`.
   */
  boardReset(): void {
    this.lost("the board reset on its own (its banner came unasked: reset button or power dip)");
    this.lastMpos = null;
    this.offset = null;
  }

  /** The carriage was seen at rest at `mpos` with a trusted origin. */
  seenAtRest(mpos: Xyz | undefined): void {
    if (mpos && !this.doubts.length) this.lastMpos = { x: mpos.x, y: mpos.y };
  }

  /** A reference declared the bed point `bed` where GRBL's MPos is `mpos`: the origin is trusted. */
  referenced(bed: BedXy, mpos: Xyz | undefined): void {
    this.doubts = [];
    this.offset = mpos ? { x: bed.x - mpos.x, y: bed.y - mpos.y } : null;
    this.lastMpos = mpos ? { x: mpos.x, y: mpos.y } : null;
  }

  /** The operator confirmed the carriage at park: nothing from before counts. */
  confirmed(): void {
    this.doubts = [];
  }

  /**
   * Where the next reference may declare the carriage: undefined (park, as usual) when nothing was lost,
   * else the bed point the board's current MPos had before the loss. Throws MOTION_ORIGIN_UNCONFIRMED,
   * listing every loss, when the board's MPos (read with `?` within `replyMs`) is not the last known.
   */
  async check(s: GrblSession, profile: RigProfile, replyMs: number): Promise<BedXy | undefined> {
    if (!this.doubted) return undefined;
    const v = this.verdict((await s.status(replyMs)).mpos);
    if ("reasons" in v) throw originUnconfirmedError(profile, v.reasons);
    return v.declare ?? undefined;
  }

  /**
   * Where the next reference may declare the carriage: `{ declare: null }` when nothing was lost (the
   * caller declares park as usual), `{ declare }` the bed point MPos `now` had before the loss, or the
   * reasons it cannot (each loss, and why the machine position does not vouch for the carriage).
   */
  verdict(now: Xyz | undefined): { declare: BedXy | null } | { reasons: string[] } {
    if (!this.doubts.length) return { declare: null };
    const last = this.lastMpos;
    const off = this.offset;
    const same = !!now && !!last && Math.abs(now.x - last.x) < SAME_MM && Math.abs(now.y - last.y) < SAME_MM;
    if (same && now && off) return { declare: { x: now.x + off.x, y: now.y + off.y } };
    const seen = now ? `${now.x.toFixed(3)},${now.y.toFixed(3)}` : "unknown";
    const why = !last
      ? "no machine position was known before"
      : `the board's machine position ${seen} is not the last known ${last.x.toFixed(3)},${last.y.toFixed(3)}`;
    return { reasons: [...this.doubts, why] };
  }
}
