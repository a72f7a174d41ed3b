import type { Client } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BedPoint } from "../../src/rig/motion.js";
import type { GantryLogEntry } from "../../src/sim/gantry/model.js";
import { connectClient } from "../mcp/helpers.js";
import { parseListing, type SimDaemon, startSimDaemon } from "./sim-daemon.js";

/**
 * Issue 5, "8 concurrent clients each sending taps: no two motions overlap". Eight independent MCP
 * clients (own SDK Client and HTTP transport each) fire two taps each at once at the daemon on the
 * simulated rig. The proof comes from the simulated gantry's own record (moves and solenoid changes on
 * the machine's clock), not from the arm's leases: each tap must show up as one whole motion program —
 * travel to its point, stylus down, up, park — with no move while the stylus is down and no press that
 * does not start from the park spot. The phone must see exactly 16 touch-downs, at the targets, in the
 * order the gantry pressed them.
 */

const PASSCODE = "739251";
const CLIENTS = 8;
const TAPS_PER_CLIENT = 2;
/** A band of empty home-screen wallpaper between the icon grid and the dock (checked with a peek). */
const BAND = { top: 0.63, bottom: 0.65 };
/** Client i taps here: 8 points 0.08 of the screen width (≈5 mm) apart across the empty band. */
const targets = Array.from({ length: CLIENTS }, (_, i) => ({
  x: 0.22 + 0.08 * i,
  y: (BAND.top + BAND.bottom) / 2,
}));
const bboxOf = (t: { x: number; y: number }) => [t.x - 0.02, BAND.top, t.x + 0.02, BAND.bottom];

const near = (a: BedPoint, b: BedPoint, mm: number) => Math.hypot(a.xMm - b.xMm, a.yMm - b.yMm) <= mm;
type Move = Extract<GantryLogEntry, { kind: "move" }>;
type Stylus = Extract<GantryLogEntry, { kind: "stylus" }>;

describe("8 concurrent MCP clients tapping on the simulated rig", () => {
  let sim: SimDaemon;
  const clients: Client[] = [];

  beforeAll(async () => {
    // 15 taps queue behind one another (~1.5 s each): keep a loaded CI machine under the wait limit.
    sim = await startSimDaemon({ passcode: PASSCODE, mcp: { waitLimitMs: 300_000 } });
    for (let i = 0; i < CLIENTS; i++) clients.push(await connectClient(sim.mcpUrl, "2026-07-28"));
  }, 120_000);

  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close()));
    await sim?.stop();
  });

  it("the home screen has empty wallpaper where the taps go", async () => {
    // Waits for the start-up calibration: at load ~20 that alone outlasted the SDK's 60 s default.
    const unlock = await sim.client.callTool({ name: "unlock_phone", arguments: {} }, { timeout: 300_000 });
    expect(unlock.isError).toBeFalsy();
    expect(sim.truth()).toMatchObject({ locked: false, screen: "home" });
    const peek = await sim.client.callTool({ name: "peek", arguments: {} }, { timeout: 120_000 });
    const content = peek.content as { type: string; text?: string }[];
    const rows = parseListing(content.filter((c) => c.type === "text").at(-1)?.text ?? "");
    expect(rows.length).toBeGreaterThan(3);
    expect(rows.filter((r) => r.bbox[1] < BAND.bottom && r.bbox[3] > BAND.top)).toEqual([]);
  }, 450_000);

  it("16 taps from 8 clients at once run one whole motion program at a time", async () => {
    const gantry = sim.rig.gantry;
    const park = gantry.positionAt(); // every gesture parks; unlock_phone left the carriage here
    const t0 = gantry.now();
    const waited = new Set<string>();
    const calls = clients.flatMap((client, i) =>
      Array.from({ length: TAPS_PER_CLIENT }, async (_, k) => {
        const started = performance.now();
        const res = await client.callTool(
          { name: "tap", arguments: { bbox: bboxOf(targets[i] ?? { x: 0, y: 0 }) } },
          {
            onprogress: (p) => {
              if (p.message?.includes("waiting for the arm")) waited.add(`${i}.${k}`);
            },
            // The last of 16 queued taps waits for the 15 before it: at load ~20 that passed 120 s.
            timeout: 400_000,
          },
        );
        const texts = (res.content as { type: string; text?: string }[]).map((c) => c.text ?? "");
        return {
          client: i,
          isError: res.isError === true,
          text: texts[0] ?? "",
          ms: performance.now() - started,
        };
      }),
    );
    const results = await Promise.all(calls);
    const totalMs = gantry.now() - t0;

    // Every call succeeded; all but the first to take the arm were told they were waiting.
    for (const r of results) {
      expect(r.isError, r.text).toBe(false);
      expect(r.text).toMatch(/^tap at /);
    }
    expect(waited.size).toBe(CLIENTS * TAPS_PER_CLIENT - 1);

    // The gantry's record: moves never overlap, and the stylus is never down during a move.
    const log = gantry.motionLog(t0);
    const moves = log.filter((e): e is Move => e.kind === "move").sort((a, b) => a.startMs - b.startMs);
    const stylus = log.filter((e): e is Stylus => e.kind === "stylus");
    for (let j = 1; j < moves.length; j++)
      expect(moves[j]?.startMs).toBeGreaterThanOrEqual(moves[j - 1]?.endMs ?? Number.POSITIVE_INFINITY);
    expect(stylus.map((s) => s.down)).toEqual(
      Array.from({ length: 2 * CLIENTS * TAPS_PER_CLIENT }, (_, j) => j % 2 === 0),
    );
    const presses = stylus.flatMap((down, j) => {
      const up = stylus[j + 1];
      return down.down && up ? [{ downMs: down.atMs, upMs: up.atMs }] : [];
    });
    expect(presses).toHaveLength(CLIENTS * TAPS_PER_CLIENT);
    for (const p of presses)
      expect(moves.filter((m) => m.startMs < p.upMs && m.endMs > p.downMs)).toEqual([]);

    // One program per press: each tap parks the carriage when done, so between two presses it must
    // have been back at the park spot; the press point is where the last travel before it ended.
    const at: BedPoint[] = [];
    presses.forEach((p, j) => {
      const since = presses[j - 1]?.upMs ?? t0;
      const before = moves.filter((m) => m.endMs <= p.downMs && m.startMs >= since);
      const first = before[0];
      const last = before.at(-1);
      expect(first && last, `moves between press ${j - 1} and ${j}`).toBeTruthy();
      if (!first || !last) return;
      const parked = j === 0 ? near(first.from, park, 0.05) : before.some((m) => near(m.to, park, 0.05));
      expect(parked, `the carriage parked between press ${j - 1} and ${j}`).toBe(true);
      expect(near(last.to, park, 1), `press ${j} is away from the park spot`).toBe(false);
      at.push(last.to);
    });
    const parkedAfter = moves.filter((m) => m.startMs >= (presses.at(-1)?.upMs ?? 0));
    expect(parkedAfter.length).toBeGreaterThanOrEqual(1);
    expect(near(parkedAfter.at(-1)?.to ?? { xMm: -1, yMm: -1 }, park, 0.05)).toBe(true);

    // The phone saw exactly the 16 touch-downs, each at a client's target, in the gantry's press order
    // (two presses at one bed point are one target), and every target twice.
    const touches = sim.rig.phone.touchReports(t0);
    expect(touches).toHaveLength(CLIENTS * TAPS_PER_CLIENT);
    const hit = touches.map((t) => targets.findIndex((g) => Math.hypot(g.x - t.x, g.y - t.y) < 0.02));
    expect(hit).not.toContain(-1);
    for (let i = 0; i < CLIENTS; i++) expect(hit.filter((h) => h === i)).toHaveLength(TAPS_PER_CLIENT);
    for (let a = 0; a < at.length; a++)
      for (let b = a + 1; b < at.length; b++) {
        const pa = at[a];
        const pb = at[b];
        if (pa && pb) expect(near(pa, pb, 1), `presses ${a} and ${b}`).toBe(hit[a] === hit[b]);
      }
    expect(sim.truth()).toMatchObject({ locked: false, screen: "home" });

    // Timing as the clients saw it (wall clock, real-time gantry): printed, never asserted.
    const ms = results.map((r) => r.ms).sort((a, b) => a - b);
    const pressGaps = presses.slice(1).map((p, j) => p.downMs - (presses[j]?.downMs ?? 0));
    console.log(
      `16 concurrent taps: ${(totalMs / 1000).toFixed(1)} s in all, ${(totalMs / 16 / 1000).toFixed(2)} s per tap; ` +
        `call latency min ${(ms[0] ?? 0).toFixed(0)} ms, median ${(ms[8] ?? 0).toFixed(0)} ms, max ${(ms.at(-1) ?? 0).toFixed(0)} ms; ` +
        `press-to-press median ${pressGaps.sort((a, b) => a - b)[7]?.toFixed(0)} ms; ${moves.length} moves logged`,
    );
  }, 450_000);
});
