import { afterEach, describe, expect, it } from "vitest";
import { BridgePhoneAgent, BridgePhoneIo } from "../../src/bridge/adapters.js";
import type { PhoneAgent } from "../../src/calibration/agent.js";
import { dotGridPattern } from "../../src/calibration/pattern.js";
import { FontBook } from "../../src/shared/fonts.js";
import { SimPhoneAgent } from "../../src/sim/calibration-agent.js";
import { SimPhone } from "../../src/sim/phone/phone.js";
import { ManualClock } from "../../src/util/clock.js";
import { rejection } from "../helpers/errors.js";
import { type PageClient, pairedBridge, pngBytes, type StartedBridge, startBridge } from "./helpers.js";

let cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.reverse()) await c();
  cleanups = [];
});

async function paired(options: Parameters<typeof pairedBridge>[0] = {}) {
  const b = await pairedBridge(options);
  cleanups.push(() => b.stop());
  return b;
}

/** A page that does what page.html does with display commands: long-polls, shows, confirms. */
function autoPage(page: PageClient): { shown: () => string | null; stop: () => Promise<void> } {
  let running = true;
  let shown: string | null = null;
  let displayId = -1;
  const loop = (async () => {
    let since = 0;
    while (running) {
      const reply = await page.poll(since, 1000).catch(() => null);
      if (reply?.status !== 200) {
        await new Promise((r) => setTimeout(r, 50));
        continue;
      }
      since = Number(reply.body.version);
      const d = reply.body.display as { id: number; svg: string | null };
      if (d.id !== displayId) {
        displayId = d.id;
        shown = d.svg;
        await page.post("/api/ack", { kind: "display", id: d.id });
      }
    }
  })();
  return {
    shown: () => shown,
    stop: async () => {
      running = false;
      await loop;
    },
  };
}

interface AgentHarness {
  agent: PhoneAgent;
  now(): number;
  /** A touch-down at screen fractions, as the phone's digitizer (or page) reports it. */
  touch(x: number, y: number): Promise<void>;
  showing(): boolean;
}

/** The PhoneAgent contract (src/calibration/agent.ts), run against the simulated phone and the bridge. */
const harnesses: [string, () => Promise<AgentHarness>][] = [
  [
    "SimPhoneAgent",
    async () => {
      const clock = new ManualClock();
      const phone = new SimPhone({
        clock,
        fonts: new FontBook(),
        locale: "en",
        passcode: "2468",
        utcOffsetMinutes: 0,
      });
      const { width, height } = phone.geometry.glassMm;
      return {
        agent: new SimPhoneAgent(phone),
        now: () => clock.now(),
        touch: async (x, y) => {
          clock.advance(10);
          phone.touch({ type: "down", xMm: x * width, yMm: y * height, tMs: clock.now() });
          clock.advance(80);
          phone.touch({ type: "up", xMm: x * width, yMm: y * height, tMs: clock.now() });
        },
        showing: () => phone.truth().elements.length === 0,
      };
    },
  ],
  [
    "BridgePhoneAgent",
    async () => {
      const b = await paired({ config: { ackTimeoutMs: 5000 } });
      await b.page.hello();
      const page = autoPage(b.page);
      cleanups.push(page.stop);
      return {
        agent: new BridgePhoneAgent(b.bridge),
        now: () => Date.now(),
        touch: async (x, y) => {
          await new Promise((r) => setTimeout(r, 5));
          const t = performance.now();
          await b.page.post("/api/touches", { sentAtMs: t, fullScreen: true, touches: [{ x, y, tMs: t }] });
        },
        showing: () => page.shown() !== null,
      };
    },
  ],
];

describe.each(harnesses)("PhoneAgent contract: %s", (_name, make) => {
  it("shows the pattern once showPattern resolves; clearPattern removes it and is idempotent", async () => {
    const h = await make();
    expect(h.showing()).toBe(false);
    await h.agent.showPattern(dotGridPattern());
    expect(h.showing()).toBe(true);
    await h.agent.clearPattern();
    expect(h.showing()).toBe(false);
    await h.agent.clearPattern();
    expect(h.showing()).toBe(false);
  });

  it("reports touch-downs at or after a time, oldest first, with or without a pattern", async () => {
    const h = await make();
    expect(await h.agent.touchesSince(h.now() - 60_000)).toEqual([]); // never waits
    const t0 = h.now();
    await h.touch(0.25, 0.5);
    await h.agent.showPattern(dotGridPattern());
    await h.touch(0.75, 0.1);
    const touches = await h.agent.touchesSince(t0);
    expect(touches).toHaveLength(2);
    expect(touches[0]?.x).toBeCloseTo(0.25, 3);
    expect(touches[0]?.y).toBeCloseTo(0.5, 3);
    expect(touches[1]?.x).toBeCloseTo(0.75, 3);
    expect(touches[0]?.tMs ?? 0).toBeLessThanOrEqual(touches[1]?.tMs ?? 0);
    expect(await h.agent.touchesSince((touches[1]?.tMs ?? 0) + 1)).toEqual([]);
  });
});

describe("BridgePhoneAgent", () => {
  it("draws the dot grid in the screen size the page reported", async () => {
    const b = await paired({ config: { ackTimeoutMs: 5000 } });
    await b.page.hello({ width: 412, height: 915 });
    const page = autoPage(b.page);
    cleanups.push(page.stop);
    await new BridgePhoneAgent(b.bridge).showPattern(dotGridPattern());
    const svg = page.shown() ?? "";
    expect(svg).toContain('<rect x="0" y="0" width="412" height="915"');
    expect(svg.match(/<circle /g)).toHaveLength(45);
  });
});

describe("BridgePhoneIo", () => {
  it("refuses clipboard text when no phone is paired", async () => {
    const s: StartedBridge = await startBridge();
    cleanups.push(() => s.stop());
    const io = new BridgePhoneIo(s.bridge, {});
    expect((await rejection(io.setClipboard("hi"))).code).toBe("BRIDGE_NOT_PAIRED");
  });

  it("queues clipboard text, or waits for the copy when asked to", async () => {
    const b = await paired();
    await new BridgePhoneIo(b.bridge, {}).setClipboard("first");
    expect(b.bridge.status().clipboard).toMatchObject({ state: "queued", length: 5 });

    const waiting = new BridgePhoneIo(b.bridge, { clipboardWait: "copied" });
    let done = false;
    const set = waiting.setClipboard("second").then(() => {
      done = true;
    });
    const view = await b.page.poll();
    const clip = view.body.clipboard as { id: number; text: string };
    expect(clip.text).toBe("second");
    expect(done).toBe(false);
    await b.page.post("/api/ack", { kind: "clipboard", id: clip.id, state: "copied", how: "tap" });
    await set;
    expect(done).toBe(true);
  });

  it("screenshot() triggers the phone and returns the upload that follows", async () => {
    const b = await paired();
    const png = await pngBytes(117, 253);
    let triggered = 0;
    const io = new BridgePhoneIo(b.bridge, {
      // The upload completes before the trigger returns, as a fast Shortcut could.
      triggerScreenshot: async () => {
        triggered++;
        expect((await b.page.upload(png)).status).toBe(200);
      },
    });
    expect((await io.screenshot()).equals(png)).toBe(true);
    expect(triggered).toBe(1);

    const silent = new BridgePhoneIo(b.bridge, { screenshotTimeoutMs: 50 });
    expect((await rejection(silent.screenshot())).code).toBe("BRIDGE_SCREENSHOT_TIMEOUT");
  });
});
