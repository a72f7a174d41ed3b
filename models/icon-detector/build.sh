#!/usr/bin/env bash
# Rebuild PiClaw's UI-element detector from scratch: apt check, synthetic data, training, ONNX export,
# evaluation (metrics.json). ~20 min on 2 cores. Not part of CI.
#
#   models/icon-detector/build.sh            # from the repository root or anywhere
#   SECONDS_BUDGET=300 models/icon-detector/build.sh   # shorter training for a quick try
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
work="$here/work"
seed="${SEED:-1}"
budget="${SECONDS_BUDGET:-900}"
screens=4500 # 4,000 train + 300 held-out clean + 200 held-out camera-style

# 1. Python side: Debian's torch/onnx for the system python (not a pyenv one).
py=/usr/bin/python3
if ! "$py" -c "import torch, onnx, PIL, numpy" 2>/dev/null; then
  echo "installing python3-torch python3-onnx python3-pil python3-numpy (apt)"
  apt-get update -qq
  apt-get install -y -qq python3-torch python3-onnx python3-pil python3-numpy
fi

# 2. Synthetic screens, rendered by PiClaw's own simulator code (two processes, one per core).
cd "$root"
npx tsc -p tsconfig.build.json || echo "tsc reported errors (JavaScript is emitted anyway)"
rm -rf "$work/data"
half=$((screens / 2))
node dist/src/lab/synth/cli.js --out "$work/data" --seed "$seed" --start 0 --count "$half" &
node dist/src/lab/synth/cli.js --out "$work/data" --seed "$seed" --start "$half" --count "$((screens - half))" &
wait

# 3. Train, export the ONNX, evaluate on held-out screens -> piclaw-ui-detector.onnx, metrics.json.
cd "$here"
"$py" train.py --data "$work/data" --out "$here" --seconds "$budget" --threads 2 --seed "$seed"
cd "$root" && npx biome format --write models/icon-detector/metrics.json >/dev/null # house JSON style
echo "done: $here/piclaw-ui-detector.onnx, $here/metrics.json (benchmark: npm run build && node dist/bench/detector.js)"
