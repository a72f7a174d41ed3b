/**
 * PiClaw's layer rules (see src/README.md for the map). One way only:
 *   kernel (util, log, shared) ← http ← product ← app (composition root)
 * The simulated world (sim) may use the kernel, http and the product's driver-side contracts; only app,
 * tests and bench import it. The lab (detector synthesis, vision evaluation) is imported only by tests,
 * bench and the training recipes. Test doubles live under test/ and never in src/.
 * Run by `npm run check` (`npm run deps`).
 */
const PRODUCT = "^src/(camera|rig|vision|calibration|tools|mcp|bridge|web|agent|jobs|memory|runtime)/";
/** What the simulated world may use of the product: the far side of each real boundary's contract. */
const SIM_CONTRACTS = [
  "^src/rig/(motion|profile|speed-law)\\.ts$",
  "^src/rig/gpio/(pigpio-types|kinematics)\\.ts$",
  "^src/rig/grbl/port\\.ts$",
  // What a rig profile implies for a GRBL board's $-settings: the simulated board is configured from it.
  "^src/rig/grbl/settings\\.ts$",
  "^src/calibration/(agent|pattern)\\.ts$",
];

module.exports = {
  forbidden: [
    {
      name: "kernel-is-the-floor",
      comment: "util/, log/ and shared/ are the kernel: they import nothing above them.",
      severity: "error",
      from: { path: "^src/(util|log|shared)/" },
      to: { path: "^src/", pathNot: "^src/(util|log|shared)/" },
    },
    {
      name: "http-on-the-kernel",
      comment: "http/ serves MCP, the bridge and the dashboard; it knows only the kernel.",
      severity: "error",
      from: { path: "^src/http/" },
      to: { path: "^src/", pathNot: "^src/(util|log|shared|http)/" },
    },
    {
      name: "product-never-imports-sim-lab-or-app",
      comment: "What ships on the Pi never reaches into the simulator, the lab or the composition root.",
      severity: "error",
      from: { path: PRODUCT },
      to: { path: "^src/(sim|lab|app)/" },
    },
    {
      name: "sim-uses-contracts-only",
      comment: "The simulated world sees the kernel, http and the product's driver-side contracts only.",
      severity: "error",
      from: { path: "^src/sim/" },
      to: { path: "^src/", pathNot: ["^src/(util|log|shared|http|sim)/", ...SIM_CONTRACTS] },
    },
    {
      name: "lab-is-not-shipped-logic",
      comment: "The lab may use the product and the simulator, never the composition root.",
      severity: "error",
      from: { path: "^src/lab/" },
      to: { path: "^src/app/" },
    },
    {
      name: "only-tests-bench-and-lab-use-the-lab",
      severity: "error",
      from: { path: "^src/", pathNot: "^src/lab/" },
      to: { path: "^src/lab/" },
    },
    {
      name: "src-never-imports-tests",
      comment: "Test doubles live in test/fakes and are never part of the product.",
      severity: "error",
      from: { path: "^(src|bench)/" },
      to: { path: "^test/", pathNot: "^test/fakes/" },
    },
    {
      name: "src-never-imports-fakes",
      severity: "error",
      from: { path: "^src/" },
      to: { path: "^test/" },
    },
    {
      name: "no-circular",
      severity: "error",
      from: {},
      to: { circular: true },
    },
    {
      name: "no-orphans",
      comment: "A source file nothing imports is dead (entry points excepted).",
      severity: "error",
      from: {
        orphan: true,
        path: "^src/",
        pathNot: [
          "\\.d\\.ts$",
          "^src/app/cli\\.ts$",
          "^src/app/sim-rpicam\\.ts$",
          "^src/lab/synth/cli\\.ts$",
        ],
      },
      to: {},
    },
    {
      name: "not-to-unresolvable",
      severity: "error",
      from: {},
      to: { couldNotResolve: true },
    },
    {
      name: "not-to-dev-dep",
      comment: "The product must not need a devDependency at run time.",
      severity: "error",
      from: { path: "^src/", pathNot: "^src/lab/" },
      to: { dependencyTypes: ["npm-dev"] },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["import", "require", "node", "default", "types"],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
