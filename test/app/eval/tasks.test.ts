import { describe, expect, it } from "vitest";
import type { Row } from "../../../src/app/eval/rows.js";
import { EVAL_TASKS } from "../../../src/app/eval/tasks.js";
import { nextKeys } from "../../../src/app/eval/tasks-input.js";
import type { PhoneTruth } from "../../../src/sim/phone/phone.js";

const truth = (over: Partial<PhoneTruth>): PhoneTruth => ({
  screen: "lock",
  app: null,
  locked: true,
  screenOn: true,
  state: "locked, lock screen",
  elements: [],
  input: null,
  dialled: null,
  call: null,
  calls: [],
  sent: [],
  ...over,
});
const task = (id: string) => {
  const t = EVAL_TASKS.find((x) => x.id === id);
  if (!t) throw new Error(`no task ${id}`);
  return t;
};

describe("piclaw eval tasks judge by the simulated phone's truth", () => {
  it("has at least 15 tasks with unique ids", () => {
    expect(EVAL_TASKS.length).toBeGreaterThanOrEqual(15);
    expect(new Set(EVAL_TASKS.map((t) => t.id)).size).toBe(EVAL_TASKS.length);
  });

  it("an agent that says DONE without doing it fails", () => {
    const locked = truth({});
    for (const id of [
      "open-clock",
      "timer-10",
      "wifi-off",
      "home-page-2",
      "send-message",
      "unlock",
      "type-message",
      "dial-number",
      "wait-for-reply",
    ])
      expect(
        task(id).check({ truth: locked, status: "DONE", recap: "done", statuses: ["DONE"] }),
        id,
      ).not.toBeNull();
  });

  it("passes on the state each task asks for", () => {
    const app = (a: PhoneTruth["app"], state: string) =>
      truth({ screen: "app", app: a, locked: false, state });
    expect(
      task("open-clock").check({
        truth: app("clock", "Clock: timer"),
        status: "DONE",
        recap: "",
        statuses: ["DONE"],
      }),
    ).toBeNull();
    expect(
      task("timer-10").check({
        truth: app("clock", "Clock: timer running, 9:58 left"),
        status: "DONE",
        recap: "",
        statuses: ["DONE"],
      }),
    ).toBeNull();
    const settings = "Settings: Settings page; Airplane Mode off, Wi-Fi off, Bluetooth on";
    expect(
      task("wifi-off").check({
        truth: app("settings", settings),
        status: "DONE",
        recap: "",
        statuses: ["DONE"],
      }),
    ).toBeNull();
    expect(
      task("bluetooth-off").check({
        truth: app("settings", settings),
        status: "DONE",
        recap: "",
        statuses: ["DONE"],
      }),
    ).toMatch(/Bluetooth is on/);
    const weather = app("weather", "Weather: Cupertino 21°, Sunny, scrolled 0 pt");
    expect(
      task("weather-temperature").check({
        truth: weather,
        status: "DONE",
        recap: "It is 21°",
        statuses: ["DONE"],
      }),
    ).toBeNull();
    expect(
      task("weather-temperature").check({
        truth: weather,
        status: "DONE",
        recap: "It is 12°",
        statuses: ["DONE"],
      }),
    ).not.toBeNull();
    expect(
      task("idle-wake").check({ truth: truth({}), status: "IDLE", recap: "", statuses: ["IDLE"] }),
    ).toBeNull();
    expect(
      task("idle-wake").check({ truth: truth({}), status: "DONE", recap: "", statuses: ["DONE"] }),
    ).toMatch(/not IDLE/);
  });
});

describe("the keyboard, keypad and WAIT tasks", () => {
  const row = (id: number, kind: string, label: string, x: number): Row => ({
    id,
    kind,
    label,
    state: null,
    box: [x, 0.8, x + 0.08, 0.85],
  });
  const keyboard = (upper: boolean): Row[] =>
    [..."qwertyuiopasdfghjklzxcvbnm"]
      .map((c, i) => row(i + 1, "key", upper ? c.toUpperCase() : c, (i % 10) / 10))
      .concat([row(40, "key", "shift", 0), row(41, "key", "space", 0.3), row(42, "key", "delete", 0.9)]);

  it("types a capital on the sentence-start keys, then runs of lower case up to five keys", () => {
    const first = nextKeys(keyboard(true), "Be there", 0);
    if (typeof first === "string") throw new Error(first);
    expect(first.keys.map((k) => k.label)).toEqual(["B", "E", "space", "T", "H"]);
    expect(first.chars).toBe(5);
    // A capital in mid-sentence on lower-case keys: shift first, alone.
    const shift = nextKeys(keyboard(false), "hi Bo", 3);
    if (typeof shift === "string") throw new Error(shift);
    expect(shift).toMatchObject({ chars: 0, keys: [{ label: "shift" }] });
    // A run stops before the next capital.
    const run = nextKeys(keyboard(false), "ab Cd", 0);
    if (typeof run === "string") throw new Error(run);
    expect(run.keys.map((k) => k.label)).toEqual(["a", "b", "space"]);
    expect(nextKeys(keyboard(false), "a1", 0)).toMatch(/no key for "1"/);
  });

  it("judges typing by what the phone sent, dialling by the number it called, WAIT by both sessions", () => {
    const sent = truth({ sent: [{ to: "Mom", text: "Be there soon" }] });
    const ok = { status: "DONE", recap: "", statuses: ["DONE"] };
    expect(task("type-message").check({ truth: sent, ...ok })).toBeNull();
    expect(
      task("type-message").check({ truth: truth({ sent: [{ to: "Mom", text: "Be there" }] }), ...ok }),
    ).toMatch(/nothing "Be there soon" sent/);
    expect(task("dial-number").check({ truth: truth({ calls: ["02079460958"] }), ...ok })).toBeNull();
    expect(task("dial-number").check({ truth: truth({ dialled: "02079460958" }), ...ok })).toMatch(/no call/);
    const wait = task("wait-for-reply");
    const answer = 'Alex Chen replied: "The film starts at 8:15"';
    expect(
      wait.check({ truth: truth({}), status: "DONE", recap: answer, statuses: ["WAIT", "DONE"] }),
    ).toBeNull();
    // Answering at once (without waiting) or waiting without coming back both fail.
    expect(wait.check({ truth: truth({}), status: "DONE", recap: answer, statuses: ["DONE"] })).toMatch(
      /not WAIT/,
    );
    expect(wait.check({ truth: truth({}), status: "WAIT", recap: "", statuses: ["WAIT"] })).toMatch(
      /no session resumed/,
    );
    expect(wait.resume?.afterSeconds).toBeGreaterThan(0);
  });
});
