import { readFileSync } from "node:fs";
import { z } from "zod";
import { writeJsonAtomic } from "../../util/atomic-file.js";
import { errorMessage, PiclawError } from "../../util/errors.js";
import type { RigProfile } from "../profile.js";
import type { BoardFacts } from "./handshake.js";

/**
 * What the GRBL driver remembers across restarts about where the carriage is: GRBL's machine position
 * when last seen, and whether the last stop parked cleanly. Written before the first motion of a
 * connection (`cleanPark: false`) and after a clean park (`true`), so a crash at any point in between
 * leaves `false` on disk: a record can say "parked" only if the park was the last thing that happened.
 */
const recordSchema = z.strictObject({
  version: z.literal(1),
  /** GRBL's MPos (machine mm, not bed mm) when written. */
  mpos: z.strictObject({ xMm: z.number(), yMm: z.number() }),
  cleanPark: z.boolean(),
  /** The rig profile in use when written (a record of another profile proves nothing). */
  profile: z.string(),
  at: z.string(),
});

export type PositionRecord = z.infer<typeof recordSchema>;

/** Where the record lives. Contract: `read` never throws (an unreadable record is reported as such). */
export interface PositionStore {
  read(): { record: PositionRecord } | { record: null; why: string };
  write(record: PositionRecord): void;
}

/** A `PositionStore` in one JSON file, replaced atomically (the path comes from the composition root). */
export function filePositionStore(path: string): PositionStore {
  return {
    read() {
      let text: string;
      try {
        text = readFileSync(path, "utf8");
      } catch (err) {
        const missing = (err as NodeJS.ErrnoException).code === "ENOENT";
        return { record: null, why: missing ? `no position record at ${path}` : errorMessage(err) };
      }
      try {
        const parsed = recordSchema.safeParse(JSON.parse(text));
        if (parsed.success) return { record: parsed.data };
        return { record: null, why: `the position record ${path} is malformed: ${parsed.error.message}` };
      } catch (err) {
        return { record: null, why: `the position record ${path} is not JSON: ${errorMessage(err)}` };
      }
    },
    write(record) {
      writeJsonAtomic(path, record);
    },
  };
}

/** Machine positions closer than this (mm) are the same: GRBL prints 3 decimals of whole steps. */
export const SAME_MM = 0.01;

/** What the board looked like on connect, for `startVerdict`. */
export interface BoardAtStart {
  facts: Pick<BoardFacts, "bannerOnOpen" | "first">;
  /** An alarm seen since connecting (`ALARM:2`), or null. */
  alarm: string | null;
}

/**
 * Whether a parked-origin rig may declare "the carriage is at park" on start, and if not, every reason.
 * Yes only with a clean-park record of this profile and no alarm, and either a freshly reset board (its
 * banner came on opening the port: a power cycle or a DTR reset, so nothing moved it since the clean
 * park) or a board that kept its machine position, which equals the recorded one. Anything else — no
 * record, a crash mid-motion, the board not reset and somewhere else, an alarm — is a refusal.
 */
export function startVerdict(
  profile: RigProfile,
  read: ReturnType<PositionStore["read"]>,
  board: BoardAtStart,
): string[] {
  const reasons: string[] = [];
  if (board.alarm || board.facts.first.state === "Alarm") {
    reasons.push(`the board is in an alarm (${board.alarm ?? board.facts.first.state})`);
  }
  const rec = read.record;
  if (!rec) reasons.push(read.why);
  else if (rec.profile !== profile.name)
    reasons.push(`the position record is of profile ${rec.profile}, not ${profile.name}`);
  else if (!rec.cleanPark)
    reasons.push(`the last run did not end with a clean park (it stopped or crashed at ${rec.at})`);
  else if (!board.facts.bannerOnOpen) {
    const m = board.facts.first.mpos;
    const same = !!m && Math.abs(m.x - rec.mpos.xMm) < SAME_MM && Math.abs(m.y - rec.mpos.yMm) < SAME_MM;
    if (!same) {
      const now = m ? `${m.x.toFixed(3)},${m.y.toFixed(3)}` : "unknown";
      reasons.push(
        `the board was not reset since the last run and its machine position ${now} is not the recorded ` +
          `${rec.mpos.xMm.toFixed(3)},${rec.mpos.yMm.toFixed(3)}`,
      );
    }
  }
  return reasons;
}

/** The refusal: motion stays refused until the operator confirms the carriage is at park. */
export function originUnconfirmedError(profile: RigProfile, reasons: readonly string[]): PiclawError {
  const { park } = profile;
  return new PiclawError(
    "MOTION_ORIGIN_UNCONFIRMED",
    `where the carriage is cannot be vouched for (${reasons.join("; ")}): motion refused. Move the carriage ` +
      `to park (${park.xMm}, ${park.yMm} mm) with the board's motors off, then confirm it there: ` +
      '`piclaw rig reference --parked`, or the dashboard\'s "Carriage at park" button while the daemon runs ' +
      "(or give the rig endstops and homing)",
    { reasons: [...reasons] },
  );
}

/**
 * Keeps the record true for one back-end: `beforeMotion` marks it not parked before the first move of a
 * connection (a failed write throws, so nothing moves with a stale "parked" on disk), `parked` marks it
 * parked cleanly with the machine position GRBL reports there.
 */
export class PositionKeeper {
  private dirty = false;

  constructor(
    private readonly store: PositionStore,
    private readonly profile: RigProfile,
  ) {}

  /**
   * Throws MOTION_ORIGIN_UNCONFIRMED unless the record vouches for the carriage being at park on this
   * board (`startVerdict`). Call before the first reference of a connection on a parked-origin rig.
   */
  vouch(facts: BoardAtStart["facts"], alarm: string | null): void {
    const reasons = startVerdict(this.profile, this.store.read(), { facts, alarm });
    if (reasons.length) throw originUnconfirmedError(this.profile, reasons);
  }

  /** A new connection: the next motion writes the record again. */
  connected(): void {
    this.dirty = false;
  }

  beforeMotion(mpos: { x: number; y: number } | undefined): void {
    if (this.dirty) return;
    this.write(mpos, false);
    this.dirty = true;
  }

  parked(mpos: { x: number; y: number } | undefined): void {
    this.write(mpos, true);
    this.dirty = false;
  }

  private write(mpos: { x: number; y: number } | undefined, cleanPark: boolean): void {
    const m = mpos ?? { x: 0, y: 0 };
    this.store.write({
      version: 1,
      mpos: { xMm: m.x, yMm: m.y },
      cleanPark,
      profile: this.profile.name,
      at: new Date().toISOString(),
    });
  }
}
