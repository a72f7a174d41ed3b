import type { RawImage } from "../../shared/image.js";
import type { PhoneGeometry } from "../../shared/phone-model.js";
import { PiclawError } from "../../util/errors.js";
import type { PhonePose } from "../pose.js";
import type { CaptureSettings, SimCameraOptions } from "./options.js";
import type { FrameSource } from "./rpicam-cli.js";
import { type CarriagePosition, SimCamera, type VersionedScreenSource } from "./sim-camera.js";

/**
 * What the simulated camera needs to film the world, handed over by whoever owns the world (the
 * daemon's SimRig) so the frames can be rendered somewhere else — in the rpicam stand-in's own process,
 * off the daemon's event loop. Everything that changes the image is here: the screen (pixels only when
 * its version differs from the one the renderer already has), the carriage, the phone's pose, and once
 * per renderer the fixed setup (camera options, noise seed, phone geometry).
 */
export interface SceneSnapshot {
  /** Version of the phone's screen; the same version always means the same pixels. */
  screenVersion: number;
  /** The screen's pixels, present when the asker did not name `screenVersion` as the one it has. */
  screen?: RawImage;
  carriage: CarriagePosition;
  pose: PhonePose;
  /** Present when asked for (the renderer's first snapshot). */
  setup?: SceneSetup;
}

/** The parts of the camera that never change while the world runs. */
export interface SceneSetup {
  camera: SimCameraOptions;
  seed: number;
  geometry: PhoneGeometry;
}

/** Asks the world for a snapshot; `haveScreen` is the screen version the asker holds (null: none yet). */
export type SnapshotFetch = (query: { haveScreen: number | null; setup: boolean }) => Promise<SceneSnapshot>;

/**
 * Wire form: 4-byte big-endian length of a JSON header, the header (the snapshot without pixel data),
 * then the screen's raw pixels if any. Raw pixels cost the world's owner a buffer write, where PNG
 * would cost it an encode on the very event loop this hand-over keeps free.
 */
export function encodeSnapshot(s: SceneSnapshot): Buffer {
  const { screen, ...rest } = s;
  const header = Buffer.from(
    JSON.stringify({
      ...rest,
      ...(screen
        ? { screen: { width: screen.width, height: screen.height, channels: screen.channels } }
        : {}),
    }),
    "utf8",
  );
  const len = Buffer.alloc(4);
  len.writeUInt32BE(header.length);
  return Buffer.concat(screen ? [len, header, screen.data] : [len, header]);
}

/** Inverse of `encodeSnapshot`; rejects a body that does not add up with `SIM_UNAVAILABLE`. */
export function decodeSnapshot(body: Buffer): SceneSnapshot {
  const bad = (why: string): never => {
    throw new PiclawError("SIM_UNAVAILABLE", `simulator sent a bad scene snapshot: ${why}`);
  };
  if (body.length < 4) bad("too short");
  const len = body.readUInt32BE(0);
  if (body.length < 4 + len) bad("header cut short");
  const head = JSON.parse(body.subarray(4, 4 + len).toString("utf8")) as Omit<SceneSnapshot, "screen"> & {
    screen?: Omit<RawImage, "data">;
  };
  const { screen, ...rest } = head;
  if (!screen) return rest;
  const data = body.subarray(4 + len);
  if (data.length !== screen.width * screen.height * screen.channels) bad("pixel data has the wrong size");
  return { ...rest, screen: { ...screen, data } };
}

/** The screen as last handed over: what the renderer's SimCamera looks at. */
class SnapshotScreen implements VersionedScreenSource {
  screenVersion: number | undefined = undefined;
  image: RawImage | null = null;
  constructor(readonly geometry: PhoneGeometry) {}
  async renderScreen(): Promise<RawImage> {
    if (!this.image) throw new PiclawError("SIM_UNAVAILABLE", "no screen received from the simulator yet");
    return this.image;
  }
}

/**
 * A FrameSource that renders frames from snapshots of a world that lives elsewhere. Each capture asks
 * for a fresh snapshot first — so a frame requested after a tap shows the scene after it, exactly as
 * when the world's owner rendered the frame itself — and then renders here. When nothing that changes
 * the image changed since the last frame (same screen version, carriage, pose and settings), the last
 * JPEG is returned again: an idle scene costs a small request, not a render and an encode. Repeated
 * frames are byte-identical (their sensor noise is frozen), which a still scene filmed by a camera
 * whose noise the change detector ignores anyway is allowed to be.
 */
export class SnapshotFrameSource implements FrameSource {
  private screen: SnapshotScreen | null = null;
  private camera: SimCamera | null = null;
  private last: { key: string; jpeg: Buffer } | null = null;
  /** Frames rendered and frames served from the cache (diagnostics and tests). */
  readonly stats = { rendered: 0, reused: 0 };

  constructor(private readonly fetch: SnapshotFetch) {}

  async capture(settings: CaptureSettings): Promise<Buffer> {
    const snap = await this.fetch({
      haveScreen: this.screen?.screenVersion ?? null,
      setup: this.camera === null,
    });
    const { screen, camera } = this.apply(snap);
    const key = JSON.stringify([screen.screenVersion, snap.carriage, snap.pose, settings]);
    if (this.last?.key === key) {
      this.stats.reused++;
      return this.last.jpeg;
    }
    camera.setPose(snap.pose);
    const jpeg = await camera.capture(settings);
    this.stats.rendered++;
    this.last = { key, jpeg };
    return jpeg;
  }

  private apply(snap: SceneSnapshot): { screen: SnapshotScreen; camera: SimCamera } {
    let { screen, camera } = this;
    if (screen === null || camera === null) {
      const setup = snap.setup;
      if (!setup) throw new PiclawError("SIM_UNAVAILABLE", "the simulator sent no camera setup");
      const s = new SnapshotScreen(setup.geometry);
      screen = s;
      // The carriage is read from the snapshot being rendered (set just below, before each capture).
      camera = new SimCamera({
        source: s,
        pose: snap.pose,
        camera: setup.camera,
        seed: setup.seed,
        carriage: () => this.carriage,
      });
      this.screen = screen;
      this.camera = camera;
    }
    if (snap.screen) {
      screen.image = snap.screen;
      screen.screenVersion = snap.screenVersion;
    } else if (snap.screenVersion !== screen.screenVersion) {
      throw new PiclawError("SIM_UNAVAILABLE", "the simulator sent a new screen version without its pixels");
    }
    this.carriage = snap.carriage;
    return { screen, camera };
  }

  private carriage: CarriagePosition = null;
}
