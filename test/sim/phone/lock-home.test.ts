import { describe, expect, it } from "vitest";
import { SimPhone } from "../../../src/sim/phone/index.js";
import { ManualClock } from "../../../src/util/clock.js";
import { centreMm, el, fonts, makePhone, PASSCODE } from "./helpers.js";

describe("lock screen and passcode", () => {
  it("swipe up shows the keypad; a wrong code shakes and clears; the right code unlocks to home", () => {
    const { phone, finger, clock } = makePhone();
    expect(phone.truth()).toMatchObject({ screen: "lock", locked: true, screenOn: true });
    finger.homeSwipe();
    const t = phone.truth();
    expect(t.screen).toBe("passcode");
    for (const d of "0123456789")
      expect(t.elements.some((e) => e.id === `passcode.key.${d}` && e.label === d)).toBe(true);
    expect(el(phone, "passcode.title").label).toBe("Enter Passcode");

    for (const d of "1111".slice(0, 3)) finger.tapId(`passcode.key.${d}`);
    expect(el(phone, "passcode.dots").label).toBe("3/4");
    const before = el(phone, "passcode.title").box;
    // Tap the last digit and look within the shake animation.
    const key = centreMm(phone, el(phone, "passcode.key.1"));
    const t0 = clock.now();
    clock.set(t0);
    phone.touch({ type: "down", xMm: key.x, yMm: key.y, tMs: t0 });
    clock.set(t0 + 50);
    phone.touch({ type: "up", xMm: key.x, yMm: key.y, tMs: t0 + 50 });
    clock.set(t0 + 80);
    const shaking = phone.truth();
    expect(shaking.state).toContain("wrong passcode (shaking)");
    expect(shaking.locked).toBe(true);
    expect(el(phone, "passcode.dots").label).toBe("0/4");
    expect(el(phone, "passcode.title").box[0]).not.toBeCloseTo(before[0], 4);
    clock.advance(1000);
    expect(phone.truth().state).not.toContain("shaking");
    expect(el(phone, "passcode.title").box).toEqual(before);

    for (const d of PASSCODE) finger.tapId(`passcode.key.${d}`);
    expect(phone.truth()).toMatchObject({ screen: "home", locked: false, app: null });
  });

  it("Delete removes a digit and Cancel returns to the lock screen", () => {
    const { phone, finger } = makePhone();
    finger.homeSwipe();
    expect(el(phone, "passcode.cancel").label).toBe("Cancel");
    finger.tapId("passcode.key.2");
    finger.tapId("passcode.key.5");
    finger.tapId("passcode.delete");
    expect(el(phone, "passcode.dots").label).toBe("1/4");
    finger.tapId("passcode.delete");
    finger.tapId("passcode.cancel");
    expect(phone.truth().screen).toBe("lock");
  });

  it("never reveals the passcode in truth, errors or the object's enumerable state", () => {
    const secret = "914273";
    const clock = new ManualClock();
    const phone = new SimPhone({ clock, fonts, locale: "en", passcode: secret });
    expect(JSON.stringify(phone.truth())).not.toContain(secret);
    expect(JSON.stringify(phone)).not.toContain(secret);
    try {
      new SimPhone({ clock, fonts, locale: "en", passcode: "12a4" });
      expect.unreachable();
    } catch (err) {
      expect(String(err)).not.toContain("12a4");
      expect(JSON.stringify(err)).not.toContain("12a4");
    }
  });

  it("side button sleeps and locks; tap wakes to the lock screen; auto-lock turns the screen off", () => {
    const { phone, finger, clock } = makePhone({ autoLockMs: 30_000 });
    finger.unlock(PASSCODE);
    phone.pressSideButton();
    expect(phone.truth()).toMatchObject({ screen: "off", screenOn: false, locked: true, elements: [] });
    finger.tap({ x: 30, y: 70 });
    expect(phone.truth().screen).toBe("lock");
    finger.unlock(PASSCODE);
    clock.advance(29_000);
    expect(phone.truth().screen).toBe("home");
    finger.tap({ x: 30, y: 130 }); // activity resets the auto-lock countdown
    clock.advance(29_000);
    expect(phone.truth().screen).toBe("home");
    clock.advance(2_000);
    expect(phone.truth()).toMatchObject({ screen: "off", locked: true });
    phone.pressSideButton();
    expect(phone.truth().screen).toBe("lock");
  });
});

describe("home screen", () => {
  it("has ≥12 labelled icons in a 4-column grid plus a dock of 4", () => {
    const { phone, finger } = makePhone();
    finger.unlock(PASSCODE);
    const els = phone.truth().elements;
    const icons = els.filter((e) => e.kind === "icon" && e.id.startsWith("home.icon."));
    const labels = els.filter((e) => e.id.startsWith("home.label."));
    expect(icons.length).toBeGreaterThanOrEqual(16);
    expect(labels.length).toBeGreaterThanOrEqual(12);
    const columns = new Set(icons.map((e) => e.box[0].toFixed(3)));
    expect(columns.size).toBe(4);
    const dock = icons.filter((e) => !labels.some((l) => l.id === e.id.replace("icon", "label")));
    expect(dock.map((e) => e.label)).toEqual(["Phone", "Safari", "Messages", "Music"]);
  });

  it("tapping the true centre of Clock opens it; a tap 8 mm off onto empty space does not", () => {
    const { phone, finger } = makePhone();
    finger.unlock(PASSCODE);
    const clockIcon = el(phone, "home.icon.clock");
    const c = centreMm(phone, clockIcon);
    const { width, height } = phone.geometry.glassMm;
    const inside = (p: { x: number; y: number }) =>
      phone
        .truth()
        .elements.some(
          (e) =>
            p.x >= e.box[0] * width &&
            p.x <= e.box[2] * width &&
            p.y >= e.box[1] * height &&
            p.y <= e.box[3] * height,
        );
    const off = [
      { x: c.x + 8, y: c.y },
      { x: c.x - 8, y: c.y },
      { x: c.x, y: c.y - 8 },
      { x: c.x, y: c.y + 8 },
    ].find((p) => !inside(p));
    expect(off).toBeDefined();
    if (!off) return;
    finger.tap(off);
    expect(phone.truth()).toMatchObject({ screen: "home", app: null });
    finger.tap(c);
    expect(phone.truth()).toMatchObject({ screen: "app", app: "clock" });
    expect(phone.truth().elements.some((e) => e.id === "clock.tab.timer")).toBe(true);
  });

  it("a horizontal swipe changes page and the home gesture returns to page 1", () => {
    const { phone, finger } = makePhone();
    finger.unlock(PASSCODE);
    finger.swipe({ x: 55, y: 60 }, { x: 15, y: 61 });
    expect(phone.truth().state).toContain("page 2 of 2");
    expect(phone.truth().elements.some((e) => e.id === "home.icon.compass")).toBe(true);
    finger.homeSwipe();
    expect(phone.truth().state).toContain("page 1 of 2");
  });
});
