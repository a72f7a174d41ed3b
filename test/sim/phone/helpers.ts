import { FontBook } from "../../../src/shared/fonts.js";
import { Finger } from "../../../src/sim/phone/finger.js";
import { SimPhone, type SimPhoneOptions } from "../../../src/sim/phone/index.js";
import { ManualClock } from "../../../src/util/clock.js";

/** One FontBook per test file: loading the CJK subsets is the slow part. */
export const fonts = new FontBook();

export const PASSCODE = "2580";

export function makePhone(opts: Partial<SimPhoneOptions> = {}): {
  phone: SimPhone;
  clock: ManualClock;
  finger: Finger;
} {
  const clock = new ManualClock();
  const phone = new SimPhone({ clock, fonts, locale: "en", passcode: PASSCODE, ...opts });
  return { phone, clock, finger: new Finger(phone, clock) };
}

export { centreMm, el, Finger } from "../../../src/sim/phone/finger.js";
