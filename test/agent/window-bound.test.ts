import { describe, expect, it } from "vitest";
import { contextSizes } from "../../bench/agent-context.js";

/** A size, not a time: the folded prompt must stay bounded in a long session (issue 6, bench bullet). */
describe("context size over a 120-turn scripted session", () => {
  it("stays ≤25k estimated tokens at every turn ≥30 with the default policy, tool schemas included", async () => {
    const s = await contextSizes(120);
    expect(s.foldsAt).toEqual([30, 50, 70, 90, 110]);
    const afterFirstFold = s.folded.slice(29);
    expect(afterFirstFold).toHaveLength(91);
    expect(Math.max(...afterFirstFold)).toBeLessThanOrEqual(25_000);
    // Folding is what bounds it: without it the same session grows past the goal, naive far past it.
    expect(Math.max(...s.unfolded)).toBeGreaterThan(25_000);
    expect(s.naive.at(-1) as number).toBeGreaterThan(3 * (s.folded.at(-1) as number));
    // Bounded, not merely small: the last 40 turns grow no higher than the 40 before them plus a margin.
    expect(Math.max(...s.folded.slice(80))).toBeLessThan(Math.max(...s.folded.slice(40, 80)) * 1.25);
  });
});
