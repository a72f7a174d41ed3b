import { describe, expect, it } from "vitest";
import {
  type AnyLocalTool,
  createLocalTools,
  invokeLocalTool,
  type LocalToolContext,
} from "../../src/agent/local-tools.js";
import type { JobView } from "../../src/agent/ports.js";
import { Logger } from "../../src/log/logger.js";
import type { ToolResult } from "../../src/tools/types.js";
import { PiclawError } from "../../src/util/errors.js";
import { JobsFake, MemoryFake, SkillsFake } from "./harness.js";

function setup() {
  const memory = new MemoryFake();
  const jobs = new JobsFake();
  const created: JobView[] = [];
  const sleeps: number[] = [];
  const controller = new AbortController();
  const ctx: LocalToolContext = {
    memory,
    skills: new SkillsFake(),
    jobs,
    signal: controller.signal,
    sleep: async (ms, signal) => {
      if (signal.aborted) throw new PiclawError("ABORTED", "aborted");
      sleeps.push(ms);
    },
    onJobCreated: (job) => created.push(job),
    log: Logger.create({ level: "error", format: "json", sink: { write: () => {} }, now: () => 0 }),
  };
  const tools = new Map<string, AnyLocalTool>(createLocalTools().map((t) => [t.name, t]));
  const call = (name: string, args: unknown) => {
    const tool = tools.get(name);
    if (!tool) throw new Error(`no tool ${name}`);
    return invokeLocalTool(tool, args, ctx);
  };
  return { memory, jobs, created, sleeps, controller, call, tools };
}

const text = (r: ToolResult) => r.content.map((p) => (p.type === "text" ? p.text : "")).join("");

describe("local tools", () => {
  it("are the 13 named in the issue", () => {
    expect([...setup().tools.keys()].sort()).toEqual(
      [
        "append_daily_log",
        "create_job",
        "end_session",
        "finish_job",
        "get_job",
        "list_jobs",
        "load_skill",
        "note",
        "read_daily_log",
        "read_memory",
        "save_memory",
        "update_memory",
        "wait",
      ].sort(),
    );
  });

  it("memory: save, read, update; a missing text is an error result naming the code", async () => {
    const { call, memory } = setup();
    expect((await call("save_memory", { text: "The timer app is Clock." })).isError).toBe(false);
    const read = await call("read_memory", {});
    expect(text(read)).toContain("The timer app is Clock.");
    expect(text(read)).toContain("The user is Sam.");
    await call("update_memory", { old_text: "Clock", new_text: "Uhr" });
    expect(memory.memory).toBe("The timer app is Uhr.");
    const missing = await call("update_memory", { old_text: "nothing", new_text: "x" });
    expect(missing.isError).toBe(true);
    expect(text(missing)).toMatch(/^update_memory failed \[MEMORY_NOT_FOUND\]/);
  });

  it("daily log append and read", async () => {
    const { call } = setup();
    await call("append_daily_log", { text: "set a timer" });
    expect(text(await call("read_daily_log", {}))).toBe("set a timer");
    const bad = await call("read_daily_log", { date: "yesterday" });
    expect(text(bad)).toMatch(/read_daily_log: invalid arguments: date/);
  });

  it("jobs: create (reported to the engine), get, list, finish; invalid args name the field", async () => {
    const { call, created } = setup();
    const job = {
      id: "water",
      description: "water plants",
      type: "periodic",
      schedule: "0 8 * * *",
      context: "",
    };
    expect((await call("create_job", job)).isError).toBe(false);
    expect(created.map((j) => j.id)).toEqual(["water"]);
    expect(text(await call("create_job", job))).toMatch(/JOB_EXISTS/);
    expect(created).toHaveLength(1);
    expect(text(await call("get_job", { id: "water" }))).toContain('"schedule": "0 8 * * *"');
    expect((await call("get_job", { id: "nope" })).isError).toBe(true);
    expect(text(await call("list_jobs", {}))).toContain("water plants");
    expect(text(await call("finish_job", { id: "water", result: "watered" }))).toContain("watered");
    const bad = await call("create_job", { ...job, id: "Bad Id", type: "weekly" });
    expect(bad.isError).toBe(true);
    expect(text(bad)).toMatch(/id/);
    expect(text(bad)).toMatch(/type/);
  });

  it("load_skill returns the body; an unknown skill is an error result", async () => {
    const { call } = setup();
    expect(text(await call("load_skill", { name: "set-timer" }))).toContain("open Clock");
    expect(text(await call("load_skill", { name: "fly" }))).toMatch(/SKILL_NOT_FOUND/);
  });

  it("wait: 1–60 s, abortable", async () => {
    const { call, sleeps, controller } = setup();
    expect(text(await call("wait", { seconds: 5 }))).toBe("waited 5 s");
    expect(sleeps).toEqual([5000]);
    expect(text(await call("wait", { seconds: 61 }))).toMatch(/seconds/);
    expect(text(await call("wait", { seconds: 0.5 }))).toMatch(/seconds/);
    controller.abort();
    const aborted = await call("wait", { seconds: 5 });
    expect(aborted).toMatchObject({ isError: true });
    expect(text(aborted)).toMatch(/cancelled/);
  });

  it("note: at most 20 words", async () => {
    const { call } = setup();
    expect((await call("note", { summary: "open the clock app to set a timer" })).isError).toBe(false);
    const long = await call("note", { summary: Array.from({ length: 21 }, () => "w").join(" ") });
    expect(text(long)).toMatch(/summary.*20 words/);
  });
});
