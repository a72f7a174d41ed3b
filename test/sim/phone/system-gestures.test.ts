import { describe, expect, it } from "vitest";
import { centreMm, el, makePhone, PASSCODE } from "./helpers.js";

function unlocked() {
  const p = makePhone();
  p.finger.unlock(PASSCODE);
  return p;
}

describe("system gestures", () => {
  it("swipe up from the bottom edge goes home from an app; the same stroke away from the edge does not", () => {
    const { phone, finger } = unlocked();
    finger.tapId("home.icon.settings");
    expect(phone.truth().app).toBe("settings");
    const { width, height } = phone.geometry.glassMm;
    // Starts 10 mm above the edge: that is a list drag, not the home gesture.
    finger.swipe({ x: width / 2, y: height - 10 }, { x: width / 2, y: height * 0.5 });
    expect(phone.truth().app).toBe("settings");
    finger.homeSwipe();
    expect(phone.truth()).toMatchObject({ screen: "home", app: null });
  });

  it("left-edge swipe goes back from a Messages thread; a swipe from mid-screen does not", () => {
    const { phone, finger } = unlocked();
    finger.tapId("home.icon.messages");
    finger.tapId("messages.thread.t1");
    expect(phone.truth().state).toContain("thread with Alex Chen");
    finger.swipe({ x: 25, y: 70 }, { x: 55, y: 70 });
    expect(phone.truth().state).toContain("thread with Alex Chen");
    finger.swipe({ x: 1, y: 70 }, { x: 40, y: 71 });
    expect(phone.truth().state).toContain("thread list");
    expect(phone.truth().app).toBe("messages");
    // At the app's root the back swipe does nothing.
    finger.swipe({ x: 1, y: 70 }, { x: 40, y: 71 });
    expect(phone.truth().app).toBe("messages");
  });

  it("the nav-bar back button also goes back", () => {
    const { phone, finger } = unlocked();
    finger.tapId("home.icon.messages");
    finger.tapId("messages.thread.t2");
    finger.tapId("nav.back");
    expect(phone.truth().state).toContain("thread list");
  });

  it("swipe up and hold opens the app switcher; tap a card opens it; tap empty space goes home", () => {
    const { phone, finger } = unlocked();
    finger.tapId("home.icon.clock");
    finger.homeSwipe();
    finger.tapId("home.icon.weather");
    finger.homeSwipe(500);
    let t = phone.truth();
    expect(t.screen).toBe("switcher");
    expect(t.state).toBe("app switcher: Weather, Clock");
    expect(t.elements.filter((e) => e.id.startsWith("switcher.card.")).map((e) => e.label)).toEqual([
      "Weather",
      "Clock",
    ]);
    finger.tapId("switcher.card.clock");
    expect(phone.truth().app).toBe("clock");
    finger.homeSwipe(500);
    t = phone.truth();
    expect(t.state).toBe("app switcher: Clock, Weather");
    finger.tap({ x: 32, y: 20 }); // above the cards: nothing there
    expect(phone.truth().screen).toBe("home");
  });

  it("flicking a card up force-quits the app: gone from recents and restarts fresh", () => {
    const { phone, finger } = unlocked();
    finger.tapId("home.icon.clock");
    finger.tapId("clock.tab.stopwatch");
    expect(phone.truth().state).toContain("stopwatch");
    finger.homeSwipe();
    finger.tapId("home.icon.messages");
    finger.homeSwipe(500);
    const card = centreMm(phone, el(phone, "switcher.card.clock"));
    finger.swipe(card, { x: card.x, y: card.y - 25 }, { durationMs: 120, steps: 6 });
    const t = phone.truth();
    expect(t.screen).toBe("switcher");
    expect(t.state).toBe("app switcher: Messages");
    expect(t.elements.some((e) => e.id === "switcher.card.clock")).toBe(false);
    finger.homeSwipe();
    finger.tapId("home.icon.clock");
    expect(phone.truth().state).toContain("world clock tab"); // fresh UI state, not the stopwatch tab
  });

  it("a slow short drag on a card does not force-quit it", () => {
    const { phone, finger } = unlocked();
    finger.tapId("home.icon.clock");
    finger.homeSwipe(500);
    const card = centreMm(phone, el(phone, "switcher.card.clock"));
    finger.swipe(card, { x: card.x, y: card.y - 4 }, { durationMs: 800 });
    expect(phone.truth().state).toBe("app switcher: Clock");
  });

  it("vertical drags scroll lists: rows move by the drag distance and new rows appear", () => {
    const { phone, finger } = unlocked();
    finger.tapId("home.icon.settings");
    const before = el(phone, "settings.toggle.wifi").box;
    const ids = new Set(phone.truth().elements.map((e) => e.id));
    expect(ids.has("settings.row.passwords")).toBe(false);
    // Slow drag (no momentum): content follows the finger 1:1.
    finger.swipe({ x: 30, y: 110 }, { x: 30, y: 80 }, { durationMs: 1500, steps: 30 });
    const after = el(phone, "settings.toggle.wifi").box;
    const movedMm = (before[1] - after[1]) * phone.geometry.glassMm.height;
    expect(movedMm).toBeCloseTo(30, 0);
    // A fast flick travels further than the finger (momentum) and reveals the last rows.
    finger.swipe({ x: 30, y: 120 }, { x: 30, y: 60 }, { durationMs: 150, steps: 8 });
    expect(phone.truth().elements.some((e) => e.id === "settings.row.passwords")).toBe(true);
    expect(phone.truth().elements.some((e) => e.id === "settings.toggle.wifi")).toBe(false);
  });

  it("the Messages thread list scrolls with a drag", () => {
    const { phone, finger } = unlocked();
    finger.tapId("home.icon.messages");
    const first = el(phone, "messages.thread.t0").box;
    finger.swipe({ x: 30, y: 110 }, { x: 30, y: 90 }, { durationMs: 1000, steps: 20 });
    const moved = el(phone, "messages.thread.t3").box;
    const movedMm = (first[1] + (3 * 76) / 844 - moved[1]) * phone.geometry.glassMm.height;
    expect(movedMm).toBeCloseTo(20, 0);
    expect(phone.truth().state).toContain("thread list");
  });
});
