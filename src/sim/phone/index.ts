/** Public surface of the simulated phone. */
export type { SwipeGesture } from "./gestures.js";
export {
  BANNER_MS,
  type PhoneTruth,
  type ScheduledNotification,
  SimPhone,
  type SimPhoneOptions,
} from "./phone.js";
export type { TouchReport } from "./touch-log.js";
