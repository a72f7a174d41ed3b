import type { PhoneTruth } from "../../sim/phone/phone.js";
import { bounded, controlBeside, end, lookAndUnlock, openApp, policy, type Step } from "./policy-kit.js";
import { findRow, type Row } from "./rows.js";
import type { Policy } from "./scripted-provider.js";

/** What a task's check sees after the session: the simulated phone's truth and the outcome. */
export interface CheckContext {
  truth: PhoneTruth;
  status: string;
  recap: string;
}

/** One task of `piclaw eval`: words for the agent, the phone it starts with, and how success is judged. */
export interface EvalTask {
  id: string;
  /** What the user asks, exactly as the agent receives it. */
  prompt: string;
  /** `sim.phone` settings for this task (locale, notifications). */
  phone?: Record<string, unknown>;
  /** null = success, else why not (read from the simulator's truth, never from the agent's words alone). */
  check(ctx: CheckContext): string | null;
  /** The scripted listing-only policy (a fresh one per run: policies keep state). */
  baseline(): Policy;
}

const LOCK_EN = ["Swipe up to open", "Enter Passcode"];
const LOCK_ZH = ["向上轻扫以打开", "输入密码"];
const MAX_TURNS = 14;

const inClock = (rows: Row[]) => !!findRow(rows, "World Clock") && !!findRow(rows, "Stopwatch");
const inSettings = (rows: Row[], wifi = "Wi-Fi") =>
  !!findRow(rows, wifi) && !!findRow(rows, /^(Bluetooth|蓝牙)$/);
const inWeather = (rows: Row[]) => !!findRow(rows, "Cupertino") && rows.some((r) => /^-?\d+°$/.test(r.label));
const inMessageList = (rows: Row[]) => !!findRow(rows, "Messages") && !findRow(rows, "Clock");

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

/** Read Mom's last message in her thread (received bubbles sit on the left). */
const readMessageTask: EvalTask = {
  id: "read-message",
  prompt: "What was the last message Mom sent me in Messages?",
  check: ({ recap }) =>
    /see you at 6/i.test(recap) ? null : `the answer "${recap}" is not Mom's last message`,
  baseline: () => {
    const inThread = (rows: Row[]) => !!findRow(rows, "Mom") && !!findRow(rows, "iMessage");
    const read: Step = ({ rows }) => {
      if (!inThread(rows)) return null;
      const received = rows
        .filter((r) => r.kind === "text" && r.box[0] < 0.25 && r.box[1] > 0.12 && r.box[3] < 0.88)
        .filter((r) => !/^(Mom|iMessage|Delivered|Today.*)$/.test(r.label))
        .sort((a, b) => b.box[1] - a.box[1]);
      const last = received[0];
      return last
        ? end("DONE", `Mom's last message: "${last.label}"`)
        : end("FAIL", "no received message found");
    };
    const thread: Step = ({ rows }) => {
      const mom = findRow(rows, "Mom");
      return inMessageList(rows) && mom
        ? { note: "open Mom's thread", tool: "tap", args: { bbox: mom.box } }
        : null;
    };
    return bounded(
      policy(
        [lookAndUnlock(LOCK_EN), read, thread, openApp("Messages", (r) => inMessageList(r) || inThread(r))],
        () => end("FAIL", "lost"),
      ),
      MAX_TURNS,
    );
  },
};

/** Send a text through the clipboard: the phone has no keyboard the arm can type on in the simulator. */
const sendMessageTask: EvalTask = {
  id: "send-message",
  prompt: 'Send the message "On my way" to Mom.',
  check: ({ truth }) => {
    if (!/^Messages: thread with Mom/.test(truth.state)) return `not in Mom's thread (${truth.state})`;
    return truth.elements.some((e) => e.label === "On my way") ? null : "no bubble saying On my way";
  },
  baseline: () => {
    let copied = false;
    let sent = false;
    const inThread = (rows: Row[]) =>
      !!findRow(rows, "Mom") && !!(findRow(rows, "iMessage") || findRow(rows, "Send"));
    const compose: Step = ({ rows }) => {
      if (sent && findRow(rows, "On my way")) return end("DONE", "sent On my way to Mom");
      if (!inThread(rows)) return null;
      if (!copied) {
        copied = true;
        return {
          note: "put the text on the clipboard",
          tool: "send_to_clipboard",
          args: { text: "On my way" },
        };
      }
      const paste = findRow(rows, "Paste");
      if (paste) return { note: "paste it", tool: "tap", args: { bbox: paste.box } };
      const draft = findRow(rows, "On my way");
      const send = findRow(rows, "Send");
      if (draft && send) {
        sent = true;
        return { note: "send it", tool: "tap", args: { bbox: send.box } };
      }
      const field = findRow(rows, "iMessage");
      if (field)
        return { note: "open the edit menu on the field", tool: "long_press", args: { bbox: field.box } };
      return null;
    };
    const thread: Step = ({ rows }) => {
      const mom = findRow(rows, "Mom");
      return inMessageList(rows) && mom
        ? { note: "open Mom's thread", tool: "tap", args: { bbox: mom.box } }
        : null;
    };
    return bounded(
      policy(
        [
          lookAndUnlock(LOCK_EN),
          compose,
          thread,
          openApp("Messages", (r) => inMessageList(r) || inThread(r)),
        ],
        () => end("FAIL", "lost"),
      ),
      MAX_TURNS + 4,
    );
  },
};

const notificationTask: EvalTask = {
  id: "lock-screen-message",
  prompt: "Is there a new message? Tell me who sent it and what it says.",
  phone: { notifications: [{ afterSeconds: 0, from: "Dana Park", text: "The keys are under the mat" }] },
  check: ({ recap }) =>
    /dana/i.test(recap) && /keys are under the mat/i.test(recap)
      ? null
      : `the answer "${recap}" misses sender or text`,
  baseline: () =>
    bounded(
      policy(
        [
          ({ rows, turn }) => (turn === 1 || rows.length === 0 ? { note: "look", tool: "peek" } : null),
          ({ rows }) => {
            const from = findRow(rows, "Dana Park");
            if (!from) return null;
            const below = rows
              .filter(
                (r) => r.kind === "text" && r.box[1] >= from.box[3] - 0.005 && r.box[1] < from.box[3] + 0.05,
              )
              .sort((a, b) => a.box[1] - b.box[1])[0];
            return end("DONE", `Dana Park wrote: "${below?.label ?? "?"}"`);
          },
        ],
        () => end("IDLE", "no new message on the screen"),
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

/** The task suite: what the simulated phone supports today (README: what it cannot test yet). */
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
];
