/**
 * Camera settings for tests that run the simulated appliance with the `rpicam-vid` stand-in.
 *
 * The stand-in renders every frame in software — a 2304×1296 camera view with blur, sensor noise and a
 * JPEG encode — on the same two cores as the test runner, the daemon's OCR and detector and, in CI under
 * load, two busy loops. Measured 2026-11-27 with two such daemons side by side at load ~16 (calibrate-daemon
 * and the phone-tools e2e): grabs waited p50 0.8–2.3 s and p90 up to 3.9 s, and once no frame came for
 * 6.2 s after a screen change (the new screen is rasterised, sent and resampled before the next frame).
 * The product's default `camera.grabTimeoutMs` (5 s) is meant for a real camera, whose frames come from
 * the ISP within ~100 ms. Tests must not fail on wall-clock speed (developers' guide), so these tests give
 * grabs 30 s: still a bound, which a camera that never delivers fails.
 *
 * 10 fps (not the default 30): three times less rendering for the same freshness rules.
 */
export const SIM_TEST_CAMERA = { framerate: 10, grabTimeoutMs: 30_000 } as const;
