import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type AgentConfig, agentConfigSchema } from "../../src/agent/config.js";
import { AgentRunner, type PromptBuilder } from "../../src/agent/engine.js";
import type { AgentEvent } from "../../src/agent/events.js";
import type { ChatMessage } from "../../src/agent/messages.js";
import type {
  AgentJobs,
  AgentMemory,
  AgentSkills,
  ConversationWindow,
  JobView,
  NewJob,
  WakeContext,
} from "../../src/agent/ports.js";
import { OpenAIProvider, type Sleep } from "../../src/agent/provider.js";
import { transcriptProblems } from "../../src/agent/transcript-check.js";
import { contextWindowFactory } from "../../src/agent/wiring.js";
import { Logger } from "../../src/log/logger.js";
import { phoneOwnerConfigSchema } from "../../src/rig/config.js";
import { PhoneOwner } from "../../src/rig/owner.js";
import { type ToolName, toolArgs } from "../../src/tools/args.js";
import {
  type AnyPhoneTool,
  definePhoneTool,
  type ToolContext,
  type ToolResult,
} from "../../src/tools/types.js";
import { ManualClock } from "../../src/util/clock.js";
import { PiclawError } from "../../src/util/errors.js";
import { seededRandom } from "../../src/util/random.js";
import { FakeOpenAIServer } from "../fakes/openai-server.js";

/** In-memory fakes of the agent's ports, a scripted phone, and a runner wired to the fake server. */

export class MemoryFake implements AgentMemory {
  memory = "";
  user = "The user is Sam.";
  daily: string[] = [];
  async readMemory() {
    return this.memory;
  }
  async saveMemory(text: string) {
    this.memory += `${this.memory ? "\n" : ""}${text}`;
    return {};
  }
  async updateMemory(oldText: string, newText: string) {
    if (!this.memory.includes(oldText))
      throw new PiclawError("MEMORY_NOT_FOUND", `not in memory.md: "${oldText}"`);
    this.memory = this.memory.replace(oldText, newText);
    return {};
  }
  async readUser() {
    return this.user;
  }
  async readDailyLog() {
    return this.daily.join("\n");
  }
  async appendDailyLog(text: string) {
    this.daily.push(text);
  }
}

export class SkillsFake implements AgentSkills {
  async index() {
    return [{ name: "set-timer", description: "Set a timer in the Clock app.", source: "bundled" as const }];
  }
  async load(name: string) {
    if (name !== "set-timer") throw new PiclawError("SKILL_NOT_FOUND", `no skill "${name}"`);
    return "1. open Clock\n2. tap Timer";
  }
}

export class JobsFake implements AgentJobs {
  readonly jobs = new Map<string, JobView>();
  readonly upserts: NewJob[] = [];
  private view(job: NewJob): JobView {
    return {
      ...job,
      status: "pending",
      createTime: null,
      nextFireTime: null,
      lastFireTime: null,
      executionTime: null,
      executionResult: null,
    };
  }
  async create(job: NewJob) {
    if (this.jobs.has(job.id)) throw new PiclawError("JOB_EXISTS", `job ${job.id} exists`);
    const view = this.view(job);
    this.jobs.set(job.id, view);
    return view;
  }
  async upsert(job: NewJob) {
    this.upserts.push(job);
    const view = this.view(job);
    this.jobs.set(job.id, view);
    return view;
  }
  async get(id: string) {
    return this.jobs.get(id) ?? null;
  }
  async list() {
    return [...this.jobs.values()];
  }
  async finish(id: string, result: string) {
    const job = this.jobs.get(id);
    if (!job) throw new PiclawError("JOB_NOT_FOUND", `no job ${id}`);
    job.executionResult = result;
    return job;
  }
}

export interface PhoneRun {
  tool: string;
  args: unknown;
  aborted: boolean;
}

export type PhoneBehaviour = (
  name: string,
  args: unknown,
  ctx: ToolContext,
) => Promise<ToolResult | undefined>;

/** The 12 tools with real schemas; gestures answer `screen: changed` unless `behaviour` says otherwise. */
export function scriptedPhone(behaviour?: PhoneBehaviour): { tools: AnyPhoneTool[]; runs: PhoneRun[] } {
  const runs: PhoneRun[] = [];
  const tools = (Object.keys(toolArgs) as ToolName[]).map((name) => {
    const view = name === "peek" || name === "screenshot";
    return definePhoneTool({
      name,
      title: name,
      description: `Fake ${name}.`,
      input: toolArgs[name],
      annotations: { readOnlyHint: view, destructiveHint: !view },
      needsArm: !view,
      async run(args, ctx) {
        const run: PhoneRun = { tool: name, args, aborted: false };
        runs.push(run);
        const scripted = await behaviour?.(name, args, ctx);
        run.aborted = ctx.signal.aborted;
        if (scripted) return scripted;
        if (view)
          return {
            content: [
              { type: "image", mimeType: "image/jpeg", data: "AAAA" },
              { type: "text", text: `${name}:\n1 [text] "Clock" [0.1,0.1,0.3,0.2] 0.9` },
            ],
            isError: false,
          };
        return { content: [{ type: "text", text: `${name} done\nscreen: changed` }], isError: false };
      },
    });
  });
  return { tools, runs };
}

/** Wraps a window and checks the transcript is legal after every change. */
export class CheckedWindow implements ConversationWindow {
  readonly problems: string[] = [];
  constructor(readonly inner: ConversationWindow) {}
  private check(step: string) {
    for (const p of transcriptProblems(this.inner.messages())) this.problems.push(`${step}: ${p}`);
  }
  messages(): ChatMessage[] {
    return this.inner.messages();
  }
  addAssistant(...a: Parameters<ConversationWindow["addAssistant"]>) {
    this.inner.addAssistant(...a);
    this.check("addAssistant");
  }
  addToolResults(...a: Parameters<ConversationWindow["addToolResults"]>) {
    this.inner.addToolResults(...a);
    this.check("addToolResults");
  }
  addUser(text: string) {
    this.inner.addUser(text);
    this.check("addUser");
  }
  get turns() {
    return this.inner.turns;
  }
  estimateTokens() {
    return this.inner.estimateTokens();
  }
  maybeFold() {
    return this.inner.maybeFold();
  }
}

export const WAKE: WakeContext = {
  at: Date.UTC(2026, 0, 5, 9, 41, 0),
  triggers: [{ kind: "manual", text: "set a 10-minute timer", from: "cli" }],
};

export interface HarnessOptions {
  config?: Record<string, unknown>;
  /** The appliance's time zone (default UTC). */
  timeZone?: string;
  /** Per-provider overrides of the default provider. */
  provider?: Record<string, unknown>;
  behaviour?: PhoneBehaviour;
  stateDir?: string;
  clock?: ManualClock;
  /** Real phone tools (e.g. on the fast sim rig) instead of the scripted ones. */
  phoneTools?: AnyPhoneTool[];
  /** Replaces the fixed test prompt. */
  prompt?: PromptBuilder;
}

export async function harness(options: HarnessOptions = {}) {
  const server = new FakeOpenAIServer();
  await server.start();
  const clock = options.clock ?? new ManualClock(WAKE.at);
  const logLines: string[] = [];
  const log = Logger.create({
    level: "debug",
    format: "json",
    sink: { write: (l) => logLines.push(l) },
    now: () => clock.now(),
  });
  const config: AgentConfig = agentConfigSchema.parse({
    providers: {
      default: { baseUrl: server.baseUrl, model: "fake-model", retryBaseMs: 1000, ...options.provider },
    },
    ...options.config,
  });
  const sleeps: number[] = [];
  const sleep: Sleep = async (ms, signal) => {
    if (signal.aborted) throw new PiclawError("ABORTED", "aborted");
    sleeps.push(ms);
    clock.advance(ms);
  };
  const settings = config.providers.default;
  if (!settings) throw new Error("no default provider");
  const provider = new OpenAIProvider("default", settings, {
    apiKey: "sk-test-secret-key",
    clock,
    random: seededRandom(7),
    sleep,
    log,
  });
  const phone = scriptedPhone(options.behaviour);
  const owner = new PhoneOwner(phoneOwnerConfigSchema.parse({}), clock);
  const memory = new MemoryFake();
  const jobs = new JobsFake();
  const windows: CheckedWindow[] = [];
  const realFactory = contextWindowFactory(settings.fold);
  const stateDir = options.stateDir ?? mkdtempSync(join(tmpdir(), "piclaw-agent-"));
  const runner = new AgentRunner({
    config,
    provider,
    phoneTools: options.phoneTools ?? phone.tools,
    owner,
    memory,
    skills: new SkillsFake(),
    jobs,
    clock,
    log,
    stateDir,
    timeZone: options.timeZone ?? "UTC",
    random: seededRandom(1),
    sleep,
    windowFactory: (system, wake) => {
      const w = new CheckedWindow(realFactory(system, wake));
      windows.push(w);
      return w;
    },
    prompt:
      options.prompt ?? (async (wake) => ({ system: "SYSTEM PROMPT", wake: `WAKE ${wake.triggers.length}` })),
  });
  const events: AgentEvent[] = [];
  runner.events.on((e) => events.push(e));
  const ofType = <T extends AgentEvent["type"]>(type: T) =>
    events.filter((e): e is Extract<AgentEvent, { type: T }> => e.type === type);
  /** Every problem found: in each window after each change, and in each request the server received. */
  const transcriptIssues = () => [
    ...windows.flatMap((w) => w.problems),
    ...server.requests.flatMap((r, i) =>
      transcriptProblems(r.body.messages as ChatMessage[]).map((p) => `request ${i}: ${p}`),
    ),
  ];
  return {
    server,
    clock,
    log,
    logLines,
    config,
    sleeps,
    provider,
    phone,
    owner,
    memory,
    jobs,
    windows,
    runner,
    events,
    ofType,
    transcriptIssues,
    stateDir,
  };
}

export type Harness = Awaited<ReturnType<typeof harness>>;

/** The text of every user message in a request body. */
export function userTexts(messages: ReadonlyArray<{ role: string; content?: unknown }>): string[] {
  return messages
    .filter((m) => m.role === "user")
    .map((m) =>
      typeof m.content === "string"
        ? m.content
        : Array.isArray(m.content)
          ? m.content.map((p: { text?: string }) => p.text ?? "").join("")
          : "",
    );
}

/** The text of every tool message in a request body. */
export function toolTexts(messages: ReadonlyArray<{ role: string; content?: unknown }>): string[] {
  return messages
    .filter((m) => m.role === "tool")
    .map((m) => (typeof m.content === "string" ? m.content : JSON.stringify(m.content)));
}
