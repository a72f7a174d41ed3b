import { describe, expect, it } from "vitest";
import { BANNER_MS } from "../../../src/sim/phone/index.js";
import { el, makePhone, PASSCODE } from "./helpers.js";

const START = Date.UTC(2026, 0, 5, 9, 41, 0);
const AT = START + 60_000;
const note = { atMs: AT, app: "messages" as const, from: "Alex Chen", text: "Running late, 10 min" };

const ids = (p: { truth(): { elements: { id: string }[] } }) => p.truth().elements.map((e) => e.id);

describe("scheduled notifications", () => {
  it("show a banner at atMs for a few seconds, then leave a badge and an unread thread", () => {
    const { phone, finger, clock } = makePhone({ notifications: [note] });
    finger.unlock(PASSCODE);
    clock.set(AT - 1);
    expect(ids(phone)).not.toContain("banner");
    expect(ids(phone)).not.toContain("home.badge.messages");
    clock.set(AT);
    expect(el(phone, "banner").label).toBe("Alex Chen: Running late, 10 min");
    expect(el(phone, "home.badge.messages").label).toBe("1");
    clock.set(AT + BANNER_MS - 1);
    expect(ids(phone)).toContain("banner");
    clock.set(AT + BANNER_MS);
    expect(ids(phone)).not.toContain("banner");
    expect(el(phone, "home.badge.messages").label).toBe("1");
    expect(phone.truth().state).toContain("Messages badge 1");
    finger.tapId("home.icon.messages");
    expect(phone.truth().state).toContain("1 unread");
    finger.tapId("messages.thread.t1");
    expect(phone.truth().elements.some((e) => e.label === "Running late, 10 min")).toBe(true);
    finger.homeSwipe();
    expect(ids(phone)).not.toContain("home.badge.messages");
  });

  it("the banner hides the status bar it is drawn over from ground truth, until it goes", () => {
    const { phone, finger, clock } = makePhone({ notifications: [note] });
    finger.unlock(PASSCODE);
    clock.set(AT - 1);
    expect(ids(phone)).toContain("status.time");
    clock.set(AT);
    expect(ids(phone).filter((id) => id.startsWith("status."))).toEqual([]);
    // What the banner does not cover stays: the first row of icons below it.
    expect(ids(phone)).toContain("home.icon.calendar");
    clock.set(AT + BANNER_MS);
    expect(ids(phone)).toContain("status.time");
  });

  it("tapping the banner opens the thread and marks it read", () => {
    const { phone, finger, clock } = makePhone({
      notifications: [{ ...note, from: "Priya", text: "New number, who dis" }],
    });
    finger.unlock(PASSCODE);
    clock.set(AT + 1000);
    finger.tapId("banner");
    const t = phone.truth();
    expect(t.app).toBe("messages");
    expect(t.state).toContain("thread with Priya");
    finger.homeSwipe();
    expect(ids(phone)).not.toContain("home.badge.messages");
  });

  it("appear as a card on the lock screen (waking a sleeping screen); tapping it asks for the passcode, then opens the thread", () => {
    const { phone, finger, clock } = makePhone({ notifications: [note] });
    phone.pressSideButton();
    expect(phone.truth().screen).toBe("off");
    clock.set(AT + 500);
    expect(phone.truth().screen).toBe("lock");
    expect(el(phone, "lock.notification.t1").label).toBe("Alex Chen: Running late, 10 min");
    expect(ids(phone)).not.toContain("banner");
    finger.tapId("lock.notification.t1");
    expect(phone.truth().screen).toBe("passcode");
    for (const d of PASSCODE) finger.tapId(`passcode.key.${d}`);
    expect(phone.truth().state).toContain("thread with Alex Chen");
  });

  it("a message for the open thread shows no banner and no badge", () => {
    const { phone, finger, clock } = makePhone({ notifications: [note] });
    finger.unlock(PASSCODE);
    finger.tapId("home.icon.messages");
    finger.tapId("messages.thread.t1");
    clock.set(AT + 10);
    expect(ids(phone)).not.toContain("banner");
    expect(phone.truth().elements.some((e) => e.label === "Running late, 10 min")).toBe(true);
    finger.homeSwipe();
    expect(ids(phone)).not.toContain("home.badge.messages");
  });
});
