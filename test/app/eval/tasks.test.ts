import { describe, expect, it } from "vitest";
import { EVAL_TASKS } from "../../../src/app/eval/tasks.js";
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
    for (const id of ["open-clock", "timer-10", "wifi-off", "home-page-2", "send-message", "unlock"])
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
