import {
  bounded,
  type CheckContext,
  controlBeside,
  type EvalTask,
  end,
  inMessageList,
  LOCK_EN,
  lookAndUnlock,
  MAX_TURNS,
  openApp,
  policy,
  type Step,
} from "./policy-kit.js";
import { findRow, type Row } from "./rows.js";
import { dialTask, typeMessageTask, waitReplyTask } from "./tasks-input.js";
import { notificationTask, readMessageTask, sendMessageTask } from "./tasks-messages.js";

export type { EvalTask } from "./policy-kit.js";

const LOCK_ZH = ["向上轻扫以打开", "输入密码"];

const inClock = (rows: Row[]) => !!findRow(rows, "World Clock") && !!findRow(rows, "Stopwatch");
const inSettings = (rows: Row[], wifi = "Wi-Fi") =>
  !!findRow(rows, wifi) && !!findRow(rows, /^(Bluetooth|蓝牙)$/);
const inWeather = (rows: Row[]) => !!findRow(rows, "Cupertino") && rows.some((r) => /^-?\d+°$/.test(r.label));

const expectApp =
  (app: string) =>
  ({ truth }: CheckContext): string | null =>
    truth.app === app ? null : `the phone shows ${truth.state}, not ${app}`;

const doneWhen =
  (done: (rows: Row[]) => boolean, recap: string): Step =>
  (look) =>
    done(look.rows) ? end("DONE", recap) : null;

function openTask(id: string, name: string, app: string, isOpen: (rows: Row[]) => boolean): EvalTask {
  return {
    id,
    prompt: `Open the ${name} app.`,
    check: expectApp(app),
    baseline: () =>
      bounded(
        policy([lookAndUnlock(LOCK_EN), doneWhen(isOpen, `${name} is open`), openApp(name, isOpen)], () =>
          end("FAIL", "lost"),
        ),
        MAX_TURNS,
      ),
  };
}

const scrollDown = { bbox: [0.3, 0.55, 0.7, 0.75], direction: "up", size: "m", speed: "slow" };

/** Flip a Settings switch to `want` and check the phone's toggle. */
function toggleTask(id: string, label: string, want: boolean): EvalTask {
  let tapped = false;
  return {
    id,
    prompt: `Turn ${label} ${want ? "on" : "off"} in Settings.`,
    check: ({ truth }) => {
      const m = new RegExp(`${label.replace(/[-]/g, "\\-")} (on|off)`).exec(truth.state);
      if (!m) return `Settings is not showing (${truth.state})`;
      return m[1] === (want ? "on" : "off") ? null : `${label} is ${m[1]}`;
    },
    baseline: () => {
      tapped = false;
      let scrolls = 0;
      const flip: Step = ({ rows }) => {
        if (!inSettings(rows)) return null;
        const sw = rows.find((r) => r.kind === "switch" && r.label.toLowerCase() === label.toLowerCase());
        if (sw?.state) {
          // The listing says the state: flip only when needed, then stop when it matches.
          if ((sw.state === "on") === want) return end("DONE", `${label} is ${want ? "on" : "off"}`);
          return { note: `${label} is ${sw.state}; flip it`, tool: "tap", args: { bbox: sw.box } };
        }
        // Today's listing has no switch state: tap the control beside the label once, and trust it.
        if (tapped) return end("DONE", `tapped the ${label} switch (its state is not in the listing)`);
        const row = findRow(rows, label);
        if (!row || row.box[3] > 0.85) {
          // Below the fold: scroll the list (a swipe up moves the content up), a few times at most.
          if (++scrolls > 4) return end("FAIL", `no ${label} row in Settings`);
          return { note: `${label} is further down; scroll`, tool: "swipe", args: scrollDown };
        }
        const control = controlBeside(rows, row);
        if (!control) return end("FAIL", `no switch found beside ${label}`);
        tapped = true;
        return { note: `flip ${label}`, tool: "tap", args: { bbox: control.box } };
      };
      return bounded(
        policy([lookAndUnlock(LOCK_EN), flip, openApp("Settings", (r) => inSettings(r))], () =>
          end("FAIL", "lost"),
        ),
        MAX_TURNS,
      );
    },
  };
}

/** Set a timer of `minutes` on the Clock's Timer tab (the wheel's selected value sits level with "min"). */
function timerTask(id: string, minutes: number): EvalTask {
  const mm = String(minutes);
  const running = new RegExp(`timer running,? 0?(${minutes - 1}:[0-5]\\d|${minutes}:00) left`);
  return {
    id,
    prompt: `Set a ${minutes}-minute timer.`,
    check: ({ truth }) =>
      running.test(truth.state) ? null : `no ${minutes}-minute timer running (${truth.state})`,
    baseline: () => {
      let started = false;
      const timer: Step = ({ rows }) => {
        const countdown = rows.find((r) => /^\d{1,2}:\d{2}$/.test(r.label) && r.box[1] > 0.15);
        if (started && countdown) return end("DONE", `timer running, ${countdown.label} left`);
        const start = findRow(rows, "Start");
        // The minutes wheel: numbers in a column above and below the selected one, which sits level
        // with the "min" unit (OCR may read the two as one row, "21 min").
        const wheel = rows.filter(
          (r) => /^\d{1,2}( min)?$/.test(r.label) && r.box[1] > 0.12 && r.box[3] < 0.6,
        );
        if (start && wheel.length > 0) {
          const unit = findRow(rows, /^(\d{1,2} )?min$/);
          const mid = (r: Row) => (r.box[1] + r.box[3]) / 2;
          const selected = unit
            ? [...wheel].sort((a, b) => Math.abs(mid(a) - mid(unit)) - Math.abs(mid(b) - mid(unit)))[0]
            : undefined;
          const value = (r: Row | undefined) => (r ? Number.parseInt(r.label, 10) : Number.NaN);
          if (value(selected) === minutes) {
            started = true;
            return { note: `${mm} minutes selected; start`, tool: "tap", args: { bbox: start.box } };
          }
          // Tap the wanted number when shown, else the one furthest towards it (the wheel moves there).
          const byTop = [...wheel].sort((a, b) => a.box[1] - b.box[1]);
          const target =
            wheel.find((r) => value(r) === minutes) ?? (value(selected) > minutes ? byTop[0] : byTop.at(-1));
          if (target)
            return {
              note: `pick ${target.label} on the minutes wheel`,
              tool: "tap",
              args: { bbox: target.box },
            };
        }
        const tab = findRow(rows, "Timer");
        if (tab && inClock(rows)) return { note: "open the Timer tab", tool: "tap", args: { bbox: tab.box } };
        return null;
      };
      return bounded(
        policy([lookAndUnlock(LOCK_EN), timer, openApp("Clock", inClock)], () => end("FAIL", "lost")),
        MAX_TURNS + 6,
      );
    },
  };
}

const TEMP = /^-?\d+°$/;

const weatherTask: EvalTask = {
  id: "weather-temperature",
  prompt: "What temperature does the Weather app show right now? Answer with the number.",
  check: ({ truth, recap }) => {
    const m = /Cupertino (-?\d+)°/.exec(truth.state);
    if (!m) return `Weather is not showing (${truth.state})`;
    return new RegExp(`(^|[^\\d])${m[1]}°?([^\\d]|$)`).test(recap)
      ? null
      : `the answer "${recap}" is not ${m[1]}°`;
  },
  baseline: () =>
    bounded(
      policy(
        [
          lookAndUnlock(LOCK_EN),
          ({ rows }) => {
            if (!inWeather(rows)) return null;
            const temps = rows.filter((r) => TEMP.test(r.label));
            const big = [...temps].sort((a, b) => b.box[3] - b.box[1] - (a.box[3] - a.box[1]))[0];
            return big ? end("DONE", `It is ${big.label} in Cupertino.`) : null;
          },
          openApp("Weather", inWeather),
        ],
        () => end("FAIL", "lost"),
      ),
      MAX_TURNS,
    ),
};

const unlockTask: EvalTask = {
  id: "unlock",
  prompt: "Unlock the phone.",
  check: ({ truth }) => (truth.locked ? `still locked (${truth.state})` : null),
  baseline: () =>
    bounded(
      policy([lookAndUnlock(LOCK_EN)], () => end("DONE", "unlocked")),
      MAX_TURNS,
    ),
};

const homePageTwoTask: EvalTask = {
  id: "home-page-2",
  prompt: "Show the second page of the home screen.",
  check: ({ truth }) => (/home screen, page 2/.test(truth.state) ? null : `the phone shows ${truth.state}`),
  baseline: () => {
    let swiped = false;
    return bounded(
      policy(
        [
          lookAndUnlock(LOCK_EN),
          ({ lastResult }) => {
            if (swiped) return end("DONE", "on the second page");
            if (!/home_screen/.test(lastResult)) return { note: "go home", tool: "home_screen" };
            swiped = true;
            return {
              note: "next page",
              tool: "swipe",
              args: { bbox: [0.2, 0.45, 0.8, 0.55], direction: "left", size: "l", speed: "medium" },
            };
          },
        ],
        () => end("FAIL", "lost"),
      ),
      MAX_TURNS,
    );
  },
};

const idleTask: EvalTask = {
  id: "idle-wake",
  prompt:
    "Routine check: if nothing on the phone needs attention, end the session as IDLE without changing anything.",
  check: ({ status, truth }) =>
    status !== "IDLE"
      ? `ended ${status}, not IDLE`
      : truth.locked
        ? null
        : "the phone was unlocked for nothing",
  baseline: () =>
    bounded(
      policy([({ turn }) => (turn === 1 ? { note: "look", tool: "peek" } : null)], () =>
        end("IDLE", "nothing needs attention"),
      ),
      MAX_TURNS,
    ),
};

const settingsZhTask: EvalTask = {
  id: "open-settings-zh",
  prompt: "打开设置。",
  phone: { locale: "zh" },
  check: expectApp("settings"),
  baseline: () => {
    const open = (rows: Row[]) => inSettings(rows, "无线局域网");
    return bounded(
      policy([lookAndUnlock(LOCK_ZH), doneWhen(open, "设置已打开"), openApp("设置", open)], () =>
        end("FAIL", "lost"),
      ),
      MAX_TURNS,
    );
  },
};

/** The task suite (README "Picking a model": the baseline's table and what the listing lacks). */
export const EVAL_TASKS: readonly EvalTask[] = [
  unlockTask,
  openTask("open-clock", "Clock", "clock", inClock),
  openTask("open-messages", "Messages", "messages", inMessageList),
  openTask("open-weather", "Weather", "weather", inWeather),
  settingsZhTask,
  homePageTwoTask,
  timerTask("timer-10", 10),
  timerTask("timer-3", 3),
  toggleTask("wifi-off", "Wi-Fi", false),
  toggleTask("bluetooth-off", "Bluetooth", false),
  toggleTask("airplane-on", "Airplane Mode", true),
  toggleTask("dark-mode-on", "Dark Mode", true),
  weatherTask,
  readMessageTask,
  sendMessageTask,
  notificationTask,
  idleTask,
  typeMessageTask,
  dialTask,
  waitReplyTask,
];
