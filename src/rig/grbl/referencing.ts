import type { RigProfile } from "../profile.js";
import type { PositionKeeper } from "./position-record.js";
import { BARRIER } from "./program.js";
import { gnum, type Xyz } from "./protocol.js";
import type { GrblSession } from "./session.js";
import type { GrblTimings } from "./timings.js";

/**
 * Send the origin procedure: homing rigs run `$H` and set the bed origin from GRBL's negative machine
 * space; parked-origin rigs declare the current position to be `at` (default `park`; a kept machine
 * position restores another point, origin-watch.ts). Either way `G21 G90 G94` goes before any G92, so a
 * startup block selecting inches (`$N0=G20`) cannot scale the origin. Returns the bed point declared.
 * Contract: the caller has decided that the carriage really is where this declares it to be.
 */
export async function establishOrigin(
  s: GrblSession,
  profile: RigProfile,
  t: GrblTimings,
  at: { x: number; y: number } = { x: profile.park.xMm, y: profile.park.yMm },
): Promise<{ x: number; y: number }> {
  if (profile.homing.endstops) {
    await s.command("$H", t.homingTimeoutMs);
    await s.command("G21 G90 G94", t.commandTimeoutMs);
    // GRBL homes into negative machine space: MPos is −$130…0, so bed = MPos + travel; G92 says so.
    const m = (await s.status(t.replyTimeoutMs)).mpos ?? { x: 0, y: 0, z: 0 };
    const bed = { x: m.x + profile.travelMm.x, y: m.y + profile.travelMm.y };
    await s.command(`G92 X${gnum(bed.x)} Y${gnum(bed.y)}`, t.commandTimeoutMs);
    return bed;
  }
  // Parked origin: the carriage is at `park`. GRBL cannot set *machine* coordinates without homing
  // (G10 L20 writes the G54 work offset into EEPROM on every boot, wearing it out), so G92 declares the
  // current position to be the park spot in work coordinates. G92 is volatile — a reset or power cycle
  // clears it — which is right: after those nobody can vouch for where the carriage is.
  await s.command("$X", t.commandTimeoutMs);
  await s.command("G21 G90 G94", t.commandTimeoutMs);
  await s.command(`G92 X${gnum(at.x)} Y${gnum(at.y)}`, t.commandTimeoutMs);
  return at;
}

/**
 * Travel to `park` and wait until the carriage is there (the barrier), within `ms` per command; the
 * position record is marked "moving" before and "cleanly parked" (with GRBL's MPos there) after.
 */
export async function parkCarriage(
  s: GrblSession,
  profile: RigProfile,
  ms: number,
  keeper: PositionKeeper | null,
  mpos: Xyz | undefined,
): Promise<void> {
  keeper?.beforeMotion(mpos);
  await s.command(`G0 X${gnum(profile.park.xMm)} Y${gnum(profile.park.yMm)}`, ms);
  await s.command(BARRIER, ms);
  const there = await s.status(ms);
  keeper?.parked(there.mpos);
}
