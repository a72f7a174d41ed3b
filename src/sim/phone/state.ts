import type { StringKey } from "./strings.js";

/** Every app on the simulated phone. */
export type AppId =
  | "clock"
  | "messages"
  | "settings"
  | "weather"
  | "calendar"
  | "photos"
  | "camera"
  | "mail"
  | "notes"
  | "reminders"
  | "maps"
  | "health"
  | "wallet"
  | "books"
  | "appstore"
  | "files"
  | "calculator"
  | "phone"
  | "safari"
  | "music"
  | "contacts"
  | "translate"
  | "stocks"
  | "compass";

export interface Message {
  fromMe: boolean;
  text: string;
  atMs: number;
}

export interface Thread {
  id: string;
  name: string;
  messages: Message[];
  unread: number;
}

/** Countdown timer; lives outside the Clock app's UI state so force-quitting Clock keeps it (as iOS). */
export interface TimerState {
  status: "idle" | "running" | "paused";
  /** When running: the instant it reaches zero. */
  endMs: number;
  /** When paused: what was left. */
  remainingMs: number;
  durationMs: number;
}

export interface StopwatchState {
  startedAtMs: number | null;
  accumulatedMs: number;
  laps: number[];
}

export type PhoneTab = "favorites" | "recents" | "contacts" | "keypad" | "voicemail";

/** The on-screen keyboard: which page shows and the shift key ("auto": capitals at a sentence start). */
export interface KeyboardState {
  layer: "letters" | "numbers" | "symbols";
  shift: "off" | "auto" | "once" | "lock";
  /** When shift was last tapped (a second tap soon after locks capitals). */
  shiftTappedMs: number;
}

/** A call placed from the Phone app (it lives outside the app's UI state, like a real call). */
export interface CallState {
  number: string;
  startedAtMs: number;
}

export type ClockTab = "world" | "alarm" | "stopwatch" | "timer";

/** Per-app UI state: dropped on force quit, so the app "restarts fresh". */
export interface AppUi {
  clock: { tab: ClockTab; pickerMinutes: number };
  messages: {
    threadId: string | null;
    draft: string;
    pasteMenu: boolean;
    listScroll: number;
    threadScroll: number;
    /** The compose field has focus: the keyboard is up. */
    focused: boolean;
  };
  phone: { tab: PhoneTab; entry: string };
  settings: { scroll: number; page: StringKey | null };
  weather: { scroll: number };
}

export interface Banner {
  threadId: string;
  from: string;
  text: string;
  untilMs: number;
}

export interface Toggles {
  airplane: boolean;
  wifi: boolean;
  bluetooth: boolean;
  darkMode: boolean;
  lowPower: boolean;
  location: boolean;
}

export interface PhoneState {
  screenOn: boolean;
  locked: boolean;
  lockView: "lock" | "passcode";
  /** Digits typed on the keypad so far. Secret-adjacent: only its length is ever reported. */
  entered: string;
  shakeStartMs: number | null;
  failedAttempts: number;
  /** Thread to open once unlocked (a lock-screen notification was tapped). */
  pendingThread: string | null;
  foreground: AppId | null;
  switcher: boolean;
  switcherScroll: number;
  homePage: number;
  /** Most recent first. */
  recents: AppId[];
  ui: Partial<AppUi>;
  threads: Thread[];
  clipboard: string | null;
  toggles: Toggles;
  alarms: boolean[];
  timer: TimerState;
  stopwatch: StopwatchState;
  banner: Banner | null;
  keyboard: KeyboardState;
  /** The call on screen, if any. */
  call: CallState | null;
  /** Every number called, oldest first (Phone › Recents). */
  calls: CallState[];
  lastActivityMs: number;
  batteryPercent: number;
}

type Seed = [name: string, lines: [fromMe: boolean, text: string][]];

const THREADS: Record<"en" | "zh", Seed[]> = {
  en: [
    [
      "Mom",
      [
        [false, "Are you coming for dinner on Sunday?"],
        [true, "Yes! I'll bring dessert"],
        [false, "Great, see you at 6"],
      ],
    ],
    [
      "Alex Chen",
      [
        [false, "Did you see the game last night?"],
        [true, "That last goal was unreal"],
      ],
    ],
    [
      "Sarah Miller",
      [
        [true, "Can you send me the photos?"],
        [false, "Sure, uploading them now"],
      ],
    ],
    ["Work Team", [[false, "Standup moved to 10:30 today"]]],
    [
      "David Kim",
      [
        [false, "Lunch tomorrow?"],
        [true, "Sounds good, the usual place?"],
      ],
    ],
    ["Emma Wilson", [[false, "Thanks for the book recommendation!"]]],
    ["Dentist Office", [[false, "Reminder: appointment on Thursday at 2 PM"]]],
    [
      "Lisa Park",
      [
        [true, "Happy birthday!"],
        [false, "Thank you so much!"],
      ],
    ],
    ["Tom Brown", [[false, "The package arrived"]]],
    ["Book Club", [[false, "Next meeting: chapter 7 to 12"]]],
    ["Chris Lee", [[true, "Running 5 minutes late"]]],
    ["Anna Davis", [[false, "See you at the airport"]]],
  ],
  zh: [
    [
      "妈妈",
      [
        [false, "周日回来吃饭吗？"],
        [true, "回来！我带甜点"],
        [false, "好的，六点见"],
      ],
    ],
    [
      "陈晓",
      [
        [false, "昨晚的比赛看了吗？"],
        [true, "最后那个进球太精彩了"],
      ],
    ],
    [
      "王芳",
      [
        [true, "能把照片发给我吗？"],
        [false, "好的，正在上传"],
      ],
    ],
    ["工作群", [[false, "今天的站会改到十点半"]]],
    [
      "李强",
      [
        [false, "明天一起吃午饭？"],
        [true, "好啊，老地方？"],
      ],
    ],
    ["刘洋", [[false, "谢谢你推荐的书！"]]],
    ["牙科诊所", [[false, "提醒：周四下午两点复诊"]]],
    [
      "张伟",
      [
        [true, "生日快乐！"],
        [false, "太感谢了！"],
      ],
    ],
    ["赵敏", [[false, "快递已经到了"]]],
    ["读书会", [[false, "下次读第七到十二章"]]],
    ["孙丽", [[true, "我晚到五分钟"]]],
    ["周杰", [[false, "机场见"]]],
  ],
};

/** Seed conversations: the first is the most recent (minutes ago), later ones hours or days back. */
export function seedThreads(locale: "en" | "zh", nowMs: number): Thread[] {
  return THREADS[locale].map(([name, lines], i) => {
    const base = nowMs - (i === 0 ? 12 * 60_000 : i * 5 * 3_600_000);
    return {
      id: `t${i}`,
      name,
      unread: 0,
      messages: lines.map(([fromMe, text], k) => ({
        fromMe,
        text,
        atMs: base - (lines.length - k) * 60_000,
      })),
    };
  });
}

export function initialState(locale: "en" | "zh", nowMs: number): PhoneState {
  return {
    screenOn: true,
    locked: true,
    lockView: "lock",
    entered: "",
    shakeStartMs: null,
    failedAttempts: 0,
    pendingThread: null,
    foreground: null,
    switcher: false,
    switcherScroll: 0,
    homePage: 0,
    recents: [],
    ui: {},
    threads: seedThreads(locale, nowMs),
    clipboard: null,
    toggles: {
      airplane: false,
      wifi: true,
      bluetooth: true,
      darkMode: false,
      lowPower: false,
      location: true,
    },
    alarms: [true, false, false],
    timer: { status: "idle", endMs: 0, remainingMs: 0, durationMs: 0 },
    stopwatch: { startedAtMs: null, accumulatedMs: 0, laps: [] },
    banner: null,
    keyboard: { layer: "letters", shift: "auto", shiftTappedMs: Number.NEGATIVE_INFINITY },
    call: null,
    calls: [],
    lastActivityMs: nowMs,
    batteryPercent: 82,
  };
}

/** Total unread messages: the Messages badge. */
export function unreadCount(state: PhoneState): number {
  return state.threads.reduce((sum, t) => sum + t.unread, 0);
}

/** What the phone is showing at the top level. */
export type PhoneScreen = "off" | "lock" | "passcode" | "home" | "switcher" | "app";
