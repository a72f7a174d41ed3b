import { z } from "zod";
import { num } from "../util/schema.js";

/** The `sim:` config section: the simulated world (phone, pose, camera optics, gantry). */

const notificationSchema = z.strictObject({
  afterSeconds: num(0, 86_400 * 30).describe("Seconds after start when the message arrives."),
  from: z.string().min(1).max(60).describe("Sender shown in the banner and thread."),
  text: z.string().min(1).max(500).describe("Message text."),
});

const simPhoneSchema = z
  .strictObject({
    model: z.enum(["iphone-6.1"]).default("iphone-6.1").describe("Phone geometry (6.1-inch: 1170×2532 px)."),
    locale: z.enum(["en", "zh"]).default("en").describe("UI language of the simulated phone."),
    passcode: z
      .string()
      .regex(/^\d{4,6}$/, "must be 4 to 6 digits")
      .default("1234")
      .describe("Passcode of the simulated phone (secret: never logged)."),
    utcOffsetMinutes: z
      .number()
      .int()
      .min(-14 * 60)
      .max(14 * 60)
      .optional()
      .describe(
        "Offset from UTC of the time the phone shows (minutes). Default: this machine's offset at start.",
      ),
    autoLockSeconds: num(0, 3600)
      .default(0)
      .describe("Screen sleeps after this many idle seconds (0 = never)."),
    notifications: z
      .array(notificationSchema)
      .max(100)
      .default([])
      .describe("Messages that arrive on a schedule (banner, then badge)."),
  })
  .describe("The simulated phone.");

const simPoseSchema = z
  .strictObject({
    centerXMm: num(0, 1000)
      .default(150)
      .describe("Screen centre on the bed, x (mm from the bed's left edge)."),
    centerYMm: num(0, 1000)
      .default(110)
      .describe("Screen centre on the bed, y (mm from the bed's front edge)."),
    rotationDeg: num(-10, 10)
      .default(2.5)
      .describe("Phone rotation on the bed, counter-clockwise seen from above."),
    tiltXDeg: num(-5, 5)
      .default(0.4)
      .describe("Tilt about the phone's left–right axis (positive lifts the top)."),
    tiltYDeg: num(-5, 5)
      .default(-0.3)
      .describe("Tilt about the phone's long axis (positive lifts the right edge)."),
  })
  .describe("Where the simulated phone lies on the bed.");

const glareSchema = z
  .strictObject({
    enabled: z.boolean().default(false).describe("Draw a reflected light spot."),
    xFrac: num(0, 1).default(0.62).describe("Glare centre, fraction of frame width."),
    yFrac: num(0, 1).default(0.38).describe("Glare centre, fraction of frame height."),
    radiusFrac: num(0.01, 1).default(0.09).describe("Glare radius, fraction of frame width."),
    strength: num(0, 1).default(0.55).describe("Peak added brightness (0–1)."),
  })
  .describe("Glare spot.");

const simCameraSchema = z
  .strictObject({
    width: z.number().int().min(64).max(4608).default(2304).describe("Default frame width (px)."),
    height: z.number().int().min(64).max(2592).default(1296).describe("Default frame height (px)."),
    framerate: num(0.1, 120).default(30).describe("Default frames per second of the stream."),
    heightMm: num(60, 600).default(190).describe("Camera lens height above the bed."),
    offsetXMm: num(-200, 200).default(0).describe("Camera position relative to the phone's pose centre, x."),
    offsetYMm: num(-200, 200).default(0).describe("Camera position relative to the phone's pose centre, y."),
    yawDeg: num(-180, 180)
      .default(90)
      .describe("Camera rotation about the vertical (90 = phone lengthwise on the sensor)."),
    pitchDeg: num(-15, 15).default(1.5).describe("Camera tilt (perspective), about its horizontal axis."),
    rollDeg: num(-15, 15).default(-1).describe("Camera tilt (perspective), about its vertical image axis."),
    noise: num(0, 5).default(1).describe("Sensor noise scale (0 = none, 1 = realistic)."),
    vignetting: num(0, 1).default(0.35).describe("Corner darkening strength."),
    glare: glareSchema.prefault({}),
    parkXMm: num(-500, 1500).default(200).describe("Bed x where the stylus carriage parks."),
    parkYMm: num(-500, 1500).default(195).describe("Bed y where the stylus carriage parks."),
    startDelaySeconds: num(0, 120)
      .default(0)
      .describe(
        "Seconds after the simulated rig starts before its camera delivers a frame (a cold camera module takes several); earlier captures wait until then.",
      ),
  })
  .describe("The simulated overhead camera.");

const simGantrySchema = z
  .strictObject({
    startOffsetXMm: num(-20, 20)
      .default(0)
      .describe("How far from the park spot the carriage really sits at power-on, x."),
    startOffsetYMm: num(-20, 20)
      .default(0)
      .describe("How far from the park spot the carriage really sits at power-on, y."),
  })
  .describe(
    "The simulated gantry. Its mechanics come from the rig profile, and so does its protocol: a GRBL simulator on a pty for `backend: grbl` profiles, a pigpio-shaped fake for `backend: gpio`.",
  );

export const simConfigSchema = z
  .strictObject({
    seed: z
      .number()
      .int()
      .min(0)
      .max(2 ** 31)
      .default(1)
      .describe("Seed for all simulated noise."),
    phone: simPhoneSchema.prefault({}),
    pose: simPoseSchema.prefault({}),
    camera: simCameraSchema.prefault({}),
    gantry: simGantrySchema.prefault({}),
  })
  .describe("The simulated rig (used when rig.backend is `sim`, and by `piclaw sim`).");

export type SimConfig = z.infer<typeof simConfigSchema>;
