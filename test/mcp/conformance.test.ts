import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { projectRoot } from "../../src/util/paths.js";
import { type StartedMcp, startMcp } from "./helpers.js";

/**
 * The official MCP conformance suite (@modelcontextprotocol/conformance 0.1.16, server mode, active
 * suite) against the endpoint started in-process with the 12 fake phone tools.
 *
 * Revisions: 0.1.16 knows 2025-06-18 and 2025-11-25 (its client is the v1 SDK, so it exercises the
 * stateless legacy path). It has no 2026-07-28 scenarios (`--spec-version 2026-07-28` is refused);
 * the last test here notices when an upgraded suite learns it. 2026-07-28 is covered by
 * endpoint.test.ts with the SDK's v2 client pinned to that revision.
 *
 * Excluded scenarios and why (each must still fail exactly for that reason, so the list stays true):
 */
const EXCLUDED: Record<string, { reason: string; error: RegExp }> = {
  "logging-set-level": {
    reason: "no logging capability (deprecated in 2026-07-28, SEP-2577)",
    error: /Method not found/,
  },
  "tools-call-with-logging": {
    reason: "needs fixture tool and logging capability",
    error: /Method not found|not found/,
  },
  "completion-complete": {
    reason: "no prompts/resources, so no completions capability",
    error: /Method not found/,
  },
  "resources-list": { reason: "the server offers no resources", error: /Method not found/ },
  "resources-read-text": { reason: "no resources", error: /Method not found/ },
  "resources-read-binary": { reason: "no resources", error: /Method not found/ },
  "resources-templates-read": { reason: "no resources", error: /Method not found/ },
  "resources-subscribe": { reason: "no resources", error: /Method not found/ },
  "resources-unsubscribe": { reason: "no resources", error: /Method not found/ },
  "prompts-list": { reason: "the server offers no prompts", error: /Method not found/ },
  "prompts-get-simple": { reason: "no prompts", error: /Method not found/ },
  "prompts-get-with-args": { reason: "no prompts", error: /Method not found/ },
  "prompts-get-embedded-resource": { reason: "no prompts", error: /Method not found/ },
  "prompts-get-with-image": { reason: "no prompts", error: /Method not found/ },
  "tools-call-simple-text": { reason: "fixture tool test_simple_text", error: /Tool test_\w+ not found/ },
  "tools-call-image": { reason: "fixture tool test_image_content", error: /Tool test_\w+ not found/ },
  "tools-call-audio": { reason: "fixture tool test_audio_content", error: /Tool test_\w+ not found/ },
  "tools-call-embedded-resource": {
    reason: "fixture tool test_embedded_resource",
    error: /Tool test_\w+ not found/,
  },
  "tools-call-mixed-content": {
    reason: "fixture tool test_multiple_content_types",
    error: /Tool test_\w+ not found/,
  },
  "tools-call-error": { reason: "fixture tool test_error_handling", error: /Tool test_\w+ not found/ },
  "tools-call-with-progress": {
    reason: "fixture tool test_tool_with_progress",
    error: /Tool test_\w+ not found/,
  },
  "tools-call-sampling": {
    reason: "fixture tool test_sampling (sampling is not used)",
    error: /Tool test_\w+ not found/,
  },
  "tools-call-elicitation": { reason: "fixture tool test_elicitation", error: /Tool test_\w+ not found/ },
  "elicitation-sep1034-defaults": {
    reason: "fixture tool test_elicitation_sep1034_defaults",
    error: /Tool test_\w+ not found/,
  },
  "elicitation-sep1330-enums": {
    reason: "fixture tool test_elicitation_sep1330_enums",
    error: /Tool test_\w+ not found/,
  },
};

interface Check {
  id: string;
  status: "SUCCESS" | "FAILURE" | "WARNING" | "INFO" | "SKIPPED";
  errorMessage?: string;
}

function runSuite(args: string[], cwd: string): Promise<{ code: number | null; out: string }> {
  const root = projectRoot();
  const child = spawn(
    process.execPath,
    [
      "--import",
      join(root, "test/mcp/conformance/node20-loader.mjs"),
      join(root, "node_modules/@modelcontextprotocol/conformance/dist/index.js"),
      "server",
      ...args,
    ],
    { cwd, stdio: ["ignore", "pipe", "pipe"] },
  );
  let out = "";
  child.stdout.on("data", (c: Buffer) => {
    out += c.toString("utf8");
  });
  child.stderr.on("data", (c: Buffer) => {
    out += c.toString("utf8");
  });
  return new Promise((resolve) => child.on("exit", (code) => resolve({ code, out })));
}

/** Scenario name → its checks, from the results folders (`server-<scenario>-<timestamp>`). */
function readResults(dir: string): Map<string, Check[]> {
  const results = new Map<string, Check[]>();
  for (const entry of readdirSync(dir)) {
    const scenario = /^server-(.+)-\d{4}-\d\d-\d\dT/.exec(entry)?.[1];
    if (!scenario) continue;
    results.set(scenario, JSON.parse(readFileSync(join(dir, entry, "checks.json"), "utf8")) as Check[]);
  }
  return results;
}

let started: StartedMcp | null = null;
beforeAll(async () => {
  started = await startMcp();
});
afterAll(async () => {
  await started?.stop();
});

describe.each(["2025-11-25", "2025-06-18"])("MCP conformance suite, spec %s", (spec) => {
  it("passes every scenario that applies to a server without the suite's fixture tools", async () => {
    if (!started) throw new Error("not started");
    const dir = mkdtempSync(join(tmpdir(), "piclaw-conformance-"));
    const { out } = await runSuite(["--url", started.mcpUrl, "--spec-version", spec, "-o", dir], dir);
    const results = readResults(dir);
    expect(results.size, out.slice(-2000)).toBeGreaterThan(10);

    const passed: string[] = [];
    const failedUnexpectedly: string[] = [];
    const excludedStillTrue: string[] = [];
    for (const [scenario, checks] of results) {
      const failures = checks.filter((c) => c.status === "FAILURE");
      const excluded = EXCLUDED[scenario];
      if (excluded) {
        const why = failures.map((f) => f.errorMessage ?? "").join(" | ");
        if (failures.length > 0 && excluded.error.test(why)) excludedStillTrue.push(scenario);
        else failedUnexpectedly.push(`${scenario}: excluded (${excluded.reason}) but now ${why || "passes"}`);
      } else if (failures.length === 0) {
        passed.push(
          `${scenario} (${checks.filter((c) => c.status === "SUCCESS").length} ok, ${checks.filter((c) => c.status === "WARNING").length} warnings)`,
        );
      } else {
        failedUnexpectedly.push(
          `${scenario}: ${failures.map((f) => `${f.id}: ${f.errorMessage}`).join("; ")}`,
        );
      }
    }
    process.stdout.write(
      `conformance ${spec}: passed ${passed.length}: ${passed.join(", ")}; excluded ${excludedStillTrue.length}\n`,
    );
    expect(failedUnexpectedly).toEqual([]);
    expect(passed.map((p) => p.split(" ")[0])).toEqual(
      expect.arrayContaining(["server-initialize", "ping", "tools-list"]),
    );
    if (spec === "2025-11-25")
      expect(passed.map((p) => p.split(" ")[0])).toContain("dns-rebinding-protection");
  });
});

it("the pinned suite has no 2026-07-28 scenarios yet (when this fails, add 2026-07-28 above)", async () => {
  if (!started) throw new Error("not started");
  const dir = mkdtempSync(join(tmpdir(), "piclaw-conformance-"));
  const { code, out } = await runSuite(
    ["--url", started.mcpUrl, "--spec-version", "2026-07-28", "-o", dir],
    dir,
  );
  expect(code).not.toBe(0);
  expect(out).toContain("Unknown spec version: 2026-07-28");
});
