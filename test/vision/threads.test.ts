import { describe, expect, it } from "vitest";
import { inferenceThreads, MAX_AUTO_THREADS } from "../../src/vision/threads.js";

describe("inferenceThreads", () => {
  it("takes a configured count as is", () => {
    expect(inferenceThreads(1, 8)).toBe(1);
    expect(inferenceThreads(6, 2)).toBe(6);
  });
  it("gives one thread per core for 0, capped, never none", () => {
    expect(inferenceThreads(0, 2)).toBe(2);
    expect(inferenceThreads(0, 4)).toBe(4);
    expect(inferenceThreads(0, 64)).toBe(MAX_AUTO_THREADS);
    expect(inferenceThreads(0, 0)).toBe(1);
  });
});
