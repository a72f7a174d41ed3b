import { describe, expect, it } from "vitest";
import { centreMm, el, makePhone, PASSCODE } from "./helpers.js";

function inThread(opts: Parameters<typeof makePhone>[0] = {}) {
  const p = makePhone(opts);
  p.finger.unlock(PASSCODE);
  p.finger.tapId("home.icon.messages");
  p.finger.tapId("messages.thread.t0");
  return p;
}

const has = (phone: ReturnType<typeof makePhone>["phone"], id: string) =>
  phone.truth().elements.some((e) => e.id === id);

describe("the on-screen keyboard", () => {
  it("appears when the compose field is tapped and types what its keys say", () => {
    const { phone, finger } = inThread();
    expect(has(phone, "key.q")).toBe(false);
    expect(phone.truth().input).toBeNull();
    finger.tapId("messages.field");
    // A sentence starts with a capital: the keys show capitals until one is typed.
    expect(el(phone, "key.Q").label).toBe("Q");
    for (const id of ["key.O", "key.n", "key.space", "key.m", "key.y"]) finger.tapId(id);
    expect(phone.truth().input).toEqual({ field: "messages.field", text: "On my" });
    // Shift makes the next letter a capital, then the keys go back to lower case.
    finger.tapId("key.shift");
    finger.tapId("key.W");
    finger.tapId("key.a");
    expect(phone.truth().input?.text).toBe("On myWa");
    finger.tapId("key.delete");
    finger.tapId("key.delete");
    // The 123 page: digits and punctuation; a space brings the letters back.
    finger.tapId("key.space");
    finger.tapId("key.123");
    expect(has(phone, "key.q")).toBe(false);
    finger.tapId("key.7");
    finger.tapId("key.#+=");
    finger.tapId("key.%");
    finger.tapId("key.123");
    finger.tapId("key.!");
    finger.tapId("key.ABC");
    expect(has(phone, "key.q")).toBe(true);
    expect(phone.truth().input?.text).toBe("On my 7%!");
    finger.tapId("messages.send");
    expect(phone.truth().sent).toEqual([{ to: "Mom", text: "On my 7%!" }]);
    // Sending keeps the keyboard up with an empty field; back closes the thread and the keyboard.
    expect(phone.truth().input).toEqual({ field: "messages.field", text: "" });
    finger.tapId("nav.back");
    expect(phone.truth().input).toBeNull();
    expect(has(phone, "key.space")).toBe(false);
  });

  it("a double tap on shift locks capitals until shift is tapped again", () => {
    const { phone, finger } = inThread();
    finger.tapId("messages.field");
    finger.tapId("key.H");
    finger.doubleTap(centreMm(phone, el(phone, "key.shift")));
    finger.tapId("key.I");
    finger.tapId("key.J");
    finger.tapId("key.shift");
    finger.tapId("key.k");
    expect(phone.truth().input?.text).toBe("HIJk");
  });

  it("sits at the bottom of the screen with 10 keys across, on an English and a Chinese phone", () => {
    for (const locale of ["en", "zh"] as const) {
      const { phone, finger } = inThread({ locale });
      finger.tapId("messages.field");
      const q = el(phone, "key.Q").box;
      const p = el(phone, "key.P").box;
      const space = el(phone, "key.space").box;
      // Key pitch = a tenth of the width; the space bar spans 2.45–7.55 pitches.
      expect((p[0] + p[2]) / 2 - (q[0] + q[2]) / 2).toBeCloseTo(0.9, 2);
      expect(space[0]).toBeCloseTo(0.245, 2);
      expect(space[2]).toBeCloseTo(0.755, 2);
      expect(q[1]).toBeGreaterThan(0.6);
      // The input bar moved up above the keys.
      expect(el(phone, "messages.field").box[3]).toBeLessThan(q[1]);
    }
  });

  it("is light on a light phone and dark in Dark Mode", async () => {
    const shades: number[] = [];
    for (const dark of [false, true]) {
      const { phone, finger } = makePhone();
      finger.unlock(PASSCODE);
      if (dark) {
        finger.tapId("home.icon.settings");
        finger.swipe({ x: 30, y: 110 }, { x: 30, y: 60 }, { durationMs: 1500, steps: 30 });
        finger.tapId("settings.toggle.darkMode");
        finger.homeSwipe();
      }
      finger.tapId("home.icon.messages");
      finger.tapId("messages.thread.t0");
      finger.tapId("messages.field");
      const img = await phone.renderScreen();
      // The keyboard's background in the gap between the QuickType bar and the first row of keys.
      const q = el(phone, "key.Q").box;
      const x = Math.round(0.5 * img.width);
      const y = Math.round((q[1] - 0.004) * img.height);
      shades.push(img.data[(y * img.width + x) * img.channels] ?? -1);
    }
    expect(shades[0]).toBeGreaterThan(180);
    expect(shades[1]).toBeLessThan(70);
  });
});

describe("the Phone app's keypad", () => {
  it("dials by taps, shows the number and places the call; an empty call button recalls it", () => {
    const { phone, finger } = makePhone();
    finger.unlock(PASSCODE);
    finger.tapId("home.icon.phone");
    expect(phone.truth().dialled).toBe("");
    for (const d of "5550199") finger.tapId(`phone.key.${d}`);
    finger.tapId("phone.key.8");
    finger.tapId("phone.delete");
    expect(phone.truth().dialled).toBe("5550199");
    expect(el(phone, "phone.number").label).toBe("5550199");
    finger.tapId("phone.call");
    expect(phone.truth().call).toEqual({ number: "5550199" });
    expect(phone.truth().state).toBe("Phone: calling 5550199");
    expect(el(phone, "call.number").label).toBe("5550199");
    finger.tapId("call.end");
    expect(phone.truth().call).toBeNull();
    expect(phone.truth().calls).toEqual(["5550199"]);
    finger.tapId("phone.call");
    expect(phone.truth().dialled).toBe("5550199");
  });

  it("lays the keys out on iOS's pitch with * and # beside 0 and the call button under 0", () => {
    const { phone, finger } = makePhone({ locale: "zh" });
    finger.unlock(PASSCODE);
    finger.tapId("home.icon.phone");
    const c = (id: string) => {
      const b = el(phone, id).box;
      return { x: (b[0] + b[2]) / 2, y: (b[1] + b[3]) / 2 };
    };
    expect(c("phone.key.2").x - c("phone.key.1").x).toBeCloseTo(102 / 390, 3);
    expect(c("phone.key.4").y - c("phone.key.1").y).toBeCloseTo(90 / 844, 3);
    expect(c("phone.key.*").y).toBeCloseTo(c("phone.key.0").y, 5);
    expect(c("phone.call").x).toBeCloseTo(c("phone.key.0").x, 5);
    expect(c("phone.call").y - c("phone.key.0").y).toBeCloseTo(90 / 844, 3);
  });
});
