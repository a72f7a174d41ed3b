import { describe, expect, it } from "vitest";
import { grblAlarm, grblError, grblErrorMeaning } from "../../../src/rig/grbl/codes.js";
import { findPortByUsbId } from "../../../src/rig/grbl/port.js";
import { programToGcode } from "../../../src/rig/grbl/program.js";
import { gnum, parseGrblLine } from "../../../src/rig/grbl/protocol.js";
import { CharCountingStreamer } from "../../../src/rig/grbl/streamer.js";
import { fluidncProfile } from "./helpers.js";

describe("GRBL line parsing", () => {
  it("classifies replies, reports and banners", () => {
    expect(parseGrblLine("ok\r")).toEqual({ kind: "ok" });
    expect(parseGrblLine("error:15")).toEqual({ kind: "error", code: 15 });
    expect(parseGrblLine("ALARM:9")).toEqual({ kind: "alarm", code: 9 });
    expect(parseGrblLine("[MSG:Reset to continue]")).toEqual({ kind: "msg", text: "Reset to continue" });
    expect(parseGrblLine("[GC:G0 G54 G17 G21 G90 G94 M5 M9 T0 F0 S0]")).toMatchObject({ kind: "gc" });
    expect(parseGrblLine("Grbl 1.1h ['$' for help]")).toMatchObject({
      kind: "banner",
      version: "1.1h",
      fluidnc: false,
    });
    expect(parseGrblLine("Grbl 3.7 [FluidNC v3.7.8 (wifi) '$' for help]")).toMatchObject({
      kind: "banner",
      fluidnc: true,
    });
    const status = parseGrblLine("<Hold:0|MPos:1.000,-2.500,0.000|FS:0,750|WCO:-200.000,-195.000,0.000|A:S>");
    expect(status).toEqual({
      kind: "status",
      report: {
        state: "Hold",
        subState: 0,
        mpos: { x: 1, y: -2.5, z: 0 },
        wco: { x: -200, y: -195, z: 0 },
        feed: 0,
        spindle: 750,
        accessories: "S",
      },
    });
    expect(parseGrblLine("<Idle|WPos:10.000,20.000,0.000|FS:0,0>")).toMatchObject({
      report: { state: "Idle", wpos: { x: 10, y: 20, z: 0 } },
    });
  });

  it("formats numbers compactly for the 127-byte buffer", () => {
    expect(gnum(10)).toBe("10");
    expect(gnum(10.12349)).toBe("10.123");
    expect(gnum(-0.0001)).toBe("0");
    expect(gnum(1e-9)).toBe("0");
  });
});

describe("GRBL codes", () => {
  it("names error and alarm meanings", () => {
    expect(grblErrorMeaning(15)).toMatch(/travel exceeds machine travel \(soft limit\)/);
    for (let code = 1; code <= 38; code++) expect(grblErrorMeaning(code)).not.toMatch(/unknown/);
    expect(grblError(22, "G1 X1")).toMatchObject({ code: "MOTION_GRBL_ERROR", details: { grblCode: 22 } });
    expect(grblAlarm(1).details.meaning).toMatch(/hard limit triggered/);
    expect(grblAlarm(2).details.meaning).toMatch(/soft limit/);
    expect(grblAlarm(3).details.meaning).toMatch(/reset while in motion/);
    expect(grblAlarm(9).details.meaning).toMatch(/homing fail: limit switch not found/);
  });
});

describe("program translation", () => {
  it("turns a tap into G0, strike/hold M3 with a strike dwell, M5 and the closing barrier", () => {
    const profile = fluidncProfile();
    const lines = programToGcode(
      [
        { kind: "travel", to: { xMm: 100.5, yMm: 50 } },
        { kind: "stylus", down: true },
        { kind: "feed", to: { xMm: 100.5, yMm: 70 }, feedMmPerMin: 6000 },
        { kind: "dwell", ms: 80 },
        { kind: "stylus", down: false },
      ],
      profile,
    ).map((l) => l.line);
    expect(lines).toEqual([
      "G0 X100.5 Y50",
      "M3 S1000",
      "G4 P0.05", // GRBL dwells in 50 ms steps: the 30 ms strike is 50 ms, so write what really happens
      "M3 S750",
      "G1 X100.5 Y70 F6000",
      "G4 P0.1",
      "M5",
      "G4 P0",
    ]);
  });
});

describe("character-counting streamer", () => {
  it("never has more than 127 bytes unacknowledged and sends in order", async () => {
    const written: string[] = [];
    let inFlight = 0;
    let max = 0;
    const s = new CharCountingStreamer((data) => {
      written.push(data);
      inFlight += data.length;
      max = Math.max(max, inFlight);
    });
    const lines = Array.from({ length: 40 }, (_, i) => `G0 X${i}.123 Y${i}.456`);
    const done = lines.map((l) => s.send(l));
    expect(s.inFlightBytes).toBeLessThanOrEqual(127);
    // Play GRBL: acknowledge the oldest line; the streamer tops the buffer up again.
    while (!s.idle) {
      const oldest = written.shift();
      if (oldest === undefined) throw new Error("streamer stalled with lines waiting");
      inFlight -= oldest.length;
      s.ok();
    }
    await Promise.all(done);
    expect(max).toBeLessThanOrEqual(127);
    expect(s.maxInFlight).toBeGreaterThan(100);
  });

  it("rejects a line on error:N and everything on clear()", async () => {
    const s = new CharCountingStreamer(() => undefined);
    const a = s.send("G0 X1");
    const b = s.send("G0 X2");
    s.error(20);
    await expect(a).rejects.toMatchObject({ code: "MOTION_GRBL_ERROR", details: { grblCode: 20 } });
    s.clear(new Error("reset"));
    await expect(b).rejects.toThrow("reset");
    expect(s.inFlightBytes).toBe(0);
  });
});

describe("USB detection", () => {
  it("finds the port by vendor:product id, case-insensitively", async () => {
    const list = async () => [
      { path: "/dev/ttyAMA0" },
      { path: "/dev/ttyUSB0", vendorId: "1A86", productId: "7523" },
    ];
    expect(await findPortByUsbId(["1a86:7523"], list)).toBe("/dev/ttyUSB0");
    await expect(findPortByUsbId(["303a:1001"], list)).rejects.toMatchObject({
      code: "MOTION_PORT_NOT_FOUND",
    });
  });
});
