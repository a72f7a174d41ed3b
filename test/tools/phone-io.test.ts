import { FontBook } from "../../src/shared/fonts.js";
import { SimPhone } from "../../src/sim/phone/index.js";
import { SimPhoneIo } from "../../src/tools/phone-io.js";
import { ManualClock } from "../../src/util/clock.js";
import { phoneIoContract } from "./phone-io.contract.js";

phoneIoContract("SimPhoneIo (simulated phone)", async () => {
  const phone = new SimPhone({
    clock: new ManualClock(),
    fonts: new FontBook(),
    locale: "en",
    passcode: "2468",
  });
  return {
    io: new SimPhoneIo({ phone, screenshot: () => phone.screenshot() }),
    clipboard: async () => phone.clipboard,
    screenPx: phone.geometry.screenPx,
  };
});
