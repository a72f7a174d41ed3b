import { gaussian, seededRandom } from "../../util/random.js";
import type { CameraLens, CaptureSettings, Rgb, SensorModel } from "./options.js";

/**
 * What the sensor and ISP do to the light: exposure and white balance (as gamma-domain factors, since
 * the scene is described in sRGB values at the nominal exposure), focus blur, vignetting and noise.
 */

/** sRGB-ish display gamma: scaling linear light by m scales an encoded value by m^(1/γ). */
const GAMMA = 2.2;

export interface Exposure {
  shutterUs: number;
  gain: number;
  /** Linear light multiplier relative to the nominal auto exposure. */
  multiplier: number;
}

/**
 * Resolve shutter and gain the way libcamera's AGC does: what is fixed stays fixed and the other one
 * chases the nominal exposure within its limits (so a long manual shutter with auto gain still gets
 * brighter once the gain bottoms out at 1).
 */
export function resolveExposure(settings: CaptureSettings, sensor: SensorModel): Exposure {
  const target = sensor.nominalShutterUs * sensor.nominalGain;
  const clamp = (x: number, lo: number, hi: number): number => Math.min(hi, Math.max(lo, x));
  let shutterUs: number;
  let gain: number;
  if (settings.shutterUs !== undefined && settings.gain !== undefined) {
    shutterUs = settings.shutterUs;
    gain = settings.gain;
  } else if (settings.shutterUs !== undefined) {
    shutterUs = settings.shutterUs;
    gain = clamp(target / shutterUs, 1, sensor.maxGain);
  } else if (settings.gain !== undefined) {
    gain = settings.gain;
    shutterUs = clamp(target / gain, sensor.minShutterUs, sensor.maxShutterUs);
  } else {
    shutterUs = sensor.nominalShutterUs;
    gain = sensor.nominalGain;
  }
  return { shutterUs, gain, multiplier: (shutterUs * gain) / target };
}

/** Linear white-balance factors per channel (room light renders neutral at the neutral gains). */
export function whiteBalance(settings: CaptureSettings, sensor: SensorModel): Rgb {
  if (settings.awbGains === undefined) return [sensor.autoWbCast[0], 1, sensor.autoWbCast[1]];
  return [
    settings.awbGains[0] / sensor.neutralAwbGains[0],
    1,
    settings.awbGains[1] / sensor.neutralAwbGains[1],
  ];
}

/** Gamma-domain channel factors for a surface whose linear colour is scaled by `tint`. */
export function channelGains(multiplier: number, wb: Rgb, tint: Rgb = [1, 1, 1]): Rgb {
  const f = (c: 0 | 1 | 2): number => (multiplier * wb[c] * tint[c]) ** (1 / GAMMA);
  return [f(0), f(1), f(2)];
}

/**
 * Gaussian sigma of the whole-frame blur in output pixels: the lens's base blur plus the circle of
 * confusion from focusing at `lensPosition` dioptres while the glass sits at `inFocusDioptres`.
 * Thin lens: blur diameter on the sensor ≈ aperture · f · |ΔD| (D in 1/m, hence the /1000).
 */
export function blurSigmaPx(
  lens: CameraLens,
  widthPx: number,
  inFocusDioptres: number,
  lensPosition: number | undefined,
): number {
  const scale = widthPx / lens.referenceWidthPx;
  const focus = lensPosition ?? inFocusDioptres + lens.autofocusErrorDioptres;
  const aperture = lens.focalLengthMm / lens.fNumber;
  const cocMm = (aperture * lens.focalLengthMm * Math.abs(focus - inFocusDioptres)) / 1000;
  const cocPx = (cocMm / (lens.pixelPitchUm / 1000)) * scale;
  // A uniform disc of diameter d has a per-axis standard deviation of d/4.
  const defocus = cocPx / 4;
  const base = lens.baseBlurPx * scale;
  const sigma = Math.sqrt(base * base + defocus * defocus);
  // libvips (sharp 0.35) takes ~8× longer for sigmas in about 0.57–0.63 than just outside that band;
  // a hundredth of a pixel more blur is invisible, the time is not.
  return sigma > 0.56 && sigma < 0.64 ? 0.64 : sigma;
}

/**
 * Residual lens shading as a gamma-domain factor: 1 − s·(1 − cos⁴θ), θ the field angle. It depends on
 * the squared distance from the centre only, so a small table indexed by r² replaces a per-pixel map
 * (12 MB of reads per 2304×1296 frame).
 */
export interface Vignette {
  dx2: Float64Array;
  dy2: Float64Array;
  /** Table index per px² of r². */
  scale: number;
  lut: Float32Array;
}

const VIGNETTE_STEPS = 4096;

export function vignetteTable(width: number, height: number, focalPx: number, strength: number): Vignette {
  const dx2 = new Float64Array(width);
  const dy2 = new Float64Array(height);
  for (let x = 0; x < width; x++) dx2[x] = (x + 0.5 - width / 2) ** 2;
  for (let y = 0; y < height; y++) dy2[y] = (y + 0.5 - height / 2) ** 2;
  const maxR2 = (width / 2) ** 2 + (height / 2) ** 2;
  const scale = VIGNETTE_STEPS / maxR2;
  const lut = new Float32Array(VIGNETTE_STEPS + 2);
  const f2 = focalPx * focalPx;
  for (let i = 0; i < lut.length; i++) {
    const c2 = f2 / (f2 + (i + 0.5) / scale);
    lut[i] = (1 - strength * (1 - c2 * c2)) ** (1 / GAMMA);
  }
  return { dx2, dy2, scale, lut };
}

/** The vignetting factor at pixel (x, y). */
export function vignetteAt(v: Vignette, x: number, y: number): number {
  return v.lut[(((v.dx2[x] ?? 0) + (v.dy2[y] ?? 0)) * v.scale) | 0] ?? 1;
}

/** 1024 standard-normal samples; a pixel picks three of them with a hash, so noise costs no logs. */
export function gaussianTable(seed: number): Float32Array {
  const random = seededRandom(seed ^ 0x5bd1e995);
  const table = new Float32Array(1024);
  for (let i = 0; i < table.length; i++) table[i] = gaussian(random);
  return table;
}

/**
 * Add shot + read noise in place. σ² = (read·gain)² + shot·gain·value per channel. The per-pixel hash
 * of (index, frameSeed) makes the noise a pure function of the seed and frame index. A per-frame table
 * of every (value, gaussian sample) outcome turns each channel into one lookup.
 */
export function addSensorNoise(
  data: Uint8Array,
  sensor: SensorModel,
  gain: number,
  scale: number,
  frameSeed: number,
  table: Float32Array,
): void {
  const outcomes = new Uint8ClampedArray(256 * 1024);
  const read = sensor.readNoiseDn * gain;
  for (let v = 0; v < 256; v++) {
    const sigma = scale * Math.sqrt(read * read + sensor.shotNoise * gain * v);
    for (let k = 0; k < 1024; k++) outcomes[(v << 10) | k] = v + (table[k] ?? 0) * sigma;
  }
  const n = data.length - 2;
  for (let i = 0, p = 0; i < n; i += 3, p++) {
    let h = (Math.imul(p, 0x9e3779b1) + frameSeed) | 0;
    h ^= h >>> 16;
    h = Math.imul(h, 0x85ebca6b);
    h ^= h >>> 13;
    h = Math.imul(h, 0xc2b2ae35);
    h ^= h >>> 16;
    data[i] = outcomes[((data[i] ?? 0) << 10) | (h & 1023)] ?? 0;
    data[i + 1] = outcomes[((data[i + 1] ?? 0) << 10) | ((h >>> 10) & 1023)] ?? 0;
    data[i + 2] = outcomes[((data[i + 2] ?? 0) << 10) | ((h >>> 20) & 1023)] ?? 0;
  }
}
