import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { configKeyDocs, configReferenceMarkdown } from "../../../src/app/config/doc.js";
import { projectRoot } from "../../../src/util/paths.js";

describe("config reference", () => {
  it("documents every leaf key with a description", () => {
    const docs = configKeyDocs();
    expect(docs.length).toBeGreaterThan(20);
    for (const d of docs) expect(d.description, d.key).not.toBe("");
    const keys = docs.map((d) => d.key);
    expect(keys).toContain("sim.camera.glare.strength");
    expect(keys).toContain("sim.phone.notifications[].text");
    expect(docs.find((d) => d.key === "server.port")?.default).toBe("`8048`");
  });

  it("is embedded in README.md exactly as generated", () => {
    const readme = readFileSync(`${projectRoot()}/README.md`, "utf8");
    expect(readme).toContain(configReferenceMarkdown());
  });
});
