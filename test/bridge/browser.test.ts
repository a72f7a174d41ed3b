import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dotGridPattern, patternSvg } from "../../src/calibration/pattern.js";
import { Browser, hasChromium } from "./cdp.js";
import { type StartedBridge, startBridge } from "./helpers.js";

/**
 * The real page in headless Chromium (as a 390×844 touch phone): pair with a typed code, get clipboard
 * text through the Copy button, report touches, show a pattern. Skipped where Chromium is not installed
 * (CI does not install it); set PICLAW_CHROMIUM to point at another binary.
 */

type Send = (method: string, params?: Record<string, unknown>) => Promise<Record<string, unknown>>;
const SCREEN = { width: 390, height: 844 };

describe.skipIf(!hasChromium())("bridge page in headless Chromium", () => {
  let browser: Browser;
  let s: StartedBridge;
  let send: Send;

  beforeAll(async () => {
    s = await startBridge({ config: { ackTimeoutMs: 5000 } });
    browser = await Browser.launch();
    send = await browser.newPage();
    await send("Emulation.setDeviceMetricsOverride", {
      ...SCREEN,
      deviceScaleFactor: 3,
      mobile: true,
      screenWidth: SCREEN.width,
      screenHeight: SCREEN.height,
    });
    await send("Emulation.setTouchEmulationEnabled", { enabled: true, maxTouchPoints: 5 });
    await send("Browser.grantPermissions", {
      origin: s.url,
      permissions: ["clipboardReadWrite", "clipboardSanitizedWrite"],
    }).catch(() => {}); // older Chromium: the page falls back to execCommand
  });

  afterAll(async () => {
    await browser?.close();
    await s?.stop();
  });

  const evaluate = async (expression: string): Promise<unknown> => {
    const r = (await send("Runtime.evaluate", { expression, awaitPromise: true, returnByValue: true })) as {
      result: { value?: unknown };
      exceptionDetails?: { text: string; exception?: { description?: string } };
    };
    const ex = r.exceptionDetails;
    if (ex) throw new Error(`page threw: ${ex.exception?.description ?? ex.text}`);
    return r.result.value;
  };
  const until = async (expression: string, what: string): Promise<void> => {
    for (let i = 0; i < 200; i++) {
      // During navigation the old document (about:blank) answers: treat a throw as "not yet".
      if (await evaluate(expression).catch(() => false)) return;
      await new Promise((r) => setTimeout(r, 25));
    }
    throw new Error(`timed out waiting for ${what}`);
  };
  /** A stylus tap: touch down and up at the centre of `id`; returns where it landed (CSS px). */
  const tap = async (id: string): Promise<{ x: number; y: number }> => {
    const rect = (await evaluate(
      `(() => { const r = document.getElementById(${JSON.stringify(id)}).getBoundingClientRect();
        return { x: r.left + r.width / 2, y: r.top + r.height / 2 }; })()`,
    )) as { x: number; y: number };
    await send("Input.dispatchTouchEvent", { type: "touchStart", touchPoints: [rect] });
    await send("Input.dispatchTouchEvent", { type: "touchEnd", touchPoints: [] });
    return rect;
  };

  it("pairs, copies clipboard text on a tap, reports touches and shows a pattern", async () => {
    const t0 = Date.now();
    await send("Page.navigate", { url: `${s.url}/` });
    await until(`!document.getElementById("pair").hidden`, "the pairing form");

    const { code } = s.bridge.pairCode();
    await evaluate(`document.getElementById("code").focus()`);
    await send("Input.insertText", { text: code.toLowerCase() });
    await tap("pairBtn");
    await until(`!document.getElementById("main").hidden`, "the main view after pairing");
    await until(`document.getElementById("conn").className === "ok"`, "the long-poll");
    expect(s.bridge.status().pairedDevices).toHaveLength(1);
    expect(s.bridge.status().page.info).toMatchObject({ screen: SCREEN, fullScreen: true });
    expect(await evaluate("document.cookie")).toBe(""); // HttpOnly: the script cannot read it

    // Where the browser lets a page write the clipboard by itself (https or localhost), it does.
    const auto = s.bridge.queueClipboard("first, copied by itself");
    expect((await s.bridge.awaitClipboard(auto.id, "copied", 5000)).copiedBy).toBe("auto");
    expect(await evaluate("navigator.clipboard.readText()")).toBe("first, copied by itself");

    // Over plain http on the LAN there is no navigator.clipboard: the Copy button (a gesture) copies.
    await evaluate(
      `window.realClipboard = navigator.clipboard;
       Object.defineProperty(Navigator.prototype, "clipboard", { get: () => undefined }); true`,
    );
    const item = s.bridge.queueClipboard("hello from PiClaw");
    await s.bridge.awaitClipboard(item.id, "shown", 5000);
    const copied = s.bridge.awaitClipboard(item.id, "copied", 5000);
    expect(s.bridge.status().clipboard?.state).toBe("shown");
    const at = await tap("copy");
    expect((await copied).copiedBy).toBe("tap");
    expect(await evaluate("window.realClipboard.readText()")).toBe("hello from PiClaw");
    await until(`document.getElementById("copy").textContent === "Copied ✓"`, "the Copied label");

    // Every touch-down is reported as a screen fraction (the pair button's, then the Copy button's).
    let touches = s.bridge.touchesSince(t0);
    for (let i = 0; i < 100 && touches.length < 2; i++) {
      await new Promise((r) => setTimeout(r, 25));
      touches = s.bridge.touchesSince(t0);
    }
    const last = touches.at(-1);
    expect(last?.x).toBeCloseTo(at.x / SCREEN.width, 2);
    expect(last?.y).toBeCloseTo(at.y / SCREEN.height, 2);
    expect(last?.tMs).toBeGreaterThanOrEqual(t0);

    await s.bridge.showPattern(patternSvg(dotGridPattern(), SCREEN), SCREEN);
    expect(await evaluate(`document.querySelectorAll("#overlay circle").length`)).toBe(45);
    const dot = (await evaluate(
      `(() => { const r = document.querySelector("#overlay circle").getBoundingClientRect();
        return { x: r.left + r.width / 2, y: r.top + r.height / 2 }; })()`,
    )) as { x: number; y: number };
    expect(dot.x / SCREEN.width).toBeCloseTo(0.12, 2); // the big top-left dot
    expect(dot.y / SCREEN.height).toBeCloseTo(0.08, 2);
    // A touch on the pattern is reported (and swallowed by the overlay).
    const beforeDot = Date.now();
    await send("Input.dispatchTouchEvent", { type: "touchStart", touchPoints: [dot] });
    await send("Input.dispatchTouchEvent", { type: "touchEnd", touchPoints: [] });
    let onDot = s.bridge.touchesSince(beforeDot);
    for (let i = 0; i < 100 && onDot.length === 0; i++) {
      await new Promise((r) => setTimeout(r, 25));
      onDot = s.bridge.touchesSince(beforeDot);
    }
    expect(onDot[0]?.x).toBeCloseTo(0.12, 2);
    expect(onDot[0]?.y).toBeCloseTo(0.08, 2);
    await s.bridge.clearPattern();
    expect(await evaluate(`document.getElementById("overlay").hidden`)).toBe(true);
  });
});
