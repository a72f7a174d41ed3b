import {
  closeSync,
  constants,
  existsSync,
  mkdtempSync,
  openSync,
  readSync,
  realpathSync,
  writeSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { hasSocat, openPtyPair } from "../../../src/sim/gantry/pty-pair.js";

/** Read from a non-blocking `fd` until `want` characters arrived (or ~2 s passed). */
async function readSome(fd: number, want: number): Promise<string> {
  const buf = Buffer.alloc(256);
  let out = "";
  for (let i = 0; i < 100 && out.length < want; i++) {
    try {
      const n = readSync(fd, buf, 0, buf.length, null);
      out += buf.toString("utf8", 0, n);
    } catch {
      await new Promise((r) => setTimeout(r, 20));
    }
  }
  return out;
}

// socat is optional (CI installs it); the python3 relay is always there.
describe.each(hasSocat() ? (["socat", "python3"] as const) : (["python3"] as const))(
  "pty pair via %s",
  (via) => {
    it("carries bytes both ways in raw mode and vanishes when closed", async () => {
      const dir = mkdtempSync(join(tmpdir(), "piclaw-pty-"));
      const pair = await openPtyPair({ prefer: via, linkA: join(dir, "host"), linkB: join(dir, "dev") });
      try {
        expect(pair.via).toBe(via);
        expect(realpathSync(join(dir, "dev"))).toBe(pair.b);
        // Non-blocking, so a read with nothing to read fails (EAGAIN) instead of hanging the test.
        const flags = constants.O_RDWR | constants.O_NOCTTY | constants.O_NONBLOCK;
        const fa = openSync(pair.a, flags);
        const fb = openSync(pair.b, flags);
        try {
          writeSync(fa, "$I\n?");
          expect(await readSome(fb, 4)).toBe("$I\n?");
          writeSync(fb, "ok\r\n");
          expect(await readSome(fa, 4)).toBe("ok\r\n");
        } finally {
          closeSync(fa);
          closeSync(fb);
        }
      } finally {
        await pair.close();
      }
      expect(pair.process.exitCode !== null || pair.process.signalCode !== null).toBe(true);
      expect(existsSync(join(dir, "dev"))).toBe(false);
    });
  },
);
