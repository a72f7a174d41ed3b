import { describe, expect, it } from "vitest";
import { type PhoneOwnerOptions, phoneOwnerConfigSchema } from "../../src/rig/config.js";
import { type PhoneLease, PhoneOwner, type TimerScheduler, type WaitingInfo } from "../../src/rig/owner.js";
import type { Clock } from "../../src/util/clock.js";
import { seededRandom } from "../../src/util/random.js";
import { rejection } from "../helpers/errors.js";

/** Virtual time: a clock plus one-shot timers that fire only when the test advances time. */
class VirtualTime implements Clock, TimerScheduler {
  private ms = 0;
  private timers: Array<{ due: number; seq: number; fn: () => void }> = [];
  private seq = 0;

  now(): number {
    return this.ms;
  }

  set(callback: () => void, ms: number): () => void {
    const timer = { due: this.ms + ms, seq: this.seq++, fn: callback };
    this.timers.push(timer);
    return () => {
      this.timers = this.timers.filter((t) => t !== timer);
    };
  }

  /** Move time forward, firing due timers in order and letting promise callbacks run after each. */
  async advance(ms: number): Promise<void> {
    const end = this.ms + ms;
    await settle();
    for (;;) {
      const next = [...this.timers].sort((a, b) => a.due - b.due || a.seq - b.seq)[0];
      if (!next || next.due > end) break;
      this.timers = this.timers.filter((t) => t !== next);
      this.ms = next.due;
      next.fn();
      await settle();
    }
    this.ms = end;
    await settle();
  }
}

async function settle(): Promise<void> {
  for (let i = 0; i < 10; i++) await Promise.resolve();
}

function owner(overrides: Partial<PhoneOwnerOptions> = {}) {
  const time = new VirtualTime();
  const options = phoneOwnerConfigSchema.parse({ agingMs: 10_000, waitLimitMs: 60_000, ...overrides });
  return { time, owner: new PhoneOwner(options, time, time) };
}

/** Start an acquire and record when (and whether) it was granted. */
function track(
  o: PhoneOwner,
  priority: string,
  label: string,
  extra: { signal?: AbortSignal; waitLimitMs?: number } = {},
) {
  const waits: WaitingInfo[] = [];
  const state: { lease: PhoneLease | null; error: unknown } = { lease: null, error: null };
  const promise = o.acquire({ priority, label, ...extra, onWaiting: (i) => waits.push(i) }).then(
    (lease) => {
      state.lease = lease;
      return lease;
    },
    (err: unknown) => {
      state.error = err;
      throw err;
    },
  );
  promise.catch(() => {});
  return { state, waits, promise };
}

describe("PhoneOwner", () => {
  it("grants a free arm at once and the next caller when the holder releases", async () => {
    const { time, owner: o } = owner();
    const a = track(o, "remote", "a");
    const b = track(o, "remote", "b");
    await time.advance(0);
    expect(a.state.lease?.label).toBe("a");
    expect(b.state.lease).toBeNull();
    expect(b.waits[0]).toMatchObject({ position: 1, ahead: 1, holder: "a" });
    await time.advance(2000);
    a.state.lease?.release();
    a.state.lease?.release(); // idempotent: must not release b's hold later
    await time.advance(0);
    expect(b.state.lease?.label).toBe("b");
    expect(b.state.lease?.waitedMs).toBe(2000);
    expect(o.heldBy).toBe("b");
  });

  it("serves higher classes first and arrival order within a class", async () => {
    const { time, owner: o } = owner();
    const holder = track(o, "remote", "holder");
    await time.advance(0);
    const order: string[] = [];
    const callers = [
      ["remote", "r1"],
      ["scheduled", "s1"],
      ["local", "l1"],
      ["remote", "r2"],
      ["local", "l2"],
    ].map(([p, l]) => track(o, p as string, l as string));
    for (const c of callers) {
      c.promise.then((lease) => {
        order.push(lease.label);
        time.set(() => lease.release(), 100);
      });
    }
    await time.advance(10);
    expect(callers.map((c) => c.waits.at(-1)?.position)).toEqual([4, 3, 1, 5, 2]);
    holder.state.lease?.release();
    await time.advance(1000);
    expect(order).toEqual(["l1", "l2", "s1", "r1", "r2"]);
  });

  it("does not starve a low class: aging lets a remote caller overtake later local arrivals", async () => {
    const { time, owner: o } = owner({ agingMs: 1000, waitLimitMs: 600_000 });
    let current = track(o, "local", "l0");
    await time.advance(0);
    const remote = track(o, "remote", "remote");
    let grantedAt = -1;
    remote.promise.then(() => {
      grantedAt = time.now();
    });
    // Local callers keep arriving faster than they are served; each holds the arm for 100 ms.
    for (let i = 1; i <= 60 && grantedAt < 0; i++) {
      const next = track(o, "local", `l${i}`);
      await time.advance(100);
      current.state.lease?.release();
      await time.advance(0);
      current = next.state.lease ? next : current;
    }
    // Two classes below the top: served once it has aged 2 × agingMs, plus at most one hold.
    expect(grantedAt).toBeGreaterThanOrEqual(2000);
    expect(grantedAt).toBeLessThanOrEqual(2200);
  });

  it("ends a wait at the limit with PHONE_BUSY naming how many are ahead and how long it waited", async () => {
    const { time, owner: o } = owner();
    track(o, "local", "holder");
    track(o, "local", "first");
    const late = track(o, "remote", "late", { waitLimitMs: 5000 });
    await time.advance(4999);
    expect(late.state.error).toBeNull();
    await time.advance(1);
    const err = await rejection(late.promise);
    expect(err.code).toBe("PHONE_BUSY");
    expect(err.message).toBe("busy: 2 callers ahead, waited 5.0 s");
    expect(o.queueLength).toBe(1);
  });

  it("removes an aborted waiter and moves the ones behind it up", async () => {
    const { time, owner: o } = owner();
    const holder = track(o, "local", "holder");
    const stop = new AbortController();
    const quitter = track(o, "local", "quitter", { signal: stop.signal });
    const patient = track(o, "local", "patient");
    await time.advance(100);
    expect(patient.waits.at(-1)?.position).toBe(2);
    stop.abort();
    const err = await rejection(quitter.promise);
    expect(err.code).toBe("ABORTED");
    expect(patient.waits.at(-1)?.position).toBe(1);
    holder.state.lease?.release();
    await time.advance(0);
    expect(patient.state.lease?.label).toBe("patient");
    // Already aborted: refused without queueing.
    expect((await rejection(o.acquire({ priority: "local", label: "x", signal: stop.signal }))).code).toBe(
      "ABORTED",
    );
  });

  it("tells a waiting caller its place periodically and refuses unknown classes", async () => {
    const { time, owner: o } = owner({ progressIntervalMs: 1000 });
    track(o, "local", "holder");
    const w = track(o, "local", "w");
    await time.advance(3500);
    expect(w.waits.map((i) => i.waitedMs)).toEqual([0, 1000, 2000, 3000]);
    expect((await rejection(o.acquire({ priority: "vip", label: "x" }))).code).toBe("OWNER_PRIORITY_UNKNOWN");
  });

  it("8 concurrent holders never overlap, and every caller is served", async () => {
    const { time, owner: o } = owner({ waitLimitMs: 3_600_000 });
    const random = seededRandom(7);
    const classes = ["local", "scheduled", "remote"];
    const spans: Array<{ label: string; start: number; end: number }> = [];
    const workers = Array.from({ length: 8 }, async (_, w) => {
      for (let round = 0; round < 5; round++) {
        await new Promise<void>((r) => time.set(r, Math.floor(random.next() * 300)));
        const priority = classes[Math.floor(random.next() * 3)] ?? "remote";
        const lease = await o.acquire({ priority, label: `w${w}.${round}` });
        const start = time.now();
        await new Promise<void>((r) => time.set(r, 50 + Math.floor(random.next() * 400)));
        spans.push({ label: lease.label, start, end: time.now() });
        lease.release();
      }
    });
    for (let i = 0; i < 400 && spans.length < 40; i++) await time.advance(100);
    await Promise.all(workers);
    expect(spans).toHaveLength(40);
    const sorted = [...spans].sort((a, b) => a.start - b.start);
    for (let i = 1; i < sorted.length; i++) {
      const prev = sorted[i - 1];
      const cur = sorted[i];
      if (!prev || !cur) continue;
      expect(cur.start, `${cur.label} started while ${prev.label} held the arm`).toBeGreaterThanOrEqual(
        prev.end,
      );
    }
  });
});
