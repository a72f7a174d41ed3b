import { existsSync, readFileSync, statSync } from "node:fs";
import { z } from "zod";
import { parseBundle } from "../../calibration/bundle.js";
import { FontBook } from "../../shared/fonts.js";
import type { Mat3 } from "../../shared/homography.js";
import { IPHONE_61 } from "../../shared/phone-model.js";
import type { Clock } from "../../util/clock.js";
import { PiclawError } from "../../util/errors.js";
import { imageHeader } from "../../util/image-header.js";
import type { VisionConfig } from "../../vision/config.js";
import { createVision } from "../../vision/create.js";
import { formatListing, type ListingEntry } from "../../vision/listing.js";
import type { ScreenView } from "../../vision/pipeline.js";

/**
 * `piclaw listing IMAGE… [--json] [--camera --homography FILE]`: the listing the agent would read for a
 * phone screenshot, or for a camera frame through a screen → camera homography — no rig, no daemon, the
 * models named by the config's `vision` section. Every input is checked before the models load, so a
 * missing file, a file that is not a PNG/JPEG or a bad homography file fails at once, naming the file.
 *
 * `--json` prints `{ "image", "entries": [ { "id", "kind", "label", "box": [l,t,r,b], "conf", … } ] }`
 * per image, one line each; fields are only ever added (e.g. a switch's `state`), never renamed.
 */

export interface ListingFlags {
  json?: boolean | undefined;
  camera?: boolean | undefined;
  homography?: string | undefined;
}

/** The screen → camera map a camera frame is read through, and the screen's size in pixels. */
export interface CameraMap {
  screenToCamera: Mat3;
  screenPx: { width: number; height: number };
}

const finite = z.number().refine(Number.isFinite, "must be a finite number");
const homographyFileSchema = z.object({
  screenToCamera: z.array(finite).length(9, "must be 9 numbers (a row-major 3×3 matrix)"),
  screenPx: z
    .strictObject({ width: z.number().int().positive(), height: z.number().int().positive() })
    .optional(),
});

const det3 = (m: readonly number[]): number =>
  (m[0] ?? 0) * ((m[4] ?? 0) * (m[8] ?? 0) - (m[5] ?? 0) * (m[7] ?? 0)) -
  (m[1] ?? 0) * ((m[3] ?? 0) * (m[8] ?? 0) - (m[5] ?? 0) * (m[6] ?? 0)) +
  (m[2] ?? 0) * ((m[3] ?? 0) * (m[7] ?? 0) - (m[4] ?? 0) * (m[6] ?? 0));

/**
 * Read a homography file: JSON `{ "screenToCamera": [9 numbers], "screenPx"?: {width, height} }`, or the
 * calibration bundle `piclaw calibrate` writes (`<stateDir>/calibration/bundle.json`; its
 * `camera.screenToCamera`, the screen's aspect from `phone.glassMm`). Throws LISTING_HOMOGRAPHY_* (or
 * CALIBRATION_BUNDLE_INVALID for a bundle with a bad field), naming the file and the problem.
 */
export function readHomographyFile(path: string): CameraMap {
  const bad = (why: string): never => {
    throw new PiclawError("LISTING_HOMOGRAPHY_INVALID", `homography file ${path}: ${why}`, { path });
  };
  if (!existsSync(path))
    throw new PiclawError("LISTING_HOMOGRAPHY_MISSING", `homography file ${path} does not exist`, { path });
  let doc: unknown;
  try {
    doc = JSON.parse(readFileSync(path, "utf8"));
  } catch (err) {
    return bad(`not JSON (${(err as Error).message})`);
  }
  let map: CameraMap;
  if (typeof doc === "object" && doc !== null && "version" in doc && "camera" in doc) {
    const bundle = parseBundle(doc, path);
    const { width, height } = bundle.phone.glassMm;
    const w = IPHONE_61.screenPx.width;
    map = {
      screenToCamera: bundle.camera.screenToCamera,
      screenPx: { width: w, height: Math.round((w * height) / width) },
    };
  } else {
    const parsed = homographyFileSchema.safeParse(doc);
    if (!parsed.success) {
      const first = parsed.error.issues[0];
      return bad(
        `expected { "screenToCamera": [9 numbers] } or a calibration bundle; ${first?.path.join(".") || "(root)"}: ${first?.message}`,
      );
    }
    map = {
      screenToCamera: parsed.data.screenToCamera as Mat3,
      screenPx: parsed.data.screenPx ?? IPHONE_61.screenPx,
    };
  }
  if (!(Math.abs(det3(map.screenToCamera)) > 1e-12))
    bad("screenToCamera is singular (maps the screen to a line)");
  return map;
}

/** Read an input image's bytes, refusing what is not there or not a PNG/JPEG, by name. */
function readImage(path: string): Buffer {
  if (!existsSync(path))
    throw new PiclawError("LISTING_IMAGE_MISSING", `image ${path} does not exist`, { path });
  if (statSync(path).isDirectory())
    throw new PiclawError("LISTING_NOT_AN_IMAGE", `${path} is a directory, not an image`, { path });
  const bytes = readFileSync(path);
  if (imageHeader(bytes) === null)
    throw new PiclawError("LISTING_NOT_AN_IMAGE", `${path} is not a PNG or JPEG image`, { path });
  return bytes;
}

const r4 = (v: number): number => Math.round(v * 1e4) / 1e4;

/** One entry as JSON: the fixed fields first, then whatever else the entry carries (e.g. `state`). */
export function entryJson(e: ListingEntry): Record<string, unknown> {
  const { id, kind, label, box, conf, ...rest } = e;
  return { id, kind, label, box: box.map(r4), conf: Math.round(conf * 1000) / 1000, ...rest };
}

export async function listingCommand(
  images: readonly string[],
  flags: ListingFlags,
  deps: { config: { vision: VisionConfig }; clock: Clock; write: (text: string) => void },
): Promise<number> {
  if (images.length === 0)
    throw new PiclawError("USAGE", "listing needs at least one IMAGE (try piclaw listing --help)");
  if (flags.camera && !flags.homography)
    throw new PiclawError("USAGE", "--camera needs --homography FILE (the screen → camera map)");
  if (flags.homography && !flags.camera)
    throw new PiclawError("USAGE", "--homography is for camera frames: add --camera");
  const map = flags.homography ? readHomographyFile(flags.homography) : null;
  const inputs = images.map((path) => ({ path, bytes: readImage(path) }));
  const vision = await createVision(deps.config, {
    fonts: new FontBook(),
    clock: deps.clock,
    screenPx: map?.screenPx ?? IPHONE_61.screenPx,
  });
  try {
    for (const { path, bytes } of inputs) {
      let view: ScreenView;
      try {
        view = map
          ? await vision.pipeline.fromCamera(bytes, map.screenToCamera)
          : await vision.pipeline.fromScreenshot(bytes);
      } catch (err) {
        if (err instanceof PiclawError && err.code === "VISION_DECODE")
          throw new PiclawError(
            "LISTING_NOT_AN_IMAGE",
            `${path} could not be decoded as an image`,
            { path },
            { cause: err },
          );
        if (err instanceof PiclawError)
          throw new PiclawError(err.code, `${path}: ${err.message}`, { path }, { cause: err });
        throw err;
      }
      if (flags.json)
        deps.write(`${JSON.stringify({ image: path, entries: view.entries.map(entryJson) })}\n`);
      else deps.write(`${images.length > 1 ? `# ${path}\n` : ""}${formatListing(view.entries)}\n`);
    }
  } finally {
    await vision.close();
  }
  return 0;
}
