#!/usr/bin/env bash
# Stage 2: PiClaw for linux/arm64, built on the host (no emulation): compiled TypeScript plus a
# production node_modules whose native parts are the arm64 builds (sharp's @img/sharp-linux-arm64,
# onnxruntime-node's linux/arm64 binary, serialport's linux-arm64 prebuild).
# Usage: app.sh SRC_DIR OUT_DIR [--clean-build] [--no-deps]
#   SRC_DIR: the checkout. OUT_DIR: becomes /opt/piclaw in the image.
#   --clean-build: `npm ci` + `npm run build` in a scratch copy instead of reusing the checkout's
#   installed TypeScript (what a fresh clone without node_modules gets automatically).
#   --no-deps: stop after compiling (deploy/deploy.sh installs the dependencies on the Pi itself).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
. "$here/common.sh"

src="$(cd "${1:?usage: app.sh SRC_DIR OUT_DIR}" && pwd)"
out="${2:?usage: app.sh SRC_DIR OUT_DIR}"
clean_build="" no_deps=""
for opt in "${@:3}"; do
  case "$opt" in
    --clean-build) clean_build=1 ;;
    --no-deps) no_deps=1 ;;
    *) die "app.sh: unknown option $opt" ;;
  esac
done

# What the daemon reads at run time (projectRoot() = the folder with package.json and assets/).
runtime_parts=(package.json package-lock.json .npmrc bin assets calibration models skills memory systemd
  README.md LICENSE)

rm -rf "$out"
mkdir -p "$out"
for part in "${runtime_parts[@]}"; do
  if [ -e "$src/$part" ]; then cp -a "$src/$part" "$out/"; fi
done

# 1. Compile TypeScript on the host (38 s per line under emulation; seconds here).
if [ -n "$clean_build" ] || [ ! -x "$src/node_modules/.bin/tsc" ]; then
  scratch="$(dirname "$out")/app-build"
  rm -rf "$scratch"
  mkdir -p "$scratch"
  tar -C "$src" --exclude=./node_modules --exclude=./dist --exclude=./.git \
    --exclude=./image-build/out -cf - . | tar -C "$scratch" -xf -
  log "app: npm ci + npm run build in $scratch"
  (cd "$scratch" && npm ci --no-audit --no-fund && npm run build)
  cp -a "$scratch/dist" "$out/dist"
else
  log "app: compiling with the checkout's TypeScript"
  "$src/node_modules/.bin/tsc" -p "$src/tsconfig.build.json" --outDir "$out/dist"
fi
rm -rf "$out/dist/bench"
if [ -n "$no_deps" ]; then
  log "app: compiled into $out (no dependencies)"
  exit 0
fi

# 2. Production dependencies for the target platform. --ignore-scripts: no `prepare` rebuild, no
# onnxruntime CUDA download, no node-gyp for the optional GPIO addons (they cannot build off-Pi and
# the appliance does not need them: the sim rig and GRBL/FluidNC over serial are pure JS + serialport).
log "app: npm ci --omit=dev --os=linux --cpu=arm64 --libc=glibc"
(cd "$out" && npm ci --omit=dev --os=linux --cpu=arm64 --libc=glibc --ignore-scripts \
  --no-audit --no-fund --loglevel=error)
# Remove the two addons and whatever only they needed (walk the lockfile's graph from the root).
node - "$out" pigpio onoff <<'JS'
const { readFileSync, rmSync, existsSync } = require("node:fs");
const [dir, ...drop] = process.argv.slice(2);
const lock = JSON.parse(readFileSync(`${dir}/package-lock.json`, "utf8")).packages;
const deps = (p) => ({ ...p.dependencies, ...p.optionalDependencies });
// npm resolution: nested node_modules first, then each parent folder up to the top.
const resolve = (from, name) => {
  for (let base = from; ; base = base.slice(0, Math.max(0, base.lastIndexOf("/node_modules/")))) {
    const key = `${base ? `${base}/` : ""}node_modules/${name}`;
    if (lock[key]) return key;
    if (!base) return null;
  }
};
const keep = new Set();
const queue = Object.keys(deps(lock[""])).filter((n) => !drop.includes(n)).map((n) => resolve("", n));
while (queue.length) {
  const key = queue.pop();
  if (!key || keep.has(key)) continue;
  keep.add(key);
  for (const name of Object.keys(deps(lock[key]))) queue.push(resolve(key, name));
}
for (const key of Object.keys(lock)) {
  if (key && !keep.has(key) && existsSync(`${dir}/${key}`)) {
    rmSync(`${dir}/${key}`, { recursive: true, force: true });
    console.error(`app: removed ${key}`);
  }
}
JS

# 3. Drop other platforms' binaries (onnxruntime-node ships ~288 MB for all of them).
ort="$out/node_modules/onnxruntime-node/bin"
if [ -d "$ort" ]; then
  find "$ort" -mindepth 2 -maxdepth 2 -type d ! -name linux -exec rm -rf {} +
  find "$ort" -mindepth 3 -maxdepth 3 -type d ! -name arm64 -exec rm -rf {} +
fi
prebuilds="$out/node_modules/@serialport/bindings-cpp/prebuilds"
if [ -d "$prebuilds" ]; then
  find "$prebuilds" -mindepth 1 -maxdepth 1 -type d ! -name linux-arm64 -exec rm -rf {} +
fi

# 4. Every native binary left must be aarch64, and the three that matter must be there.
wrong="$(find "$out/node_modules" -type f \( -name '*.node' -o -name '*.so' -o -name '*.so.*' \) -print0 |
  xargs -0 -r file -L | grep -v 'ARM aarch64' || true)"
[ -z "$wrong" ] || die "non-arm64 native files in node_modules:
$wrong"
for must in "@img/sharp-linux-arm64" "@img/sharp-libvips-linux-arm64"; do
  [ -d "$out/node_modules/$must" ] || die "missing $must (npm did not select the arm64 build)"
done
[ -n "$(find "$ort" -path '*linux/arm64/*.node' 2>/dev/null)" ] || die "missing onnxruntime-node linux/arm64 binary"
[ -n "$(find "$prebuilds" -name '*.node' 2>/dev/null)" ] || die "missing serialport linux-arm64 prebuild"
log "app: $(du -sh "$out" | cut -f1) in $out"
