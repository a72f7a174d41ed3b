/** The phone-side bridge: the page the phone opens, its server, and adapters for the rest of PiClaw. */

export { type BridgeHandle, BridgePhoneAgent, BridgePhoneIo, type BridgePhoneIoOptions } from "./adapters.js";
export { type BridgeStatus, PhoneBridge, type PhoneBridgeDeps } from "./bridge.js";
export { type BridgeConfig, bridgeConfigSchema, bridgeFilePaths } from "./config.js";
export type { DeviceInfo, PairCode } from "./credentials.js";
export type { BridgeScreenshot, ClipboardItem } from "./state.js";
