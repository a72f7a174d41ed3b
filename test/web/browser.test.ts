import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Browser, chromium, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseConfig } from "../../src/app/config/load.js";
import { Daemon } from "../../src/app/daemon.js";
import { writeBundle } from "../../src/calibration/bundle.js";
import { Logger } from "../../src/log/logger.js";
import { TokenStore } from "../../src/mcp/tokens.js";
import type { MotionController } from "../../src/rig/controller.js";
import type { SimRig } from "../../src/sim/rig.js";
import { systemClock } from "../../src/util/clock.js";
import { CHROMIUM, hasChromium } from "../bridge/cdp.js";
import { SIM_TEST_CAMERA } from "../helpers/sim-camera.js";
import { truthBundle } from "./helpers.js";

/**
 * The dashboard in headless Chromium (playwright-core on the system browser) on the real daemon and the
 * simulated rig — the GRBL driver over a pty, the rpicam-vid stand-in (needs `npm run build`), the real
 * vision pipeline — bound off loopback, so the page needs an MCP token: 401 without one, the login
 * form, then a live annotated frame, Peek for a new one, and Park queued behind a held arm. The state
 * directory starts with the calibration bundle the simulator's truth gives (a calibrated appliance). Jobs and
 * sessions stay empty here (the daemon has no stores for them yet); test/web/dashboard.test.ts covers
 * them with fakes. Skipped where Chromium is not installed; PICLAW_CHROMIUM points at another binary.
 */

describe.skipIf(!hasChromium())("dashboard in headless Chromium on the simulated rig", () => {
  let stateDir: string;
  let daemon: Daemon;
  let browser: Browser;
  let page: Page;
  let base: string;
  let token: string;
  const logLines: string[] = [];

  beforeAll(async () => {
    stateDir = mkdtempSync(join(tmpdir(), "piclaw-web-"));
    token = (await new TokenStore(join(stateDir, "tokens.json"), systemClock).create("browser")).token;
    const log = Logger.create({
      level: "debug",
      format: "json",
      sink: { write: (line) => logLines.push(line) },
      now: () => Date.now(),
    });
    const config = parseConfig({
      stateDir,
      // Any address but loopback: the dashboard (like /mcp) then needs a token.
      server: { host: "0.0.0.0", port: 0 },
      camera: SIM_TEST_CAMERA,
      sim: { phone: { passcode: "975310", utcOffsetMinutes: 0 } },
      // One view when the page opens; after that only Peek makes new ones (so the test knows why).
      dashboard: { pollMs: 500, frameRefreshMs: 3_600_000 },
    });
    // A calibrated appliance: the bundle a perfect calibration would write (skips the start-up one).
    writeBundle(stateDir, await truthBundle(config, log.child("truth")));
    daemon = new Daemon({ config, path: null, stateDir }, log, systemClock, {});
    await daemon.start();
    base = (daemon.url ?? "").replace("0.0.0.0", "127.0.0.1");
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox", "--disable-gpu"] });
    page = await browser.newPage();
    page.on("dialog", (dialog) => void dialog.accept());
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await daemon?.stop();
    if (stateDir) rmSync(stateDir, { recursive: true, force: true });
  }, 60_000);

  /** The shown frame's id once its JPEG has decoded (0 before). Page code is a string: no DOM types here. */
  const frameId = async (): Promise<number> =>
    Number(
      await page.evaluate(`(() => {
        const img = document.getElementById("frame");
        return img && img.complete && img.naturalWidth > 0 ? Number(img.dataset.frameId ?? 0) : 0;
      })()`),
    );

  it("refuses a request without a token with 401 and shows the login form", async () => {
    expect((await fetch(`${base}/dashboard/status.json`)).status).toBe(401);
    const response = await page.goto(`${base}/`);
    expect(response?.status()).toBe(401);
    expect(await page.locator("form[action='/dashboard/login']").count()).toBe(1);
  });

  it("logs in with the token (an HttpOnly cookie, not the token) and shows a live annotated frame", async () => {
    await page.fill("#token", token);
    await page.click("#login");
    // The dashboard replaced the login form (same URL); the image stays hidden behind a placeholder
    // until the first frame has decoded.
    await page.waitForSelector("#frame", { state: "attached" });
    const cookies = await page.context().cookies();
    expect(cookies).toHaveLength(1);
    expect(cookies[0]).toMatchObject({ name: "piclaw_dashboard", httpOnly: true, sameSite: "Strict" });
    expect(cookies[0]?.value).not.toContain(token.slice(-43));
    const cookie = `${cookies[0]?.name}=${cookies[0]?.value}`;
    expect((await fetch(`${base}/dashboard/status.json`, { headers: { cookie } })).status).toBe(200);

    await expect.poll(frameId, { timeout: 60_000, interval: 250 }).toBeGreaterThan(0);
    expect(await page.isVisible("#frame")).toBe(true);
    expect(await page.isVisible("#framePlaceholder")).toBe(false);
    const size = (await page.evaluate(`(() => {
      const img = document.getElementById("frame");
      return { w: img.naturalWidth, h: img.naturalHeight };
    })()`)) as { w: number; h: number };
    expect(size.h).toBeGreaterThan(size.w); // the rectified portrait screen, not the landscape camera
    expect(await page.textContent("#listing")).toMatch(/^\d+ \[\w+\] "/m);
    expect(await page.textContent("#calError")).toBe("passed: worst tap 0.02 mm (limit 1 mm)");
    expect(await page.textContent("#calAge")).toMatch(/^\d+ s ago/);
    expect(await page.textContent("#armState")).toBe("idle");
    expect(await page.textContent("#holder")).toBe("Free");
  }, 120_000);

  it("shows a new frame after a click on Peek", async () => {
    const before = await frameId();
    const shownAt = await page.textContent("#frameId");
    await page.click("#peek");
    await expect.poll(frameId, { timeout: 30_000, interval: 100 }).toBeGreaterThan(before);
    expect(await page.textContent("#frameId")).not.toBe(shownAt);
  }, 60_000);

  it("parks through the owner: Park waits in line while the arm is held, then moves it", async () => {
    const rig = daemon.simRig as SimRig;
    const owner = daemon.owner;
    if (!owner) throw new Error("no owner");
    // Hold the arm as a gesture would, and move the carriage off the park spot under that lease.
    const lease = await owner.acquire({ priority: "local", label: "test:gesture" });
    // Test-only reach into the daemon's motion controller, to have something to park from.
    const motion = (daemon as unknown as { stack: { motion: MotionController } }).stack.motion;
    const area = motion.allowedArea;
    const mid = { xMm: (area.minXMm + area.maxXMm) / 2, yMm: (area.minYMm + area.maxYMm) / 2 };
    await motion.run([{ kind: "travel", to: mid }]);
    const clickedAt = rig.gantry.now();
    await page.click("#park");
    await expect.poll(() => page.textContent("#queue"), { timeout: 10_000 }).toContain("dashboard:park");
    expect(await page.textContent("#holder")).toContain("test:gesture");
    expect(
      rig.gantry.motionLog(clickedAt).filter((e) => e.kind === "move" && e.startMs >= clickedAt),
    ).toEqual([]);

    lease.release();
    await expect.poll(() => page.textContent("#message"), { timeout: 30_000 }).toBe("parked");
    const moves = rig.gantry.motionLog(clickedAt).filter((e) => e.kind === "move" && e.startMs >= clickedAt);
    expect(moves.length).toBeGreaterThan(0);
    const park = rig.profile.park;
    const end = rig.gantry.positionAt();
    expect(Math.hypot(end.xMm - park.xMm, end.yMm - park.yMm)).toBeLessThan(0.1);
    await expect.poll(() => page.textContent("#holder"), { timeout: 5_000 }).toBe("Free");
    expect(await page.textContent("#armPos")).toBe(
      `x ${park.xMm.toFixed(1)} mm, y ${park.yMm.toFixed(1)} mm`,
    );
  }, 60_000);

  it("never writes the token to the log", () => {
    expect(logLines.join("\n")).not.toContain(token.slice(-43));
  });
});
