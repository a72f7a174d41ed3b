/** Public surface of the simulated phone. */
export { GESTURE_THRESHOLDS, type GestureThresholds } from "./gesture-thresholds.js";
export {
  type Edge,
  type Gesture,
  GestureRecognizer,
  type LongPressGesture,
  type SwipeDirection,
  type SwipeGesture,
  type TapGesture,
  type TouchPoint,
} from "./gestures.js";
export {
  BANNER_MS,
  type PhoneTruth,
  type ScheduledNotification,
  SimPhone,
  type SimPhoneOptions,
} from "./phone.js";
export type { AppId, PhoneScreen } from "./state.js";
export { type Locale, STRINGS, type StringKey, type Strings } from "./strings.js";
export type { TouchReport } from "./touch-log.js";
