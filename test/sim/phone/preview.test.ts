import { writeFileSync } from "node:fs";
import { it } from "vitest";
import { makePhone, PASSCODE } from "./helpers.js";

it("preview", async () => {
  const { phone, finger, clock } = makePhone();
  let t = performance.now();
  writeFileSync("/tmp/lock.png", await phone.screenshot());
  console.log("lock", performance.now() - t);
  finger.homeSwipe();
  finger.tapId("passcode.key.2");
  writeFileSync("/tmp/passcode.png", await phone.screenshot());
  for (const d of PASSCODE.slice(1)) finger.tapId(`passcode.key.${d}`);
  t = performance.now();
  writeFileSync("/tmp/home.png", await phone.screenshot());
  console.log("home", performance.now() - t, phone.truth().state);
  finger.tapId("home.icon.clock");
  finger.tapId("clock.tab.timer");
  writeFileSync("/tmp/timer.png", await phone.screenshot());
  finger.tapId("clock.timer.start");
  clock.advance(2000);
  console.log(phone.truth().state);
  writeFileSync("/tmp/timer2.png", await phone.screenshot());
  finger.homeSwipe(500);
  console.log(phone.truth().state);
  writeFileSync("/tmp/switcher.png", await phone.screenshot());
});
