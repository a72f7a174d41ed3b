import { type CalibrationBundle, parseBundle } from "../../src/calibration/bundle.js";
import { phoneOwnerConfigSchema } from "../../src/rig/config.js";
import type { BedArea } from "../../src/rig/controller.js";
import { MotionController } from "../../src/rig/controller.js";
import { PhoneOwner } from "../../src/rig/owner.js";
import { resolveRigProfile } from "../../src/rig/profile.js";
import { FontBook } from "../../src/shared/fonts.js";
import { fitHomography, type Mat3 } from "../../src/shared/homography.js";
import { SimPhone, type SimPhoneOptions } from "../../src/sim/phone/index.js";
import { glassFrame, glassToBed, type PhonePose } from "../../src/sim/pose.js";
import type { PhoneToolDeps, WakeStep } from "../../src/tools/context.js";
import { invokeTool } from "../../src/tools/invoke.js";
import type { PhoneIo } from "../../src/tools/phone-io.js";
import { SimPhoneIo } from "../../src/tools/phone-io.js";
import { createPhoneTools } from "../../src/tools/phone-tools.js";
import { RigSession } from "../../src/tools/rig-session.js";
import type { AnyPhoneTool, ToolResult } from "../../src/tools/types.js";
import { ManualClock } from "../../src/util/clock.js";
import { DEFAULT_VISION_OPTIONS, VisionPipeline } from "../../src/vision/pipeline.js";
import { DirectBackend } from "../calibration/helpers.js";
import { FakeCamera } from "../fakes/camera.js";
import { quietLog } from "../fakes/log.js";
import { FakeOcrEngine } from "../fakes/ocr-engine.js";
import { cameraOver, trueScreenToCamera } from "../vision/helpers.js";

/**
 * The phone tools on a fast, deterministic rig: the real RigSession, MotionController (soft limits,
 * stylus checks) and vision pipeline, over a back-end that turns programs straight into touches on a
 * simulated phone on a hand-driven clock, a camera that renders the phone on request, and an OCR that
 * reads the phone's truth (keypad digits included). The calibration bundle is made from the sim's truth.
 */

export const POSE: PhonePose = {
  centerXMm: 150,
  centerYMm: 110,
  rotationDeg: 0,
  tiltXDeg: 0.4,
  tiltYDeg: -0.3,
};
const FRAME = { width: 1152, height: 648 };

let fonts: FontBook | null = null;

export interface FastRig {
  clock: ManualClock;
  phone: SimPhone;
  camera: FakeCamera;
  session: RigSession;
  motion: MotionController;
  tools: Map<string, AnyPhoneTool>;
  bundle: CalibrationBundle;
  /** Call a tool the way MCP does (validation, the arm's lease). */
  call(name: string, args?: unknown): Promise<ToolResult>;
}

export interface FastRigOptions {
  /** The passcode the tools type (default: the phone's own, 2468). */
  passcode?: string | null;
  phone?: Partial<SimPhoneOptions>;
  phoneIo?: PhoneIo;
  /** Default: the side button. null: tap to wake. */
  wake?: WakeStep | null;
  calibrated?: boolean;
  /** Soft limits instead of the screen plus 5 mm. */
  allowedArea?: BedArea;
}

export function fastRig(options: FastRigOptions = {}): FastRig {
  const clock = new ManualClock();
  fonts ??= new FontBook();
  const phone = new SimPhone({
    clock,
    fonts,
    locale: "en",
    passcode: "2468",
    utcOffsetMinutes: 0,
    ...options.phone,
  });
  const profile = resolveRigProfile("corexy-fluidnc", process.cwd());
  const frame = glassFrame(phone.geometry, POSE);
  const motion = new MotionController(
    new DirectBackend(phone, frame, clock, profile.park),
    profile,
    quietLog(),
  );
  const simCamera = cameraOver(phone, POSE, true);
  const camera = new FakeCamera({ source: () => simCamera.capture(FRAME), clock, ...FRAME });
  void camera.start();
  const ocr = new FakeOcrEngine({
    // Controls (keypad keys, notifications) draw their labels as glyphs: a real OCR reads them as text.
    truth: () => ({
      elements: phone
        .truth()
        .elements.map((e) => (e.kind === "control" && e.label ? { ...e, kind: "text" } : e)),
    }),
  });
  const detector = { classes: ["icon"], detect: async () => [], close: async () => {} };
  const vision = new VisionPipeline(
    { ocr, detector, fonts, clock, screenPx: phone.geometry.screenPx },
    { ...DEFAULT_VISION_OPTIONS, rectifiedWidth: 292 },
  );
  const sleep = async (ms: number) => clock.advance(ms);
  const session = new RigSession({ camera, vision, motion, clock, sleep, settleMs: 250, log: quietLog() });
  const bundle = truthBundle(phone, simCamera, frame, options.allowedArea);
  if (options.calibrated !== false) session.setCalibration(bundle);
  const passcode = options.passcode === undefined ? "2468" : options.passcode;
  const deps: PhoneToolDeps = {
    session,
    phoneIo: options.phoneIo ?? new SimPhoneIo({ phone, screenshot: () => phone.screenshot() }),
    passcode: () => passcode,
    wake:
      options.wake === undefined
        ? { description: "pressed the side button", wake: async () => phone.pressSideButton() }
        : options.wake,
    sleep,
    settleMs: 250,
  };
  const tools = new Map(createPhoneTools(deps).map((t) => [t.name, t]));
  const owner = new PhoneOwner(phoneOwnerConfigSchema.parse({}), clock);
  const call = (name: string, args: unknown = {}) => {
    const tool = tools.get(name);
    if (!tool) throw new Error(`no tool ${name}`);
    return invokeTool(tool, args, {
      owner,
      caller: { kind: "agent", label: "test" },
      priority: "local",
      signal: new AbortController().signal,
      log: quietLog(),
    });
  };
  return { clock, phone, camera, session, motion, tools, bundle, call };
}

/** A bundle whose maps are the simulator's truth (what a perfect calibration would find). */
function truthBundle(
  phone: SimPhone,
  simCamera: ReturnType<typeof cameraOver>,
  frame: ReturnType<typeof glassFrame>,
  allowed?: BedArea,
): CalibrationBundle {
  const g = phone.geometry.glassMm;
  const pairs = [
    [0, 0],
    [1, 0],
    [1, 1],
    [0, 1],
    [0.5, 0.5],
    [0.2, 0.7],
  ].map(([x = 0, y = 0]) => {
    const p = glassToBed(frame, x * g.width, y * g.height);
    return { from: { x, y }, to: { x: p.x, y: p.y } };
  });
  const screenToBed = fitHomography(pairs);
  const xs = pairs.map((p) => p.to.x);
  const ys = pairs.map((p) => p.to.y);
  const area = allowed ?? {
    minXMm: Math.min(...xs) - 5,
    minYMm: Math.min(...ys) - 5,
    maxXMm: Math.max(...xs) + 5,
    maxYMm: Math.max(...ys) + 5,
  };
  const zero = { rmsPx: 0, maxPx: 0, rmsMm: 0, maxMm: 0 };
  return parseBundle({
    version: 1,
    createdAt: new Date(0).toISOString(),
    rigProfile: "corexy-fluidnc",
    phone: { model: phone.geometry.name, glassMm: { ...g } },
    camera: {
      ...FRAME,
      screenToCamera: trueScreenToCamera(simCamera, phone, FRAME.width, FRAME.height) as Mat3,
      markers: { expected: 0, found: 0, inliers: 0 },
      reprojection: zero,
    },
    arm: { screenToBed, pairs: 6, inliers: 6, residual: { rmsMm: 0, maxMm: 0 }, allowedArea: area },
    validation: { passed: true, thresholdMm: 1, taps: [], maxErrorMm: 0 },
  });
}

/** The text parts of a result, joined. */
export function textOf(result: ToolResult): string {
  return result.content
    .filter((c) => c.type === "text")
    .map((c) => (c.type === "text" ? c.text : ""))
    .join("\n");
}

/** The listing rows of a result's last text part, as `{label, bbox}`. */
export function listingRows(result: ToolResult): { label: string; bbox: number[] }[] {
  const last = result.content.filter((c) => c.type === "text").at(-1);
  const text = last?.type === "text" ? last.text : "";
  return text.split("\n").flatMap((line) => {
    // A switch row carries its state after the label: `7 [switch] "Wi-Fi" on [...] 0.90`.
    const m = /^\d+ \[\w+\] "((?:[^"\\]|\\.)*)"(?: (?:on|off))? \[([\d.,]+)\] [\d.]+$/.exec(line);
    return m ? [{ label: m[1] ?? "", bbox: (m[2] ?? "").split(",").map(Number) }] : [];
  });
}
