import { afterEach, describe, expect, it } from "vitest";
import { openSerialPort, type SerialLink } from "../../../src/rig/grbl/port.js";
import type { RigProfile } from "../../../src/rig/profile.js";
import { eepromConfiguredFor, type GrblEeprom } from "../../../src/sim/gantry/grbl-eeprom.js";
import { type SimGrblLink, startSimGrblLink } from "../../../src/sim/gantry/grbl-link.js";
import { fluidncProfile, quietLog, recordingGantry, sleep, until } from "../../rig/grbl/helpers.js";

/** A bare terminal on the host end: raw lines in, raw bytes out — no driver logic. */
class Terminal {
  lines: string[] = [];
  private buf = "";
  constructor(readonly port: SerialLink) {
    port.onData((c) => {
      this.buf += c.toString("latin1");
      let nl = this.buf.indexOf("\n");
      while (nl >= 0) {
        this.lines.push(this.buf.slice(0, nl).replace(/\r$/, ""));
        this.buf = this.buf.slice(nl + 1);
        nl = this.buf.indexOf("\n");
      }
    });
  }
  send(text: string): void {
    this.port.write(text, () => undefined);
  }
  /** Send a line and collect replies until its `ok` / `error:N` / `ALARM:N`. */
  async command(line: string, timeoutMs = 3000): Promise<string[]> {
    const from = this.lines.length;
    this.send(`${line}\n`);
    await until(
      () => this.lines.slice(from).some((l) => /^(ok|error:\d+|ALARM:\d+)$/.test(l)),
      `reply to ${line}`,
      timeoutMs,
    );
    return this.lines.slice(from);
  }
  async status(): Promise<string> {
    const from = this.lines.length;
    this.send("?");
    await until(() => this.lines.slice(from).some((l) => l.startsWith("<")), "status");
    return this.lines.slice(from).find((l) => l.startsWith("<")) ?? "";
  }
}

let link: SimGrblLink | null = null;
let port: SerialLink | null = null;
afterEach(async () => {
  await port?.close();
  await link?.stop();
  port = null;
  link = null;
});

/** Boot a board (configured for the profile unless `eeprom` says otherwise) and reset it once. */
async function boot(profile: RigProfile, eeprom: GrblEeprom = eepromConfiguredFor(profile)) {
  const rec = recordingGantry(profile);
  link = await startSimGrblLink({ gantry: rec.gantry, profile, log: quietLog, eeprom });
  port = await openSerialPort(link.devicePath, 115200);
  const term = new Terminal(port);
  term.send("\x18");
  await until(() => term.lines.some((l) => l.startsWith("Grbl 1.1h")), "banner");
  // The power-on banner may also still sit in the pty, and a fixed 50 ms wait for both was too short
  // at load ~20 (a stray line then answered the first command). Replies come in order: once $I is
  // answered (its [VER:…] and the ok after it), everything sent before it is in. Then a clean slate.
  term.send("$I\n");
  await until(() => {
    const ver = term.lines.findIndex((l) => l.startsWith("[VER:"));
    return ver >= 0 && term.lines.slice(ver).includes("ok");
  }, "the reply to $I");
  term.lines.length = 0;
  return { ...rec, term, sim: link.sim };
}

describe("GRBL simulator over a pty", () => {
  it("answers $I, $$ and status from a board configured for the profile", async () => {
    const { term } = await boot(fluidncProfile());
    expect(await term.command("$I")).toEqual(["[VER:1.1h.20190825:]", "[OPT:VC,15,128]", "ok"]);
    const settings = await term.command("$$");
    expect(settings).toContain("$110=30000");
    expect(settings).toContain("$130=200");
    expect(settings).toContain("$22=0");
    expect(await term.status()).toMatch(/^<Idle\|MPos:0\.000,0\.000,0\.000\|FS:0,0/);
  });

  it("moves in work coordinates after G92 and energises only after motion ends", async () => {
    const profile = fluidncProfile();
    const { term, gantry, stylus } = await boot(profile);
    expect(await term.command("G92 X200 Y195")).toEqual(["ok"]);
    const t0 = Date.now();
    term.send("G0 X150 Y150\nM3 S1000\nG4 P0.05\nM5\n");
    await until(() => term.lines.filter((l) => l === "ok").length >= 5, "4 oks");
    expect(Date.now() - t0).toBeGreaterThan(50);
    const p = gantry.positionAt();
    expect(p.xMm).toBeCloseTo(150, 3);
    expect(p.yMm).toBeCloseTo(150, 3);
    expect(stylus.map((s) => s.down)).toEqual([true, false]);
    const [down, up] = stylus;
    expect(down?.atMs).toBeGreaterThanOrEqual(down?.motionEndMs ?? Number.POSITIVE_INFINITY);
    expect((up?.atMs ?? 0) - (down?.atMs ?? 0)).toBeGreaterThanOrEqual(49);
    expect(await term.status()).toMatch(/MPos:-50\.000,-45\.000/);
  });

  it("rejects bad lines with GRBL's codes", async () => {
    const { term } = await boot(fluidncProfile());
    expect(await term.command("G0 X1.2.3")).toContain("error:1");
    expect(await term.command("G0 Xabc")).toContain("error:2");
    expect(await term.command("G7")).toContain("error:20");
    expect(await term.command("G0 G1 X1")).toContain("error:21");
    expect(await term.command("$H")).toContain("error:5");
    expect(await term.command("$Q")).toContain("error:3");
    expect(await term.command("G1 X5")).toContain("error:22");
  });

  it("homes against the switches when the profile has endstops, then enforces soft limits", async () => {
    const profile = fluidncProfile((p) => {
      p.homing.endstops = true;
      p.homing.seekFeedMmPerMin = 6000;
      p.park = { xMm: 20, yMm: 15 };
    });
    const { term, gantry } = await boot(profile);
    expect(await term.command("G0 X1")).toContain("error:9");
    expect(await term.command("$H", 5000)).toEqual(["ok"]);
    expect(gantry.positionAt().xMm).toBeCloseTo(2, 3);
    // Machine space is negative after homing (limits.c): −$130 + pull-off at the switch side.
    expect(await term.status()).toMatch(/^<Idle\|MPos:-198\.000,-198\.000/);
    const from = term.lines.length;
    expect((await term.command("G0 X1"))[0]).toBe("ALARM:2"); // MPos > 0 is outside −200…0
    // GRBL follows the alarm with a message line, which may arrive in a later read.
    await until(() => term.lines.length > from + 1, "the alarm's message line");
    expect(term.lines.slice(from)).toEqual(["ALARM:2", "[MSG:Reset to continue]"]);
    // The critical-event loop answers neither `?` nor lines, and ignores a reset for ~500 ms.
    term.send("?G0 X-5\n\x18");
    await sleep(300);
    expect(term.lines.slice(from + 2)).toEqual([]);
    await sleep(300);
    term.send("\x18");
    await until(() => term.lines.some((l) => l.startsWith("Grbl 1.1h")), "banner after the reset");
    await sleep(30);
    expect(term.lines.slice(from + 2)).toEqual([
      "ok",
      "",
      "Grbl 1.1h ['$' for help]",
      "[MSG:'$H'|'$X' to unlock]",
    ]);
    expect(await term.status()).toMatch(/^<Alarm/);
    expect(gantry.positionAt().xMm).toBeCloseTo(2, 3);
  });

  it("stalls at the frame with soft limits off and raises ALARM:1", async () => {
    const profile = fluidncProfile((p) => {
      p.park = { xMm: 190, yMm: 100 };
    });
    const { term, gantry } = await boot(profile);
    const reply = await term.command("G0 X20");
    expect(reply).toEqual(["ok"]);
    await until(() => term.lines.includes("ALARM:1"), "ALARM:1");
    expect(gantry.positionAt().xMm).toBeCloseTo(200, 3);
  });

  it("feed hold stops in a controlled way, resume completes; reset mid-move gives ALARM:3", async () => {
    const profile = fluidncProfile((p) => {
      p.maxRateMmPerMin = { x: 3000, y: 3000 };
    });
    const { term, gantry } = await boot(profile);
    term.send("G91 G0 X-20\n"); // 20 mm at 50 mm/s ≈ 0.4 s
    await sleep(120);
    term.send("!");
    // Hold:1 while decelerating, Hold:0 once at rest (GRBL 1.1 interface docs); the deceleration takes
    // ~50 ms of sim time, but a loaded machine delivers the pty's bytes late: poll, bounded.
    let status = await term.status();
    for (let i = 0; i < 100 && !/^<Hold:0/.test(status); i++) {
      await sleep(20);
      status = await term.status();
    }
    expect(status).toMatch(/^<Hold:0/);
    const held = gantry.positionAt().xMm;
    await sleep(100);
    expect(gantry.positionAt().xMm).toBe(held);
    term.send("~");
    await until(() => !gantry.isMoving() && gantry.positionAt().xMm < 180.01, "resumed move");
    expect(gantry.positionAt().xMm).toBeCloseTo(180, 3);
    term.send("G0 X-20\n");
    await sleep(100);
    term.send("\x18");
    await until(() => term.lines.includes("ALARM:3"), "ALARM:3");
    expect(gantry.isMoving()).toBe(false);
    expect(await term.status()).toMatch(/^<Alarm/);
    expect(await term.command("G0 X1")).toContain("error:9");
    expect(await term.command("$X")).toEqual(["[MSG:Caution: Unlocked]", "ok"]);
  });

  it("detects a host that ignores flow control (the check the back-end's streaming test relies on)", async () => {
    const { term, sim } = await boot(fluidncProfile());
    // 40 short moves at once: ~600 bytes, far beyond the 127-byte RX buffer while the planner is busy.
    term.send(Array.from({ length: 40 }, (_, i) => `G0 X-${i % 2}.5 Y-${i}\n`).join(""));
    await sleep(200);
    expect(sim.stats.maxUnackedBytes).toBeGreaterThan(127);
    expect(sim.stats.rxOverflows).toBeGreaterThan(0);
  });
});
