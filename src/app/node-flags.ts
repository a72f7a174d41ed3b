/**
 * V8 flags the daemon runs with: the systemd unit's `ExecStart` and `npm start` pass them to node, and
 * the peek benches (`bench/vision.ts`, `bench/real-screens.ts`) start their measuring child with them, so
 * the numbers are the appliance's (test/app/systemd-unit.test.ts keeps the three in step).
 *
 * `--max-semi-space-size=4`: V8's young generation at 2 × 4 MB instead of up to 2 × 16 MB. Each peek
 * leaves tens of MB of dead typed arrays (decoded frames, model outputs copied out of ONNX Runtime);
 * with small semi-spaces they are scavenged sooner and their memory returns before the next peek
 * (bench/README.md, 2026-11-28 session 3: peak RSS of the peek path).
 */
export const DAEMON_NODE_FLAGS: readonly string[] = ["--max-semi-space-size=4"];

/**
 * glibc malloc settings the daemon runs with (the systemd unit's `Environment=` lines; the peek benches
 * start their measuring child with them). `MALLOC_ARENA_MAX=2`: glibc's default of 8 arenas per core
 * fragments under ONNX Runtime's and libvips' threads. `MALLOC_MMAP_THRESHOLD_=4194304`: frames and model
 * buffers of ≥ 4 MB are mapped and unmapped instead of fragmenting the heap. Without them the peek path's
 * peak RSS is ~75–90 MB higher (bench/README.md, 2026-11-29 session 13, h-perf2: 291 vs 366 MB).
 */
export const DAEMON_MALLOC_ENV: Readonly<Record<string, string>> = {
  MALLOC_ARENA_MAX: "2",
  MALLOC_MMAP_THRESHOLD_: "4194304",
};
