/**
 * Plain option types of the simulated overhead camera. A config layer maps its (validated) settings onto
 * these; nothing here validates. Colours are 8-bit sRGB values as they appear at the nominal (auto)
 * exposure, before white balance and vignetting. Distances are millimetres in bed coordinates (see
 * `src/sim/pose.ts`), angles degrees.
 */

export type Rgb = [r: number, g: number, b: number];

/** Where the camera sits and where it looks. */
export interface CameraPlacement {
  /** Optical centre above the bed: x/y on the bed, `heightMm` above the bed surface (z = 0). */
  xMm: number;
  yMm: number;
  heightMm: number;
  /**
   * Turn about the vertical, counter-clockwise seen from above. At 0 the image's right is bed +x and its
   * top is bed +y; at 90 the image's right is bed +y, so a phone lying at rotation 0 (top toward +y) has
   * its long axis along the sensor's long axis with its top at the right of the frame.
   */
  yawDeg: number;
  /** Small tilt about the image's horizontal axis (mounting error); positive looks toward the image top. */
  pitchDeg: number;
  /** Small tilt about the image's vertical axis; positive looks toward the image right. */
  rollDeg: number;
}

/** Lens and sensor of a Raspberry Pi Camera Module 3 (IMX708, 4.74 mm f/1.8). */
export interface CameraLens {
  focalLengthMm: number;
  fNumber: number;
  /** Pixel pitch at `referenceWidthPx` (2×2-binned 2304×1296 mode: 2.8 µm). */
  pixelPitchUm: number;
  /** Output width at which `pixelPitchUm` holds; the focal length in pixels scales with output width. */
  referenceWidthPx: number;
  /** Blur of a perfectly focused frame (lens + demosaic), as a Gaussian sigma in reference pixels. */
  baseBlurPx: number;
  /** Focus error left by autofocus when no lens position is given, in dioptres. */
  autofocusErrorDioptres: number;
}

/** The cutting mat on the bed and the table around it. */
export interface BedLook {
  widthMm: number;
  heightMm: number;
  color: Rgb;
  gridColor: Rgb;
  /** Minor grid pitch; every `majorEvery`-th line is a thicker major line. */
  gridSpacingMm: number;
  gridLineMm: number;
  majorEvery: number;
  /** Outside the bed. */
  surroundColor: Rgb;
  /** Darkening of the bed right next to the phone (room light blocked by the body), 0–1. */
  contactShadow: number;
}

/** Colours of the phone's body parts and how bright the emissive screen is. */
export interface PhoneLook {
  /** Black glass around the active area. */
  bezelColor: Rgb;
  /** The aluminium frame band seen at the outline and on the side walls. */
  frameColor: Rgb;
  frameWidthMm: number;
  sideColor: Rgb;
  /** Screen white as seen at nominal exposure, as a fraction of 255. */
  screenLevel: number;
  /** Room reflection on the glass: the floor a black screen never goes below (DN). */
  glassReflection: number;
  /** The panel's white point against the room light (linear per-channel factors). */
  screenTint: Rgb;
}

/** The gantry carriage that carries the stylus: a dark block with the stylus hanging below it. */
export interface CarriageLook {
  /** Side of the square block. */
  sizeMm: number;
  bottomZMm: number;
  topZMm: number;
  color: Rgb;
  sideColor: Rgb;
  stylusRadiusMm: number;
  /** Height of the stylus tip while hovering (just above the glass). */
  stylusTipZMm: number;
  stylusColor: Rgb;
  /**
   * Where the carriage waits when `carriage()` returns null (or no callback is given). The default sits
   * toward the bed's back-right, past the phone's right edge and the frame's bottom-right corner: partly
   * in frame, clear of a phone under the camera. Null hides it completely.
   */
  parkMm: { xMm: number; yMm: number } | null;
}

/** Sensor response: auto-exposure target, white balance and noise. */
export interface SensorModel {
  /** What auto exposure settles on in room light; manual settings are judged relative to this. */
  nominalShutterUs: number;
  nominalGain: number;
  minShutterUs: number;
  maxShutterUs: number;
  maxGain: number;
  /** AWB gains [red, blue] that render the room light neutral. */
  neutralAwbGains: [r: number, b: number];
  /** Linear factors [red, blue] left by auto white balance: the slight cast of AWB. */
  autoWbCast: [r: number, b: number];
  /** Read noise in DN at gain 1 (grows with gain). */
  readNoiseDn: number;
  /** Shot-noise variance per DN of signal at gain 1. */
  shotNoise: number;
  /** Residual lens shading left after the ISP's correction: 0 = none, 1 = full cos⁴ falloff. */
  vignetting: number;
}

/** A soft reflection of a room light on the glass, in frame fractions. */
export interface GlareSpot {
  xFrac: number;
  yFrac: number;
  /** Gaussian radii as fractions of the frame width. */
  radiusXFrac: number;
  radiusYFrac: number;
  /** Peak brightness added at nominal exposure, as a fraction of 255. */
  intensity: number;
}

/** Everything the simulated camera needs besides the phone, its pose and a seed. */
export interface SimCameraOptions {
  placement: CameraPlacement;
  lens: CameraLens;
  bed: BedLook;
  phone: PhoneLook;
  carriage: CarriageLook;
  sensor: SensorModel;
  /** Off (null) by default. */
  glare: GlareSpot | null;
  /** Sensor noise scale: 0 = none (tests that measure geometry), 1 = realistic. */
  noise: number;
}

/**
 * Bed of the default rig. The camera hangs over (150, 110), where the default config puts the phone's
 * screen centre, so a phone lying there fills the frame lengthwise.
 */
const BED_W = 300;
const BED_H = 220;
const CAM_X = 150;
const CAM_Y = 110;

export const DEFAULT_SIM_CAMERA_OPTIONS: SimCameraOptions = {
  placement: { xMm: CAM_X, yMm: CAM_Y, heightMm: 190, yawDeg: 90, pitchDeg: 1.5, rollDeg: -1 },
  lens: {
    focalLengthMm: 4.74,
    fNumber: 1.8,
    pixelPitchUm: 2.8,
    referenceWidthPx: 2304,
    baseBlurPx: 0.7,
    autofocusErrorDioptres: 0.03,
  },
  bed: {
    widthMm: BED_W,
    heightMm: BED_H,
    color: [62, 92, 78],
    gridColor: [150, 170, 160],
    gridSpacingMm: 10,
    gridLineMm: 0.35,
    majorEvery: 5,
    surroundColor: [38, 36, 34],
    contactShadow: 0.35,
  },
  phone: {
    bezelColor: [10, 10, 12],
    frameColor: [150, 150, 156],
    frameWidthMm: 0.9,
    sideColor: [88, 88, 94],
    screenLevel: 0.9,
    glassReflection: 9,
    screenTint: [0.96, 1, 1.05],
  },
  carriage: {
    sizeMm: 25,
    bottomZMm: 40,
    topZMm: 50,
    color: [30, 30, 33],
    sideColor: [18, 18, 20],
    stylusRadiusMm: 3,
    stylusTipZMm: 9,
    stylusColor: [70, 70, 74],
    parkMm: { xMm: CAM_X + 50, yMm: CAM_Y + 85 },
  },
  sensor: {
    nominalShutterUs: 10_000,
    nominalGain: 2,
    minShutterUs: 100,
    maxShutterUs: 100_000,
    maxGain: 16,
    neutralAwbGains: [1.9, 1.6],
    autoWbCast: [1.03, 0.97],
    readNoiseDn: 0.6,
    shotNoise: 0.02,
    vignetting: 0.35,
  },
  glare: null,
  noise: 1,
};

/** Per-frame capture settings, as rpicam's flags give them; undefined means "auto". */
export interface CaptureSettings {
  width: number;
  height: number;
  /** Exposure time in microseconds. */
  shutterUs?: number;
  /** Analogue gain. */
  gain?: number;
  /** Manual white-balance gains [red, blue]. */
  awbGains?: [r: number, b: number];
  /** Manual lens position in dioptres (0 = infinity), as `--lens-position`. */
  lensPosition?: number;
  /** JPEG quality 1–100 (default 93, rpicam-still's default). */
  quality?: number;
}
