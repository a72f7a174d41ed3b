import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseListing, type Row, type SimDaemon, startSimDaemon } from "./sim-daemon.js";

/**
 * A real MCP client over HTTP drives the daemon on the simulated rig — the GRBL driver over a pty to
 * the simulated FluidNC board, the rpicam-vid stand-in, the real OCR and detector — through all 12
 * tools, and the simulated phone changes as expected. Targets come from the tools' own listings (the
 * row labelled "Clock"), never from the simulator's truth; truth only checks the outcome. One daemon
 * serves the whole file (it calibrates once at start); tests run in order and build on each other.
 */

const PASSCODE = "482916";
const MESSAGE = "Hello from PiClaw";

interface Called {
  isError: boolean;
  texts: string[];
  images: number;
}

describe("the 12 phone tools over MCP on the simulated rig", () => {
  let sim: SimDaemon;
  /** Every text part of every result, for the secret check at the end. */
  const allTexts: string[] = [];
  const timings: Record<string, number[]> = {};

  async function call(name: string, args: Record<string, unknown> = {}): Promise<Called> {
    const t0 = performance.now();
    const res = await sim.client.callTool({ name, arguments: args });
    timings[name] = [...(timings[name] ?? []), performance.now() - t0];
    const content = res.content as { type: string; text?: string }[];
    const texts = content.filter((c) => c.type === "text").map((c) => c.text ?? "");
    allTexts.push(...texts);
    return {
      isError: res.isError === true,
      texts,
      images: content.filter((c) => c.type === "image").length,
    };
  }

  const rows = (c: Called): Row[] => parseListing(c.texts.at(-1) ?? "");
  /** OCR may drop spaces ("AlexChen") or mistake a letter's case: compare as a lenient reader would. */
  const loose = (s: string) => s.replace(/\s+/g, "").toLowerCase();
  const same = (a: string, b: string) => loose(a) === loose(b);
  function find(c: Called, label: string): Row {
    const row = rows(c).find((r) => same(r.label, label));
    if (!row) throw new Error(`no row "${label}" in:\n${c.texts.join("\n")}`);
    return row;
  }
  const centre = (r: Row) => ({ x: (r.bbox[0] + r.bbox[2]) / 2, y: (r.bbox[1] + r.bbox[3]) / 2 });
  /** A gesture answered [text, image, listing] with the given verdict. */
  function expectGesture(c: Called, verdict: string): void {
    expect(c.isError, c.texts.join("\n")).toBe(false);
    expect(c.images, c.texts.join("\n")).toBe(1);
    expect(c.texts).toHaveLength(2);
    expect(c.texts[0]).toContain(`screen: ${verdict}`);
    expect(c.texts[0]).toMatch(/\nnext: /);
  }

  beforeAll(async () => {
    sim = await startSimDaemon({ passcode: PASSCODE });
  }, 120_000);

  afterAll(async () => {
    await sim?.stop();
    // Latencies as an MCP client sees them (wall clock, real-time gantry); printed, never asserted.
    for (const [name, ms] of Object.entries(timings))
      console.log(`latency ${name}: ${ms.map((m) => (m / 1000).toFixed(2)).join(", ")} s`);
  });

  it("calibrates at first start, then lists the 12 tools in wire order; peek returns [image, listing]", async () => {
    const list = await sim.client.listTools();
    expect(list.tools.map((t) => t.name)).toEqual([
      "peek",
      "screenshot",
      "tap",
      "double_tap",
      "long_press",
      "swipe",
      "home_screen",
      "go_back",
      "force_quit",
      "unlock_phone",
      "send_to_clipboard",
      "sequence",
    ]);
    const peek = await call("peek"); // waits for the start-up calibration
    expect(peek.isError, peek.texts.join("\n")).toBe(false);
    expect(peek.images).toBe(1);
    expect(rows(peek).length).toBeGreaterThan(3);
    expect(sim.logLines.some((l) => l.includes("calibration written; phone tools ready"))).toBe(true);
  }, 120_000);

  it("an invalid call is refused naming the field, and moves nothing", async () => {
    const t0 = sim.rig.gantry.now();
    const at = sim.rig.gantry.positionAt();
    const bad = await call("tap", { bbox: [0.6, 0.1, 0.4, 0.2] });
    expect(bad.isError).toBe(true);
    expect(bad.texts[0]).toContain("bbox[2] (right) must be greater than bbox[0]");
    expect(bad.texts[0]).toContain("Nothing was done");
    expect(sim.rig.phone.touchReports(t0)).toEqual([]);
    expect(sim.rig.gantry.positionAt()).toEqual(at);
  });

  it("unlock_phone wakes a dark phone (side button on the sim) and types the passcode", async () => {
    sim.rig.phone.pressSideButton(); // the phone went to sleep
    expect(sim.truth().screen).toBe("off");
    const res = await call("unlock_phone");
    expectGesture(res, "changed");
    expect(res.texts[0]).toContain("woke the screen");
    expect(res.texts[0]).toContain("unlocked");
    expect(sim.truth()).toMatchObject({ locked: false, screen: "home" });
  }, 60_000);

  it("home → Clock → Timer; a tap on empty wallpaper reports no visible change", async () => {
    const home = await call("peek");
    // Empty wallpaper between the icon grid and the dock, as a model would pick it from the image.
    const empty = [0.42, 0.62, 0.58, 0.66];
    expect(rows(home).some((r) => r.bbox[1] < 0.66 && r.bbox[3] > 0.62)).toBe(false);
    expectGesture(await call("tap", { bbox: empty }), "no visible change");
    const clock = await call("tap", { bbox: find(home, "Clock").bbox });
    expectGesture(clock, "changed");
    expect(sim.truth().app).toBe("clock");
    const timer = await call("tap", { bbox: find(clock, "Timer").bbox });
    expectGesture(timer, "changed");
    expect(sim.truth().state).toContain("timer");
  }, 60_000);

  it("double_tap and sequence on the Clock tabs", async () => {
    const view = await call("peek");
    const double = await call("double_tap", { bbox: find(view, "Stopwatch").bbox });
    expectGesture(double, "changed");
    expect(sim.rig.phone.lastGesture).toMatchObject({ kind: "tap", count: 2 });
    expect(sim.truth().state).toContain("stopwatch");
    const seq = await call("sequence", {
      step1: { tool_name: "tap", arg: { bbox: find(view, "Alarm").bbox } },
      step2: { tool_name: "tap", arg: { bbox: find(view, "Timer").bbox } },
    });
    expectGesture(seq, "changed");
    expect(seq.texts[0]).toMatch(
      /sequence: 2 of 2 steps done\nstep1: tap at .* — done\nstep2: tap at .* — done/,
    );
    expect(sim.truth().state).toContain("timer");
  }, 60_000);

  it("force_quit closes the open app and lands on home; the app restarts fresh", async () => {
    const quit = await call("force_quit");
    expectGesture(quit, "changed");
    expect(sim.truth().screen).toBe("home");
    const home = rows(quit);
    const again = await call("tap", { bbox: find(quit, "Clock").bbox });
    expect(home.length).toBeGreaterThan(0);
    expectGesture(again, "changed");
    expect(sim.truth().state).toContain("world clock"); // not the timer tab it was left on
  }, 60_000);

  it("home_screen, then swipe between home pages", async () => {
    expectGesture(await call("home_screen"), "changed");
    expect(sim.truth().screen).toBe("home");
    const home = await call("peek");
    const left = await call("swipe", { bbox: find(home, "Weather").bbox, direction: "left", size: "l" });
    expectGesture(left, "changed");
    expect(sim.truth().state).toContain("page 2 of 2");
    const right = await call("swipe", {
      bbox: find(left, "Contacts").bbox,
      direction: "right",
      size: "l",
      speed: "fast",
    });
    expectGesture(right, "changed");
    expect(sim.truth().state).toContain("page 1 of 2");
  }, 60_000);

  it("screenshot lists the same elements at the same places as peek", async () => {
    const peek = await call("peek");
    const shot = await call("screenshot");
    expect(shot.isError, shot.texts.join("\n")).toBe(false);
    expect(shot.images).toBe(1);
    expect(shot.texts[0]).toContain("screenshot");
    const a = centre(find(peek, "Clock"));
    const b = centre(find(shot, "Clock"));
    expect(Math.abs(a.x - b.x)).toBeLessThan(0.02);
    expect(Math.abs(a.y - b.y)).toBeLessThan(0.02);
  }, 60_000);

  it("pastes text into a chat and sends it; go_back returns to the thread list", async () => {
    const clip = await call("send_to_clipboard", { text: MESSAGE });
    expect(clip.isError).toBe(false);
    expect(clip.texts[0]).toContain("long_press the text field, then tap Paste");
    const home = await call("peek");
    // The dock has no names printed under it: its stock apps are named by their design
    // (`src/vision/stock-apps.ts`), Messages being the third of its four icons, left to right.
    const dock = rows(home)
      .filter((r) => (r.kind === "icon" || r.kind === "app") && r.bbox[1] > 0.85)
      .sort((p, q) => p.bbox[0] - q.bbox[0]);
    expect(dock).toHaveLength(4);
    expect(dock[2]).toMatchObject({ kind: "app", label: "Messages" });
    const messages = await call("tap", { bbox: dock[2]?.bbox });
    expectGesture(messages, "changed");
    expect(sim.truth().app).toBe("messages");
    const thread = await call("tap", { bbox: find(messages, "Alex Chen").bbox });
    expectGesture(thread, "changed");
    const menu = await call("long_press", { bbox: find(thread, "iMessage").bbox });
    expectGesture(menu, "changed");
    const pasted = await call("tap", { bbox: find(menu, "Paste").bbox });
    expectGesture(pasted, "changed");
    const typed = rows(pasted).some((r) => loose(r.label).includes(loose(MESSAGE)));
    expect(typed, pasted.texts.join("\n")).toBe(true);
    const sent = await call("tap", { bbox: find(pasted, "Send").bbox });
    expectGesture(sent, "changed");
    const bubbles = sim.truth().elements.filter((e) => e.id.startsWith("messages.bubble."));
    // On failure: what the tap hit (the listing it aimed from, the result) and what the phone shows.
    const why = [...pasted.texts.slice(-1), ...sent.texts, sim.truth().state].join("\n");
    expect(bubbles.at(-1)?.label, why).toBe(MESSAGE);
    const back = await call("go_back");
    expectGesture(back, "changed");
    expect(sim.truth().state).toContain("thread list");
  }, 90_000);

  it("the passcode never appears in a result or a log line", () => {
    expect(allTexts.length).toBeGreaterThan(20);
    for (const text of allTexts) expect(text).not.toContain(PASSCODE);
    expect(sim.logLines.length).toBeGreaterThan(20);
    for (const line of sim.logLines) expect(line).not.toContain(PASSCODE);
  });
});
