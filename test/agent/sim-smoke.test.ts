import { afterEach, describe, expect, it } from "vitest";
import { closing, type RecordedRequest, turn } from "../fakes/openai-server.js";
import { fastRig } from "../tools/fast-rig.js";
import { type Harness, harness, WAKE } from "./harness.js";

let h: Harness | null = null;
afterEach(async () => {
  await h?.server.stop();
  h = null;
});

/** The box of the newest listing row labelled `label` in what the model was sent. */
function boxOf(request: RecordedRequest, label: string): number[] | null {
  const texts = request.body.messages.flatMap((m) =>
    typeof m.content === "string"
      ? [m.content]
      : Array.isArray(m.content)
        ? m.content.map((p: { text?: string }) => p.text ?? "")
        : [],
  );
  for (const text of texts.reverse()) {
    for (const line of text.split("\n")) {
      const m = /^\d+ \[\w+\] "([^"]*)" \[([\d.,]+)\]/.exec(line);
      if (m?.[1] === label) return (m[2] ?? "").split(",").map(Number);
    }
  }
  return null;
}

describe("the loop on the real phone tools (fast sim rig)", () => {
  it("unlocks, finds Clock in the listing, opens it and closes DONE; images travel in user messages", async () => {
    const rig = fastRig();
    h = await harness({ clock: rig.clock, phoneTools: [...rig.tools.values()] });
    h.server.enqueue(turn("wake and unlock the phone", "unlock_phone"));
    h.server.setPolicy((request) => {
      const box = boxOf(request, "Clock");
      if (rig.phone.truth().app === "clock") return closing("DONE", "Clock is open");
      if (!box) return turn("look for the Clock app", "peek");
      return turn("open the Clock app", "tap", { bbox: box });
    });
    const outcome = await h.runner.run(WAKE, new AbortController().signal);
    expect(outcome.status).toBe("DONE");
    expect(rig.phone.truth().app).toBe("clock");
    expect(h.ofType("tool_end").find((e) => e.name === "tap")?.verdict).toBe("changed");
    // Screens reach the model as image parts, in user messages only.
    const last = h.server.requests.at(-1)?.body.messages ?? [];
    const imageCarriers = last.filter(
      (m) => Array.isArray(m.content) && m.content.some((p: { type: string }) => p.type === "image_url"),
    );
    expect(imageCarriers.length).toBeGreaterThan(0);
    expect(imageCarriers.every((m) => m.role === "user")).toBe(true);
    expect(h.transcriptIssues()).toEqual([]);
  }, 60_000);
});
