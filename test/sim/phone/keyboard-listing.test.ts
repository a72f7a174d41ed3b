import { describe, expect, it } from "vitest";
import type { SimPhone } from "../../../src/sim/phone/index.js";
import { defaultVisionStack } from "../../vision/vision-stack.js";
import { makePhone, PASSCODE } from "./helpers.js";

/**
 * The sim's keyboard and keypad must look like the real ones: the product's listing (which recognises
 * real iOS keyboards and dial pads from OCR anchors) reads them key by key from a screenshot.
 */
describe("the listing reads the simulated keyboard and keypad", () => {
  const vision = defaultVisionStack();

  const keyRows = async (phone: SimPhone): Promise<string[]> => {
    const view = await vision().pipeline.fromScreenshot(await phone.screenshot());
    return view.entries.filter((e) => e.kind === "key").map((e) => e.label);
  };

  // Light only: on the dark keyboard (white caps on #6b6b6b) today's OCR reads two or three letters,
  // too few anchors for the keyboard fit (measured 2026-11-27; a vision matter, see the report).
  it("lists a key row for every letter, space, return, delete, shift and 123", async () => {
    const { phone, finger } = makePhone();
    finger.unlock(PASSCODE);
    finger.tapId("home.icon.messages");
    finger.tapId("messages.thread.t0");
    finger.tapId("messages.field");
    finger.tapId("key.H");
    finger.tapId("key.i"); // lower-case keys from here on
    const keys = await keyRows(phone);
    for (const ch of "abcdefghijklmnopqrstuvwxyz") expect(keys, ch).toContain(ch);
    for (const name of ["space", "return", "delete", "shift", "123"]) expect(keys, name).toContain(name);
  }, 120_000);

  it("lists the Phone keypad's digits, * and # and the call button", async () => {
    const { phone, finger } = makePhone();
    finger.unlock(PASSCODE);
    finger.tapId("home.icon.phone");
    const keys = await keyRows(phone);
    for (const k of ["1", "2", "3", "4", "5", "6", "7", "8", "9", "0", "*", "#"])
      expect(keys, k).toContain(k);
    const view = await vision().pipeline.fromScreenshot(await phone.screenshot());
    expect(view.entries.some((e) => e.kind === "key" && e.label === "call")).toBe(true);
  }, 120_000);
});
