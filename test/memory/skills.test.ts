import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createMemory } from "../../src/memory/index.js";
import { parseSkill, SkillLibrary } from "../../src/memory/skills.js";
import { ManualClock } from "../../src/util/clock.js";
import { PiclawError } from "../../src/util/errors.js";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), "piclaw-skills-"));
  dirs.push(d);
  return d;
}

function skill(root: string, folder: string, text: string): string {
  mkdirSync(join(root, folder), { recursive: true });
  const file = join(root, folder, "SKILL.md");
  writeFileSync(file, text);
  return file;
}

const doc = (name: string, description: string, body = "1. Do the thing.\n") =>
  `---\nname: ${name}\ndescription: ${description}\n---\n${body}`;

describe("SkillLibrary", () => {
  it("indexes the bundled skills, each with a valid front matter and a body", async () => {
    const stateDir = tempDir();
    const { skills } = createMemory(
      { softCapBytes: 8192, hardCapBytes: 16_384 },
      { stateDir, clock: new ManualClock() },
    );
    const scan = await skills.scan();
    expect(scan.problems).toEqual([]);
    expect(scan.skills.map((s) => s.name)).toEqual(["cron", "im", "open-app", "screen-layout", "unlock"]);
    for (const s of scan.skills) {
      expect(s.source).toBe("bundled");
      expect(s.description.length).toBeGreaterThan(20);
    }
    const im = await skills.load("im");
    expect(im).not.toMatch(/^---/);
    expect(im).toContain("send_to_clipboard");
    expect(im).toMatch(/粘贴/);
    expect(await skills.load("cron")).toContain("create_job");
  });

  it("lets a user skill shadow a bundled one and adds the user's own", async () => {
    const bundled = tempDir();
    const user = tempDir();
    skill(bundled, "unlock", doc("unlock", "Bundled unlock."));
    skill(bundled, "im", doc("im", "Bundled im."));
    skill(user, "unlock", doc("unlock", "My own unlock.", "Use the side button twice.\n"));
    skill(user, "water-plants", doc("water-plants", "Remind me about the plants."));
    const lib = new SkillLibrary({ bundledDir: bundled, userDir: user });
    expect(await lib.index()).toEqual([
      { name: "im", description: "Bundled im.", source: "bundled" },
      { name: "unlock", description: "My own unlock.", source: "user" },
      { name: "water-plants", description: "Remind me about the plants.", source: "user" },
    ]);
    expect(await lib.load("unlock")).toBe("Use the side button twice.\n");
    await expect(lib.load("nope")).rejects.toMatchObject({ code: "SKILL_NOT_FOUND" });
  });

  it("reports malformed SKILL.md files by file and field, leaves them out, keeps the rest", async () => {
    const bundled = tempDir();
    const user = tempDir();
    skill(bundled, "unlock", doc("unlock", "Bundled unlock."));
    const noFront = skill(user, "a", "just a body\n");
    const badYaml = skill(user, "b", "---\nname: [b\ndescription: x\n---\nbody\n");
    const noDesc = skill(user, "c", "---\nname: c\n---\nbody\n");
    const wrongName = skill(user, "d", doc("other", "Mismatched."));
    const badName = skill(user, "unlock", doc("Unlock!", "Broken shadow."));
    const emptyBody = skill(user, "e", doc("e", "Nothing inside.", "\n"));
    mkdirSync(join(user, "not-a-skill")); // no SKILL.md: ignored silently
    const lib = new SkillLibrary({ bundledDir: bundled, userDir: user });
    const { skills, problems } = await lib.scan();
    expect(skills.map((s) => `${s.name}:${s.source}`)).toEqual(["unlock:bundled"]);
    const byFile = new Map(problems.map((p) => [p.details.file, p]));
    const expectProblem = (file: string, field: string, message: RegExp) => {
      const p = byFile.get(file);
      expect(p).toBeInstanceOf(PiclawError);
      expect(p?.code).toBe("SKILL_INVALID");
      expect(p?.details.field).toBe(field);
      expect(p?.message).toContain(file);
      expect(p?.message).toMatch(message);
    };
    expectProblem(noFront, "front matter", /missing/);
    expectProblem(badYaml, "front matter", /not valid YAML/);
    expectProblem(noDesc, "description", /missing/);
    expectProblem(wrongName, "name", /must equal its folder name "d"/);
    expectProblem(badName, "name", /must match/);
    expectProblem(emptyBody, "body", /empty/);
    expect(problems).toHaveLength(6);
  });

  it("parses CRLF files and keeps the body verbatim", () => {
    const parsed = parseSkill(
      "---\r\nname: x\r\ndescription: Does x.\r\n---\r\nLine 1\r\n\r\nLine 2\r\n",
      "/f",
      "x",
    );
    expect(parsed).toEqual({ name: "x", description: "Does x.", body: "Line 1\r\n\r\nLine 2\r\n" });
  });

  it("treats a missing user folder as no user skills", async () => {
    const bundled = tempDir();
    skill(bundled, "im", doc("im", "Bundled im."));
    const lib = new SkillLibrary({ bundledDir: bundled, userDir: join(bundled, "missing") });
    expect((await lib.index()).map((s) => s.name)).toEqual(["im"]);
  });
});
