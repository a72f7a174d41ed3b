import type { Ctx } from "../context.js";
import type { Scene } from "../scene.js";
import type { AppId, PhoneState } from "../state.js";
import { buildClock, clockSummary } from "./clock.js";
import { buildDialer, phoneSummary } from "./dialer.js";
import { buildMessages, messagesBack, messagesSummary } from "./messages.js";
import { buildPlaceholder } from "./placeholder.js";
import { buildSettings, settingsBack, settingsSummary } from "./settings.js";
import { buildWeather, weatherSummary } from "./weather.js";

/** Draw the foreground app. */
export function buildApp(scene: Scene, ctx: Ctx, app: AppId): void {
  if (app === "clock") buildClock(scene, ctx);
  else if (app === "messages") buildMessages(scene, ctx);
  else if (app === "settings") buildSettings(scene, ctx);
  else if (app === "weather") buildWeather(scene, ctx);
  else if (app === "phone") buildDialer(scene, ctx);
  else buildPlaceholder(scene, ctx, app);
}

/** Human summary (English) of what the app shows, for truth().state. */
export function appSummary(
  state: PhoneState,
  app: AppId,
  nowMs: number,
  utcOffsetMinutes: number,
  locale: "en" | "zh",
): string {
  if (app === "clock") return clockSummary(state, nowMs);
  if (app === "messages") return messagesSummary(state);
  if (app === "settings") return settingsSummary(state);
  if (app === "weather") return weatherSummary(state, nowMs, utcOffsetMinutes, locale);
  if (app === "phone") return phoneSummary(state);
  return "empty app screen";
}

/** In-app back navigation (nav bar back button / left-edge swipe); false when at the app's root. */
export function appBack(state: PhoneState, app: AppId): boolean {
  if (app === "messages") return messagesBack(state);
  if (app === "settings") return settingsBack(state);
  return false;
}
