import type { ToolCallRecord, ToolOutcome } from "../src/agent/ports.js";
import type { ToolResult } from "../src/tools/types.js";
import { type Random, seededRandom } from "../src/util/random.js";

/**
 * A scripted agent session for the context bench and the window tests: realistic tool results (peek
 * and gesture results with ~40-row listings and a JPEG, notes, a memory load, a skill load, a few
 * local tools) without a model or a rig. Deterministic for a seed.
 */

export interface ScriptedTurn {
  content: string | null;
  calls: ToolCallRecord[];
  outcomes: ToolOutcome[];
}

const WORDS = [
  "Clock",
  "Timer",
  "Alarm",
  "Stopwatch",
  "World Clock",
  "Start",
  "Cancel",
  "Settings",
  "Wi-Fi",
  "Bluetooth",
  "Battery",
  "Display",
  "Sounds",
  "Notifications",
  "Messages",
  "Mail",
  "Calendar",
  "Weather",
  "Photos",
  "Camera",
  "Maps",
  "Music",
  "Search",
  "Done",
  "Edit",
  "Back",
  "Today",
  "Monday 23 November",
  "Low Power Mode",
  "Do Not Disturb",
  "minutes",
  "hours",
  "seconds",
  "Repeat",
  "Label",
  "Sound",
  "Radar",
  "Snooze",
  "Delete",
  "Share",
];

const pick = <T>(r: Random, xs: readonly T[]): T => xs[Math.floor(r.next() * xs.length)] as T;
const f3 = (v: number) => v.toFixed(3);

/** A listing of `rows` rows (about 60% text, 40% icons), sorted top to bottom like the real one. */
export function fakeListing(r: Random, rows = 40): string {
  const lines: string[] = [];
  for (let i = 0; i < rows; i++) {
    const top = (i + 0.1) / rows;
    const left = r.next() * 0.6;
    const box = [left, top, left + 0.1 + r.next() * 0.3, top + 0.8 / rows].map(f3).join(",");
    const text = r.next() < 0.6;
    const label = text ? pick(r, WORDS) : "";
    lines.push(
      `${i + 1} [${text ? "text" : "icon"}] "${label}" [${box}] ${(0.7 + r.next() * 0.29).toFixed(2)}`,
    );
  }
  return lines.join("\n");
}

export const MEMORY_TEXT = [
  "# Memory",
  "- The phone is an iPhone 13 in dark mode; the Clock app is on the second home page, dock row has Phone, Safari, Messages, Music.",
  "- Timers: open Clock → Timers tab (bottom right), set the wheels, press Start (green, bottom right).",
  "- The user prefers short alarms named by purpose (e.g. 'Laundry').",
  "- Unlock: use unlock_phone; never type the passcode yourself.",
  "- Weather app shows Berlin first; the user lives in Berlin (Europe/Berlin).",
  "- The Messages app asks for Face ID on open; cancel it and use the passcode via unlock_phone.",
].join("\n");

export const SKILL_TEXT = [
  "# Set a timer",
  "1. peek; if the phone is locked, unlock_phone.",
  "2. home_screen, then find the Clock icon (row with label 'Clock'); tap its box.",
  "3. In Clock, tap the 'Timers' tab at the bottom. peek to confirm the wheels are visible.",
  "4. Swipe each wheel (hours, minutes, seconds) up or down until the wanted value is centred; peek after each swipe.",
  "5. Tap 'Start'. Verify the countdown is running (the label changes to 'Pause').",
  "6. end_session DONE with a recap naming the duration.",
  "Pitfalls: the wheels move 1–3 steps per small swipe; a screenshot thumbnail covers the bottom left for a few seconds.",
].join("\n");

const GESTURES = ["tap", "tap", "tap", "swipe", "long_press", "go_back", "home_screen"] as const;

function viewOutcome(callId: string, name: string, header: string, r: Random, jpeg: string): ToolOutcome {
  const result: ToolResult = {
    content: [
      { type: "image", mimeType: "image/jpeg", data: jpeg },
      { type: "text", text: `${header}\n${fakeListing(r)}` },
    ],
    isError: false,
  };
  return { callId, name, args: {}, result };
}

function gestureOutcome(callId: string, name: string, r: Random, jpeg: string): ToolOutcome {
  const changed = r.next() < 0.75;
  const text = [
    `${name} at (${f3(r.next())}, ${f3(r.next())}) of the screen`,
    changed ? "screen: changed" : "screen: no visible change",
    changed
      ? "next: the image and listing below are the screen now; pick the next action from them."
      : "next: nothing visible changed; the element may not react to this gesture or the app is slow — peek once more before trying something else.",
  ].join("\n");
  const result: ToolResult = {
    content: [
      { type: "text", text },
      { type: "image", mimeType: "image/jpeg", data: jpeg },
      { type: "text", text: `listing after the gesture:\n${fakeListing(r)}` },
    ],
    isError: false,
  };
  return { callId, name, args: {}, result };
}

const text = (t: string): ToolResult => ({ content: [{ type: "text", text: t }], isError: false });

/**
 * `turns` turns, each a note plus one other tool: turn 1 peeks, turn 3 reads memory, turn 5 loads the
 * "set-timer" skill, turn 8 saves a memory line, every 9th turn waits, the rest alternate peeks and
 * gestures. `jpegBase64` is the image every view returns.
 */
export function scriptedSession(turns: number, jpegBase64: string, seed = 7): ScriptedTurn[] {
  const r = seededRandom(seed);
  const out: ScriptedTurn[] = [];
  for (let n = 1; n <= turns; n++) {
    const noteId = `call_${n}_note`;
    const toolId = `call_${n}_tool`;
    let name: string;
    let args: Record<string, unknown>;
    let outcome: ToolOutcome;
    if (n === 3) {
      name = "read_memory";
      args = {};
      outcome = { callId: toolId, name, args, result: text(MEMORY_TEXT) };
    } else if (n === 5) {
      name = "load_skill";
      args = { name: "set-timer" };
      outcome = { callId: toolId, name, args, result: text(SKILL_TEXT) };
    } else if (n === 8) {
      name = "save_memory";
      args = { text: "Clock app moved to the first home page." };
      outcome = { callId: toolId, name, args, result: text("saved to memory.md") };
    } else if (n % 9 === 0) {
      name = "wait";
      args = { seconds: 5 };
      outcome = { callId: toolId, name, args, result: text("waited 5 s") };
    } else if (n === 1 || n % 3 === 1) {
      name = "peek";
      args = {};
      outcome = viewOutcome(toolId, name, "peek: the screen as the camera sees it", r, jpegBase64);
    } else {
      name = pick(r, GESTURES);
      const bbox = [0.1, 0.2, 0.3, 0.25].map((v) => Number((v + r.next() * 0.5).toFixed(3)));
      args = name === "swipe" ? { bbox, direction: "up", size: "small", speed: "normal" } : { bbox };
      if (name === "go_back" || name === "home_screen") args = {};
      outcome = gestureOutcome(toolId, name, r, jpegBase64);
      outcome = { ...outcome, args };
    }
    const summary = `turn ${n}: ${name} because the ${pick(r, WORDS)} element should lead to the timer`;
    out.push({
      content: null,
      calls: [
        { id: noteId, name: "note", arguments: JSON.stringify({ summary }) },
        { id: toolId, name, arguments: JSON.stringify(args) },
      ],
      outcomes: [{ callId: noteId, name: "note", args: { summary }, result: text("noted") }, outcome],
    });
  }
  return out;
}
