import { describe, expect, it } from "vitest";
import { centreMm, el, makePhone, PASSCODE } from "./helpers.js";

function unlocked(opts: Parameters<typeof makePhone>[0] = {}) {
  const p = makePhone(opts);
  p.finger.unlock(PASSCODE);
  return p;
}

describe("Messages", () => {
  it("long-press on the text field shows Paste only when the clipboard has text", () => {
    const { phone, finger } = unlocked();
    finger.tapId("home.icon.messages");
    finger.tapId("messages.thread.t0");
    const field = centreMm(phone, el(phone, "messages.field"));
    finger.longPress(field, 700, () => {
      expect(phone.truth().elements.some((e) => e.id === "messages.paste")).toBe(false);
    });
    expect(phone.truth().state).not.toContain("paste menu");
    phone.clipboard = "See you at 7";
    // A short tap is not a long press: no menu.
    finger.tap(field);
    expect(phone.truth().elements.some((e) => e.id === "messages.paste")).toBe(false);
    // The tap focused the field: it moved up above the keyboard.
    const raised = centreMm(phone, el(phone, "messages.field"));
    expect(raised.y).toBeLessThan(field.y);
    // The menu appears while the finger is still down, as soon as the hold is long enough.
    finger.longPress(raised, 700, () => {
      expect(el(phone, "messages.paste").label).toBe("Paste");
    });
    expect(el(phone, "messages.paste").label).toBe("Paste");
  });

  it("Paste inserts the clipboard and Send appends an outgoing bubble and clears the field", () => {
    const { phone, finger } = unlocked();
    finger.tapId("home.icon.messages");
    finger.tapId("messages.thread.t0");
    const bubbles = () => phone.truth().elements.filter((e) => e.id.startsWith("messages.bubble."));
    const n = bubbles().length;
    finger.tapId("messages.send"); // empty field: nothing is sent
    expect(bubbles().length).toBe(n);
    phone.clipboard = "On my way!";
    finger.longPress(centreMm(phone, el(phone, "messages.field")));
    finger.tapId("messages.paste");
    expect(el(phone, "messages.field").label).toBe("On my way!");
    expect(phone.truth().elements.some((e) => e.id === "messages.paste")).toBe(false);
    finger.tapId("messages.send");
    const after = bubbles();
    expect(after.length).toBe(n + 1);
    const last = after[after.length - 1];
    expect(last?.label).toBe("On my way!");
    expect((last?.box[0] ?? 0) + (last?.box[2] ?? 0)).toBeGreaterThan(1); // right-aligned: outgoing
    expect(el(phone, "messages.field").label).toBe("iMessage");
  });

  it("tapping elsewhere closes the paste menu without pasting", () => {
    const { phone, finger } = unlocked();
    phone.clipboard = "x";
    finger.tapId("home.icon.messages");
    finger.tapId("messages.thread.t0");
    finger.longPress(centreMm(phone, el(phone, "messages.field")));
    finger.tap({ x: 30, y: 60 });
    expect(phone.truth().state).toContain('draft ""');
    expect(phone.truth().state).not.toContain("paste menu");
  });
});

describe("Clock timer", () => {
  it("pick minutes by swiping and tapping the wheel, start, and count down from the clock", () => {
    const { phone, finger, clock } = unlocked();
    finger.tapId("home.icon.clock");
    finger.tapId("clock.tab.timer");
    expect(el(phone, "clock.timer.picker").label).toBe("5 min");
    const wheel = centreMm(phone, el(phone, "clock.timer.picker"));
    finger.swipe({ x: wheel.x, y: wheel.y + 6 }, { x: wheel.x, y: wheel.y - 6 }, { durationMs: 400 }); // ≈ 2 rows up
    const afterSwipe = Number(el(phone, "clock.timer.picker").label.split(" ")[0]);
    expect(afterSwipe).toBeGreaterThan(5);
    while (Number(el(phone, "clock.timer.picker.value").label) < 10) finger.tapId("clock.timer.picker.row1");
    while (Number(el(phone, "clock.timer.picker.value").label) > 10) finger.tapId("clock.timer.picker.row-1");
    expect(phone.truth().state).toBe("Clock: timer tab, 10 min selected");
    finger.tapId("clock.timer.start");
    clock.advance(2000 - 350); // the helper already let 350 ms pass after the tap
    expect(phone.truth().state).toBe("Clock: timer running, 09:58 left");
    expect(el(phone, "clock.timer.remaining").label).toBe("09:58");
    finger.tapId("clock.timer.pause");
    clock.advance(60_000);
    expect(phone.truth().state).toContain("timer paused, 09:58 left");
    finger.tapId("clock.timer.resume");
    clock.advance(9 * 60_000);
    expect(phone.truth().state).toMatch(/timer running, 00:5\d left/);
    clock.advance(60_000);
    expect(phone.truth().state).toBe("Clock: timer done");
    expect(el(phone, "clock.timer.done").label).toBe("Timer Done");
    finger.tapId("clock.timer.stop");
    expect(phone.truth().state).toBe("Clock: timer tab, 10 min selected");
  });

  it("the timer keeps running on the home screen and after force-quitting Clock", () => {
    const { phone, finger, clock } = unlocked();
    finger.tapId("home.icon.clock");
    finger.tapId("clock.tab.timer");
    finger.tapId("clock.timer.start");
    finger.homeSwipe(500);
    const card = centreMm(phone, el(phone, "switcher.card.clock"));
    finger.swipe(card, { x: card.x, y: card.y - 30 }, { durationMs: 100, steps: 5 });
    finger.homeSwipe();
    clock.advance(60_000);
    finger.tapId("home.icon.clock");
    finger.tapId("clock.tab.timer");
    expect(phone.truth().state).toMatch(/timer running, 03:5\d left/);
  });
});

describe("Settings and Weather", () => {
  it("toggles flip on tap and change the status bar", () => {
    const { phone, finger } = unlocked();
    finger.tapId("home.icon.settings");
    expect(el(phone, "settings.toggle.wifi").label).toBe("Wi-Fi: On");
    finger.tapId("settings.toggle.wifi");
    expect(el(phone, "settings.toggle.wifi").label).toBe("Wi-Fi: Off");
    expect(phone.truth().elements.some((e) => e.id === "status.wifi")).toBe(false);
    finger.tapId("settings.toggle.airplane");
    expect(phone.truth().state).toContain("Airplane Mode on");
    expect(el(phone, "status.airplane")).toBeDefined();
    finger.tapId("settings.row.general");
    expect(el(phone, "nav.title").label).toBe("General");
    finger.swipe({ x: 1, y: 70 }, { x: 45, y: 70 });
    expect(phone.truth().state).toContain("list scrolled");
  });

  it("a label cut by the list's viewport reports how much of its height is left; whole ones do not", () => {
    const { phone, finger } = unlocked();
    finger.tapId("home.icon.settings");
    expect(el(phone, "settings.row.airplane").visibleHeight).toBeUndefined();
    const g = phone.geometry.glassMm;
    // The evaluation screens' scroll: Airplane Mode's label ends up a sliver under the top of the list.
    finger.swipe(
      { x: g.width / 2, y: g.height * 0.75 },
      { x: g.width / 2, y: g.height * 0.4 },
      { durationMs: 500 },
    );
    const airplane = el(phone, "settings.row.airplane").visibleHeight ?? 1;
    expect(airplane).toBeGreaterThan(0);
    expect(airplane).toBeLessThan(0.5);
    expect(el(phone, "settings.row.wifi").visibleHeight).toBeUndefined();
  });

  it("Weather shows the city, temperature and a 10-day forecast", () => {
    const { phone, finger } = unlocked();
    finger.tapId("home.icon.weather");
    expect(el(phone, "weather.city").label).toBe("Cupertino");
    expect(el(phone, "weather.temp").label).toMatch(/^\d+°$/);
    expect(phone.truth().elements.filter((e) => e.id.match(/^weather\.hour\.\d\.temp$/)).length).toBe(6);
    finger.swipe({ x: 30, y: 120 }, { x: 30, y: 40 }, { durationMs: 1500, steps: 30 });
    expect(el(phone, "weather.day.9.high").label).toMatch(/°$/);
  });

  it("placeholder apps open a titled screen", () => {
    const { phone, finger } = unlocked();
    finger.tapId("home.icon.notes");
    expect(phone.truth()).toMatchObject({ app: "notes" });
    expect(el(phone, "title").label).toBe("Notes");
  });
});

describe("phone-level gesture classification", () => {
  it("a quick double tap reaches the phone as a double tap; two slow taps do not", () => {
    const { phone, finger } = unlocked();
    const p = { x: 30, y: 120 };
    finger.doubleTap(p, 120);
    expect(phone.lastGesture).toMatchObject({ kind: "tap", count: 2 });
    finger.tap(p, 50, 600);
    finger.tap(p, 50, 600);
    expect(phone.lastGesture).toMatchObject({ kind: "tap", count: 1 });
  });

  it("holding a button past the long-press time still activates it on lift (nothing claims the press)", () => {
    const { phone, finger } = unlocked();
    finger.longPress(centreMm(phone, el(phone, "home.icon.clock")), 800);
    expect(phone.truth().app).toBe("clock");
  });
});

describe("timer done away from Clock", () => {
  it("shows a timer banner on the home screen that opens the Timer tab", () => {
    const { phone, finger, clock } = unlocked();
    finger.tapId("home.icon.clock");
    finger.tapId("clock.tab.timer");
    finger.tapId("clock.timer.picker.row-2"); // 5 → 3 min
    finger.tapId("clock.timer.start");
    finger.homeSwipe();
    clock.advance(3 * 60_000);
    expect(phone.truth().state).toContain("timer done");
    finger.tapId("banner.timer");
    expect(phone.truth().state).toBe("Clock: timer done");
    finger.tapId("clock.timer.stop");
    finger.homeSwipe();
    expect(phone.truth().elements.some((e) => e.id === "banner.timer")).toBe(false);
  });
});

describe("dark mode", () => {
  it("turns app backgrounds dark", async () => {
    const { phone, finger } = unlocked();
    finger.tapId("home.icon.settings");
    finger.swipe({ x: 30, y: 110 }, { x: 30, y: 60 }, { durationMs: 1500, steps: 30 });
    const light = await phone.renderScreen();
    finger.tapId("settings.toggle.darkMode");
    expect(phone.truth().state).toContain("Dark Mode on");
    const dark = await phone.renderScreen();
    // A pixel of the background strip behind the status bar, clear of any glyph.
    const o = (60 * light.width + 10) * 4;
    expect(light.data[o]).toBeGreaterThan(200);
    expect(dark.data[o]).toBeLessThan(40);
  });
});
