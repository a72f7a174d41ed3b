import sharp from "sharp";
import type { RawImage } from "../../shared/image.js";
import { PiclawError } from "../../util/errors.js";
import type { PhonePose } from "../pose.js";
import type { ScreenSource } from "../types.js";
import { type CameraView, cameraView } from "./optics.js";
import type { CaptureSettings, SimCameraOptions } from "./options.js";
import { drawCarriage, drawGlare } from "./overlays.js";
import { type PrefilteredScreen, renderScene } from "./scene.js";
import {
  addSensorNoise,
  blurSigmaPx,
  channelGains,
  gaussianTable,
  resolveExposure,
  type Vignette,
  vignetteTable,
  whiteBalance,
} from "./sensor.js";

/** Bed position of the carriage, or null when it is parked. */
export type CarriagePosition = { xMm: number; yMm: number } | null;

/**
 * A screen source may expose a version that changes whenever its pixels do; the camera then skips
 * `renderScreen()` (and the prefilter) while the version stays the same. Without one, the camera
 * compares the identity of the returned RawImage.
 */
export interface VersionedScreenSource extends ScreenSource {
  readonly screenVersion?: number;
}

export interface SimCameraInit {
  source: VersionedScreenSource;
  pose: PhonePose;
  camera: SimCameraOptions;
  /** Seed of the sensor noise; with the frame index it fixes every byte of a frame. */
  seed: number;
  /** Where the stylus carriage is now; null (or no callback) parks it at `camera.carriage.parkMm`. */
  carriage?: () => CarriagePosition;
}

/** Largest output of the IMX708 (full-resolution mode). */
const MAX_WIDTH = 4608;
const MAX_HEIGHT = 2592;
const DEFAULT_QUALITY = 93;

interface ScreenCache {
  raw: RawImage;
  version: number | undefined;
  screen: PrefilteredScreen;
}

function checkSettings(s: CaptureSettings): void {
  const bad = (field: string, why: string): never => {
    throw new PiclawError("CAMERA_SETTINGS_INVALID", `capture setting ${field} ${why}`, { field });
  };
  const positive = (field: string, v: number | undefined): void => {
    if (v !== undefined && !(Number.isFinite(v) && v > 0)) bad(field, `must be a positive number, got ${v}`);
  };
  if (!Number.isInteger(s.width) || s.width < 2 || s.width > MAX_WIDTH)
    bad("width", `must be an integer in 2..${MAX_WIDTH}, got ${s.width}`);
  if (!Number.isInteger(s.height) || s.height < 2 || s.height > MAX_HEIGHT)
    bad("height", `must be an integer in 2..${MAX_HEIGHT}, got ${s.height}`);
  positive("shutterUs", s.shutterUs);
  positive("gain", s.gain);
  positive("awbGains[0]", s.awbGains?.[0]);
  positive("awbGains[1]", s.awbGains?.[1]);
  if (s.lensPosition !== undefined && !(Number.isFinite(s.lensPosition) && s.lensPosition >= 0))
    bad("lensPosition", `must be a number ≥ 0, got ${s.lensPosition}`);
  if (s.quality !== undefined && !(Number.isInteger(s.quality) && s.quality >= 1 && s.quality <= 100))
    bad("quality", `must be an integer in 1..100, got ${s.quality}`);
}

/** Mix seed and frame index into a 32-bit noise seed (murmur3 finaliser). */
function frameSeed(seed: number, frameIndex: number): number {
  let h = (Math.imul(seed | 0, 0x27d4eb2d) ^ Math.imul(frameIndex + 1, 0x165667b1)) | 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return (h ^ (h >>> 16)) | 0;
}

/**
 * The simulated overhead camera: renders what the Camera Module 3 would see of the phone on the bed,
 * through the ISP, as RGB or JPEG. Satisfies the rpicam stand-ins' `FrameSource`.
 */
export class SimCamera {
  private readonly source: VersionedScreenSource;
  private readonly options: SimCameraOptions;
  private readonly seed: number;
  private readonly carriage: (() => CarriagePosition) | undefined;
  private currentPose: PhonePose;
  private nextFrame = 0;
  private screenCache: ScreenCache | null = null;
  private vignetteCache: { key: string; table: Vignette } | null = null;
  private noiseTable: Float32Array | null = null;
  private sceneCache: {
    key: string;
    screen: PrefilteredScreen;
    options: SimCameraOptions;
    data: Buffer;
  } | null = null;

  constructor(init: SimCameraInit) {
    this.source = init.source;
    this.currentPose = init.pose;
    this.options = init.camera;
    this.seed = init.seed;
    this.carriage = init.carriage;
  }

  get pose(): PhonePose {
    return this.currentPose;
  }

  /** Move the phone (the agent may nudge it); later frames see the new pose. */
  setPose(pose: PhonePose): void {
    this.currentPose = pose;
  }

  /** Index the next capture without an explicit index will use. */
  get frameIndex(): number {
    return this.nextFrame;
  }

  /** The projective model of a `width`×`height` frame at the current pose (for tests and calibration). */
  view(width: number, height: number): CameraView {
    return cameraView({
      placement: this.options.placement,
      lens: this.options.lens,
      geometry: this.source.geometry,
      pose: this.currentPose,
      width,
      height,
    });
  }

  /** One JPEG frame. */
  async capture(settings: CaptureSettings): Promise<Buffer> {
    const raw = await this.captureRaw(settings);
    return sharp(raw.data, { raw: { width: raw.width, height: raw.height, channels: 3 } })
      .jpeg({ quality: settings.quality ?? DEFAULT_QUALITY, chromaSubsampling: "4:2:0" })
      .toBuffer();
  }

  /** One RGB frame as the ISP hands it over before JPEG encoding. */
  async captureRaw(settings: CaptureSettings, frameIndex?: number): Promise<RawImage> {
    checkSettings(settings);
    const index = frameIndex ?? this.nextFrame;
    if (frameIndex === undefined) this.nextFrame++;
    const { width, height } = settings;
    const o = this.options;
    const view = this.view(width, height);
    const screen = await this.prefilteredScreen(view);

    const exposure = resolveExposure(settings, o.sensor);
    const wb = whiteBalance(settings, o.sensor);
    const gain = channelGains(exposure.multiplier, wb);
    const screenGain = channelGains(exposure.multiplier, wb, o.phone.screenTint);
    const vignette = this.vignette(view, o.sensor.vignetting);

    const buf = Buffer.allocUnsafe(width * height * 3);
    const out = new Uint8ClampedArray(buf.buffer, buf.byteOffset, buf.length);
    // While the screen, pose and exposure stay the same (most frames of a stream), the phone-and-bed
    // pass gives the same pixels: reuse them and redo only the carriage, glare, blur and noise.
    const key = JSON.stringify([width, height, this.currentPose, gain, screenGain, o.sensor.vignetting]);
    const scene = this.sceneCache;
    if (scene !== null && scene.key === key && scene.screen === screen && scene.options === o) {
      scene.data.copy(buf);
    } else {
      const geometry = this.source.geometry;
      renderScene({
        view,
        geometry,
        bed: o.bed,
        phone: o.phone,
        screen,
        gain,
        screenGain,
        vignette,
        out: buf,
      });
      this.sceneCache = { key, screen, options: o, data: Buffer.from(buf) };
    }
    const target = { view, out, gain, vignette };
    const at = this.carriage?.() ?? o.carriage.parkMm;
    if (at !== null) drawCarriage(target, o.carriage, at);
    if (o.glare !== null) drawGlare(target, o.glare);

    const sigma = blurSigmaPx(o.lens, width, 1000 / view.glassDistanceMm, settings.lensPosition);
    let data: Buffer = buf;
    if (sigma >= 0.3) {
      data = await sharp(buf, { raw: { width, height, channels: 3 } })
        .blur({ sigma, precision: "integer" })
        .raw()
        .toBuffer();
    }
    if (o.noise > 0) {
      this.noiseTable ??= gaussianTable(this.seed);
      const seed = frameSeed(this.seed, index);
      addSensorNoise(data, o.sensor, exposure.gain, o.noise, seed, this.noiseTable);
    }
    return { width, height, channels: 3, data };
  }

  private vignette(view: CameraView, strength: number): Vignette | null {
    if (strength <= 0) return null;
    const key = `${view.width}x${view.height}:${view.focalPx}:${strength}`;
    if (this.vignetteCache?.key !== key)
      this.vignetteCache = { key, table: vignetteTable(view.width, view.height, view.focalPx, strength) };
    return this.vignetteCache.table;
  }

  /**
   * The screen resized (area-averaged) to about its size in the frame, so fine text does not alias when
   * sampled bilinearly. Cached while the source's version or RawImage object and the size stay the same.
   */
  private async prefilteredScreen(view: CameraView): Promise<PrefilteredScreen> {
    const g = this.source.geometry;
    const framePxPerMm = view.focalPx / view.glassDistanceMm;
    const screenPxPerMm = g.screenPx.width / g.glassMm.width;
    // Quantise the scale so small pose changes do not force a new resize.
    const scale = Math.min(1, Math.ceil((framePxPerMm / screenPxPerMm) * 64) / 64);
    const version = this.source.screenVersion;
    const cache = this.screenCache;
    const sizeOk = (s: PrefilteredScreen, raw: RawImage): boolean =>
      s.width === Math.max(2, Math.round(raw.width * scale)) &&
      s.height === Math.max(2, Math.round(raw.height * scale));
    if (
      cache !== null &&
      version !== undefined &&
      cache.version === version &&
      sizeOk(cache.screen, cache.raw)
    )
      return cache.screen;
    const raw = await this.source.renderScreen();
    if (cache !== null && cache.raw === raw && cache.version === version && sizeOk(cache.screen, raw))
      return cache.screen;
    const w = Math.max(2, Math.round(raw.width * scale));
    const h = Math.max(2, Math.round(raw.height * scale));
    let img = sharp(raw.data, { raw: { width: raw.width, height: raw.height, channels: raw.channels } });
    if (raw.channels === 4) img = img.removeAlpha();
    if (w !== raw.width || h !== raw.height) img = img.resize(w, h, { fit: "fill", kernel: "lanczos3" });
    const data = await img.raw().toBuffer();
    const screen: PrefilteredScreen = { width: w, height: h, data };
    this.screenCache = { raw, version, screen };
    return screen;
  }
}
