import type { Ctx } from "../context.js";
import type { Scene } from "../scene.js";
import type { AppId, PhoneState } from "../state.js";
import { buildClock, clockSummary } from "./clock.js";
import { buildPlaceholder } from "./placeholder.js";

/** Draw the foreground app. */
export function buildApp(scene: Scene, ctx: Ctx, app: AppId): void {
  switch (app) {
    case "clock":
      return buildClock(scene, ctx);
    default:
      return buildPlaceholder(scene, ctx, app);
  }
}

/** Human summary of what the app shows, for truth().state. */
export function appSummary(state: PhoneState, app: AppId, nowMs: number): string {
  switch (app) {
    case "clock":
      return clockSummary(state, nowMs);
    default:
      return "empty app screen";
  }
}

/** In-app back navigation (nav bar back button / left-edge swipe); false when at the app's root. */
export function appBack(state: PhoneState, app: AppId): boolean {
  void state;
  void app;
  return false;
}
