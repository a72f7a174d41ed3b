import sharp from "sharp";
import { describe, expect, it } from "vitest";
import type { PhoneIo } from "../../src/tools/phone-io.js";

/** What a PhoneIo under test comes with: a way to read back what reached the phone. */
export interface PhoneIoHarness {
  io: PhoneIo;
  /** The phone's clipboard as the phone itself has it. */
  clipboard(): Promise<string | null>;
  /** The phone's screen size in pixels. */
  screenPx: { width: number; height: number };
  close?(): Promise<void>;
}

/** The PhoneIo contract, for the simulated rig's implementation and the real bridge alike. */
export function phoneIoContract(name: string, make: () => Promise<PhoneIoHarness>): void {
  describe(`PhoneIo contract: ${name}`, () => {
    it("setClipboard resolves once the text is on the phone's clipboard (any script, long text)", async () => {
      const h = await make();
      try {
        for (const text of ["hello", "你好，世界 👋", "x".repeat(2000)]) {
          await h.io.setClipboard(text);
          expect(await h.clipboard()).toBe(text);
        }
      } finally {
        await h.close?.();
      }
    });

    it("screenshot returns a PNG or JPEG of exactly the screen's pixels", async () => {
      const h = await make();
      try {
        const meta = await sharp(await h.io.screenshot()).metadata();
        expect(["png", "jpeg"]).toContain(meta.format);
        expect({ width: meta.width, height: meta.height }).toEqual(h.screenPx);
      } finally {
        await h.close?.();
      }
    });
  });
}
