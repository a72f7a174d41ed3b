import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Browser, chromium, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/app/config/load.js";
import { configOverlayPath } from "../../src/app/config/overlay.js";
import { Daemon } from "../../src/app/daemon.js";
import { DaemonSupervisor } from "../../src/app/supervisor.js";
import { writeBundle } from "../../src/calibration/bundle.js";
import { TokenStore } from "../../src/mcp/tokens.js";
import { compareSettings } from "../../src/rig/grbl/settings.js";
import { SimControlServer } from "../../src/sim/control.js";
import { GrblEeprom } from "../../src/sim/gantry/grbl-eeprom.js";
import { type SimGrblLink, startSimGrblLink } from "../../src/sim/gantry/grbl-link.js";
import { SimRig } from "../../src/sim/rig.js";
import { systemClock } from "../../src/util/clock.js";
import { projectRoot } from "../../src/util/paths.js";
import { CHROMIUM, hasChromium } from "../bridge/cdp.js";
import { PageClient } from "../bridge/helpers.js";
import { FakeNotifier } from "../fakes/notifier.js";
import { fakeUsbSerial } from "../rig/grbl/fake-usb.js";
import { truthBundle } from "../web/helpers.js";
import { FakeBridgePage } from "./fake-bridge-page.js";
import { captureLog, PASSCODE, worldConfig } from "./hardware-world.js";

/**
 * The setup wizard in headless Chromium, walked like a new owner would on a fresh appliance (the daemon
 * on `rig.backend: sim`, no overlay), with the hardware faked only at its real boundaries:
 * - the camera: a stand-in `rpicam-hello` on PATH (test/fakes/bin, output modelled on rpicam-apps'
 *   options.cpp), and the rpicam-still/-vid stand-ins (bin/sim, needs `npm run build`) looking at a
 *   simulated "world" through its control socket;
 * - the board: the GRBL simulator with FACTORY settings on one end of a pty, the world's gantry behind
 *   it, reached through a fake `/dev/serial/by-id` link and sysfs USB ids of a CH340;
 * - the phone: a bridge-page stand-in (test/app/fake-bridge-page.ts) that draws the bridge's patterns
 *   on the world's phone and reports its touches; a second Chromium tab opens the QR code's URL.
 * Steps: detection, settings apply, switch to hardware + restart, pairing, calibration, token, finish,
 * and the first Peek on the real rig. Skipped without Chromium.
 */

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

const text = (page: Page, id: string) => page.locator(`#${id}`).innerText();
/** Wait for an element's text (the page's CSP forbids the string predicates of waitForFunction). */
const waitText = (page: Page, id: string, pattern: RegExp, timeout = 30_000) =>
  page.locator(`#${id}`, { hasText: pattern }).waitFor({ timeout });

describe.skipIf(!hasChromium())(
  "the /setup wizard in headless Chromium (simulated world, faked hardware)",
  () => {
    let root: string;
    let stateDir: string;
    let world: SimRig;
    let link: SimGrblLink;
    let eeprom: GrblEeprom;
    let control: SimControlServer;
    let supervisor: DaemonSupervisor;
    let browser: Browser;
    let page: Page;
    let base: string;
    let bridgePort: number;
    let phone: FakeBridgePage | null = null;
    const exits: number[] = [];
    const logLines: string[] = [];
    const timings: Record<string, number> = {};
    const timed = async <T>(name: string, work: () => Promise<T>): Promise<T> => {
      const t0 = performance.now();
      try {
        return await work();
      } finally {
        timings[name] = performance.now() - t0;
      }
    };

    beforeAll(async () => {
      root = mkdtempSync(join(tmpdir(), "piclaw-setup-"));
      stateDir = join(root, "state");
      mkdirSync(stateDir, { recursive: true });
      const worldLog = captureLog([]);
      world = SimRig.fromConfig(worldConfig(stateDir), {
        clock: systemClock,
        log: worldLog,
        cwd: process.cwd(),
      });
      await world.start();
      // Factory settings (250 steps/mm, 500 mm/min, …) on a CoreXY build of GRBL 1.1h: the one thing the
      // wizard cannot fix is the firmware build (that needs a reflash; the settings test covers it).
      eeprom = new GrblEeprom({ coreXY: true });
      link = await startSimGrblLink({ gantry: world.gantry, profile: world.profile, log: worldLog, eeprom });
      control = new SimControlServer(world, worldLog);
      const socket = await control.start(join(root, "world.sock"));

      // PATH: the rpicam-hello stand-in, and the camera stand-ins under the real programs' names.
      const bin = join(root, "bin");
      mkdirSync(bin);
      symlinkSync(join(projectRoot(), "test", "fakes", "bin", "rpicam-hello"), join(bin, "rpicam-hello"));
      for (const name of ["rpicam-vid", "rpicam-still"])
        symlinkSync(join(projectRoot(), "bin", "sim", name), join(bin, name));
      const scan = fakeUsbSerial(join(root, "usb"), {
        byIdName: "usb-1a86_USB_Serial-if00-port0",
        device: realpathSync(link.devicePath),
        usbId: "1a86:7523",
        kind: "ttyUSB",
      });

      const port = await freePort();
      bridgePort = await freePort();
      const file = join(root, "piclaw.yaml");
      writeFileSync(
        file,
        JSON.stringify({
          stateDir,
          server: { host: "127.0.0.1", port },
          camera: { framerate: 5, grabTimeoutMs: 30_000 },
          bridge: { host: "127.0.0.1", port: bridgePort },
          phone: { passcode: PASSCODE },
          sim: { phone: { passcode: PASSCODE, utcOffsetMinutes: 0 } },
          dashboard: { pollMs: 500, frameRefreshMs: 3_600_000, openSetupFirst: true },
        }),
      );
      const load = () => loadConfig({ flagPath: file, env: {}, cwd: root });
      const first = load();
      // The fresh appliance's simulated rig, already calibrated (spares the test its start-up calibration).
      writeBundle(stateDir, await truthBundle(first.config, worldLog));
      const env = { PATH: `${bin}:${process.env.PATH}`, PICLAW_SIM_SOCKET: socket };
      supervisor = new DaemonSupervisor({
        load,
        create: (loaded) =>
          new Daemon(loaded, captureLog(logLines), systemClock, env, {
            notifier: new FakeNotifier(),
            setupScan: scan,
            setupTimeouts: { bannerWaitMs: 10_000 },
          }),
        underSystemd: false,
        log: captureLog(logLines),
        exit: (code) => exits.push(code),
      });
      await supervisor.start(first);
      base = `http://127.0.0.1:${port}`;
      browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox", "--disable-gpu"] });
      page = await browser.newPage();
    }, 180_000);

    afterAll(async () => {
      await phone?.close();
      await browser?.close();
      await supervisor?.stop();
      await control?.stop().catch(() => undefined);
      await link?.stop().catch(() => undefined);
      await world?.stop();
      if (root) rmSync(root, { recursive: true, force: true });
      // Printed, never asserted (wall clock on a shared machine).
      for (const [name, ms] of Object.entries(timings))
        console.log(`setup wizard ${name}: ${(ms / 1000).toFixed(1)} s`);
    }, 60_000);

    it("a fresh appliance opens the wizard, which says the rig is simulated", async () => {
      await page.goto(`${base}/`);
      expect(new URL(page.url()).pathname).toBe("/setup");
      await waitText(page, "rig", /^Simulated rig$/);
    });

    it("detects the camera through rpicam-hello --list-cameras", async () => {
      await page.click("#cameraBtn");
      await page.waitForSelector("#cameraResult .ok");
      expect(await text(page, "cameraResult")).toContain("camera 0: imx708 4608×2592");
    });

    it("finds the CH340 by its USB id and reads the board's GRBL banner", async () => {
      await timed("board detection", async () => {
        await page.click("#boardsBtn");
        await page.waitForSelector("#boardsResult .ok, #boardsResult .problem", { timeout: 60_000 });
      });
      expect(await text(page, "boardsResult")).toContain("1 board(s) answered");
      const board = await text(page, "boardList");
      expect(board).toContain("usb-1a86_USB_Serial-if00-port0");
      expect(board).toContain("1a86:7523, CH340");
      expect(board).toMatch(/Grbl 1\.1h \['\$' for help\]/);
    }, 90_000);

    it("checks the factory board against the profile, then writes the settings and records the park", async () => {
      await page.selectOption("#profile", "corexy-fluidnc");
      await page.click("#checkBtn");
      await page.waitForSelector("#settingsResult .problem", { timeout: 60_000 });
      expect(await text(page, "settingsResult")).toMatch(/setting\(s\) differ from the profile/);
      expect(await text(page, "mismatches")).toContain("$100");
      // Nothing written by a check.
      expect(readdirSync(stateDir).filter((f) => f.startsWith("grbl-settings-backup-"))).toEqual([]);
      await page.check("#parked");
      await page.click("#applyBtn");
      await page.waitForSelector("#settingsResult .ok", { timeout: 60_000 });
      const result = await text(page, "settingsResult");
      expect(result).toContain("the settings match the profile");
      expect(result).toContain("the park position is recorded");
      expect(readdirSync(stateDir).filter((f) => f.startsWith("grbl-settings-backup-"))).toHaveLength(1);
      // The board's EEPROM now holds the profile: the same check the driver makes finds nothing.
      expect(compareSettings(world.profile, eeprom.settings, { version: "1.1h", options: "VC" })).toEqual([]);
    }, 120_000);

    it("shows the camera's view", async () => {
      await page.click("#viewBtn");
      await page.waitForSelector("#viewResult .ok, #viewResult .problem", { timeout: 60_000 });
      expect(await page.evaluate(`document.getElementById("view").naturalWidth`)).toBeGreaterThan(0);
      expect(await text(page, "viewResult")).toContain("once the real rig is calibrated");
    }, 90_000);

    it("switches to the real rig: the overlay is written and the daemon restarts on it", async () => {
      await timed("switch + restart", async () => {
        await page.click("#switchBtn");
        await waitText(page, "switchResult", /restarted: Real rig/, 180_000);
      });
      expect(await text(page, "switchResult")).toMatch(
        /restarted: Real rig \(GRBL on .*usb-1a86_USB_Serial-if00-port0\)/,
      );
      const overlay = readFileSync(configOverlayPath(stateDir), "utf8");
      expect(overlay).toMatch(/backend: hardware/);
      expect(overlay).toMatch(/enabled: true/);
      expect(exits).toEqual([]);
      const daemon = supervisor.daemon;
      expect(daemon?.simRig).toBeNull();
      // The simulated rig's calibration was put aside: it maps another camera and arm.
      expect(existsSync(join(stateDir, "calibration", "bundle.sim-rig.json"))).toBe(true);
    }, 200_000);

    it("re-runs steps on the real rig: the camera answers from its stream, the board step says why not", async () => {
      await page.click("#cameraBtn");
      await waitText(page, "cameraResult", /delivers frames/, 60_000);
      await page.click("#boardsBtn");
      await page.waitForSelector("#boardsResult .problem");
      expect(await text(page, "boardsResult")).toMatch(
        /holds its serial port[\s\S]*How to fix: .*switch back to the simulated rig/,
      );
    }, 90_000);

    it("pairs the phone from the QR code's link, and again for the calibration page", async () => {
      await page.click("#pairBtn");
      await page.waitForSelector("#qr svg");
      const first = await text(page, "pairLink");
      expect(first).toMatch(
        new RegExp(`^http://127\\.0\\.0\\.1:${bridgePort}/#pair=[A-Z0-9]{4}-[A-Z0-9]{4}$`),
      );
      // The phone's browser opens the link: the bridge page pairs by itself.
      const phoneTab = await browser.newPage();
      await phoneTab.goto(first);
      const bridge = supervisor.daemon?.bridge;
      await expect.poll(() => bridge?.status().pairedDevices.length, { timeout: 30_000 }).toBe(1);
      expect(new URL(phoneTab.url()).hash).toBe("");
      await phoneTab.close();
      // A new code for the page stand-in that mirrors patterns onto the world's phone.
      await page.click("#pairBtn");
      await expect.poll(() => text(page, "pairLink")).not.toBe(first);
      const code = await text(page, "pairCode");
      phone = new FakeBridgePage(new PageClient(`http://127.0.0.1:${bridgePort}`), world);
      await phone.open(code);
      expect(bridge?.status().pairedDevices.length).toBe(2);
    }, 60_000);

    it("calibrates with live progress and draws the validation taps on the picture", async () => {
      await timed("calibration", async () => {
        await page.click("#calBtn");
        await page.waitForSelector("#calResult .ok, #calResult .problem", { timeout: 600_000 });
      });
      const log = await text(page, "calLog");
      expect(await text(page, "calResult"), log).toContain("calibrated");
      expect(log.split("\n").length).toBeGreaterThan(3);
      expect(phone?.patternsShown).toBeGreaterThan(0);
      await expect
        .poll(() => page.evaluate(`Number(document.getElementById("viewOverlay").dataset.taps ?? 0)`), {
          timeout: 60_000,
        })
        .toBeGreaterThan(0);
      expect(await page.locator("#viewOverlay polygon.outline").count()).toBe(1);
    }, 660_000);

    it("creates the first MCP token and shows a ready-to-paste host config", async () => {
      await page.fill("#tokenLabel", "laptop");
      await page.click("#tokenBtn");
      await page.waitForSelector("#tokenResult .ok");
      const config = JSON.parse(await text(page, "mcpConfig")) as {
        mcpServers: { piclaw: { type: string; url: string; headers: { Authorization: string } } };
      };
      expect(config.mcpServers.piclaw.url).toBe(`${base}/mcp`);
      const token = config.mcpServers.piclaw.headers.Authorization.replace(/^Bearer /, "");
      expect(new TokenStore(join(stateDir, "tokens.json"), systemClock).verify(token)?.label).toBe("laptop");
    });

    it("finishes; the dashboard says Real rig and the first Peek shows the phone", async () => {
      await page.click("#finishBtn");
      await page.waitForSelector("#finishResult .ok");
      await page.goto(`${base}/`);
      expect(new URL(page.url()).pathname).toBe("/");
      await waitText(page, "rig", /^Real rig \(GRBL on /);
      expect(await page.locator("#setupLink").isHidden()).toBe(true);
      await timed("first peek", async () => {
        await page.click("#peek");
        const shown = `(() => {
          const img = document.getElementById("frame");
          return !img.hidden && img.complete ? img.naturalWidth : 0;
        })()`;
        await expect.poll(() => page.evaluate(shown), { timeout: 120_000 }).toBeGreaterThan(0);
      });
      // The listing of what vision read off the phone (inside a closed <details>: not rendered text).
      expect(((await page.locator("#listing").textContent()) ?? "").trim()).not.toBe("");
    }, 150_000);
  },
);
