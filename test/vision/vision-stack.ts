import { afterAll, beforeAll } from "vitest";
import { parseConfig } from "../../src/app/config/load.js";
import { IPHONE_61 } from "../../src/shared/phone-model.js";
import { createVision, type VisionStack } from "../../src/vision/create.js";
import { fonts } from "../sim/phone/helpers.js";

/**
 * The vision stack a Pi runs (default config, real models), opened before the calling `describe`'s tests
 * and closed after them; for suites that run screenshots or camera frames through the whole pipeline. Call it in the
 * `describe` body; the returned getter throws when used outside the suite's tests.
 */
export function defaultVisionStack(): () => VisionStack {
  let vision: VisionStack | undefined;
  beforeAll(async () => {
    vision = await createVision(parseConfig({}), {
      fonts,
      clock: { now: () => performance.now() },
      screenPx: IPHONE_61.screenPx,
    });
  });
  afterAll(async () => {
    await vision?.close();
  });
  return () => {
    if (!vision) throw new Error("the vision stack is open only inside the suite's tests");
    return vision;
  };
}
