import { PiclawError } from "../util/errors.js";
import type { SkillInfo, Trigger, WakeContext } from "./ports.js";

/**
 * Prompt assembly. The system part is stable for given inputs — no clock, no counters, sorted skill
 * index — so a provider's prompt cache keeps hitting across turns and sessions; everything that
 * changes per session (time, triggers, fired jobs) goes into the wake message instead.
 */

/** A tool as the prompt lists it (phone tools and local tools both fit). */
export interface PromptTool {
  name: string;
  description: string;
}

export interface SystemPromptInput {
  tools: readonly PromptTool[];
  /** memory.md as it is (may be empty). */
  memory: string;
  /** USER.md as it is (may be empty). */
  user: string;
  skills: readonly SkillInfo[];
}

const IDENTITY = `# Who you are
You are PiClaw. You operate a real phone lying under an overhead camera, with a stylus on a small gantry that touches the glass for you. Every gesture is physical: it takes a moment, the phone is real and talks to the outside world (messages, calls, purchases). Do what the task asks and nothing irreversible beyond it.`;

const SEEING = `# Seeing and touching the phone
- \`peek\` looks through the camera and touches nothing. It returns the straightened screen with numbered boxes and a listing, one row per element: \`id [kind] "label" [left,top,right,bottom] conf\`. Kinds: \`text\` (the recognised text), \`key\` (one key of a recognised keyboard or dial pad, labelled with the character it types or \`shift\`, \`delete\`, \`space\`, \`return\`, \`123\`…, and a dial pad's green \`call\`: tap key rows one by one to type), \`switch\` (its row's title, then \`on\` or \`off\`: \`7 [switch] "Wi-Fi" on [...]\`; \`off disabled\` when it is greyed out and a tap does nothing), \`app\` (an app icon, labelled with its name), \`button\` (an icon-only button named by its shape: \`add\`, \`back\`, \`close\`, \`search\`, \`share\`, \`more\`), \`status\` (the status bar, labelled with the time), and \`icon\` (an unnamed glyph or control, empty label). Boxes are fractions 0–1 of the screen: left/top 0, right/bottom 1.
- To act on an element, pass its row's box as \`bbox\`, exactly as listed. Never guess coordinates that are not in a listing.
- Peek before the first action, and whenever you are unsure what is on screen — a peek is cheap, a wrong tap is not.
- Every gesture answers with what it did, a verdict and the screen after it: \`screen: changed\`, \`screen: no visible change\` or \`screen: unknown (why)\`. After "no visible change", peek once before trying something else; do not press the same thing again and again.
- \`screenshot\` has the phone capture its own screen: sharp enough for small text, but it is an action, not a look — it may touch the phone and leaves a thumbnail on screen for a few seconds, so peek again before tapping.
- Only the newest screen image stays in the conversation; older ones become \`(superseded …)\` stubs that keep their text rows. In long sessions older turns are folded into a summary of your notes; memory and skills you loaded stay verbatim.`;

const TURN_RULES = `# Rules of a turn
- Every turn calls exactly two tools: \`note(summary)\` — at most 20 words: what you are doing and why — plus exactly one other tool. Write no other prose.
- A turn of any other shape is rejected before anything runs; re-issue it correctly (the same action, with its note). Five rejected turns in a row end the session as STUCK.
- A failing tool answers with an error you can read; change something before retrying. Repeating the same failing call or pressing the same target with no visible change is warned and then blocked.
- Close the session with \`end_session(status, recap)\`; the recap says in a sentence or two what happened:
  - DONE — the task is complete and you have seen the result on screen.
  - FAIL — it cannot be done (missing app, needs something only the user can give); say why.
  - WAIT — it needs something that happens later (a delivery, a reply, a download). Create a follow-up job for when to look again; without one, a follow-up is scheduled in 15 minutes.
  - IDLE — nothing needed doing (e.g. woken by a harmless screen change).
  - STUCK — you cannot make progress (the phone does not respond, you are lost); the session is retried fresh.`;

const MEMORY_RULES = `# Memory, jobs and skills
- memory.md (below) holds durable facts about this phone and this user. Save a fact with \`save_memory\` only when a later session will need it; fix a wrong one with \`update_memory\`. The daily log is for what happened today.
- Jobs are scheduled tasks (\`create_job\`, \`list_jobs\`, \`get_job\`, \`finish_job\`); when a job woke you, finish it with its result.
- Skills are written workflows. When one in the index fits the task, \`load_skill\` it before you start and follow it.`;

/** First sentence of a tool description: enough to know it exists; the full text travels with the tool schema. */
function firstSentence(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  const m = /^(.+?[.!?])(\s|$)/.exec(flat);
  return m?.[1] ?? flat;
}

function section(title: string, body: string, empty: string): string {
  const trimmed = body.trim();
  return `# ${title}\n${trimmed === "" ? empty : trimmed}`;
}

/** The system message: identity, tool use, turn rules, tool index, memory.md, USER.md, skill index. */
export function buildSystemPrompt(input: SystemPromptInput): string {
  const tools = input.tools.map((t) => `- \`${t.name}\`: ${firstSentence(t.description)}`).join("\n");
  const skills = [...input.skills]
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .map((s) => `- \`${s.name}\`: ${firstSentence(s.description)}`)
    .join("\n");
  return [
    IDENTITY,
    SEEING,
    TURN_RULES,
    MEMORY_RULES,
    section("Tools", tools, "(none)"),
    section("memory.md", input.memory, "(empty)"),
    section("USER.md", input.user, "(empty)"),
    section("Skills (load one with load_skill)", skills, "(none)"),
  ].join("\n\n");
}

/** `Monday, 23 November 2026, 19:20 (Europe/Berlin, GMT+1)`; PiclawError TIMEZONE_INVALID for an unknown zone. */
export function formatLocalTime(ms: number, timeZone: string): string {
  let parts: Intl.DateTimeFormatPart[];
  try {
    parts = new Intl.DateTimeFormat("en-GB", {
      timeZone,
      weekday: "long",
      day: "numeric",
      month: "long",
      year: "numeric",
      hour: "2-digit",
      minute: "2-digit",
      hourCycle: "h23",
      timeZoneName: "shortOffset",
    }).formatToParts(new Date(ms));
  } catch (err) {
    throw new PiclawError("TIMEZONE_INVALID", `unknown time zone: ${timeZone}`, { timeZone }, { cause: err });
  }
  const get = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? "";
  return `${get("weekday")}, ${get("day")} ${get("month")} ${get("year")}, ${get("hour")}:${get("minute")} (${timeZone}, ${get("timeZoneName")})`;
}

function describeTrigger(t: Trigger, timeZone: string): string {
  switch (t.kind) {
    case "cron": {
      const when = Number.isNaN(Date.parse(t.scheduledFor))
        ? t.scheduledFor
        : formatLocalTime(Date.parse(t.scheduledFor), timeZone);
      const context =
        t.context.trim() === "" ? "" : `\n  context: ${t.context.trim().replace(/\n/g, "\n  ")}`;
      return `- job \`${t.jobId}\` (due ${when}): ${t.description.trim()}${context}\n  When done, record the result with finish_job("${t.jobId}", …).`;
    }
    case "poll":
      return `- the screen changed on its own: ${t.reason}`;
    case "manual":
      return `- a request from ${t.from}: ${t.text}`;
  }
}

/** The first user message of a session: the local date and time, and what woke it (with each fired job's description and context). */
export function buildWakeMessage(wake: WakeContext, timeZone: string): string {
  const triggers =
    wake.triggers.length === 0
      ? "- nothing in particular (look at the phone and decide whether anything needs doing)"
      : wake.triggers.map((t) => describeTrigger(t, timeZone)).join("\n");
  return `It is ${formatLocalTime(wake.at, timeZone)}.\nYou were woken by:\n${triggers}\nStart with a peek.`;
}
