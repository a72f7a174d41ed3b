#!/usr/bin/env bash
# Rebuild PiClaw's UI-element detector: apt check, synthetic data, training, ONNX export, evaluation
# (metrics.json). Not part of CI. See README.md for what each step costs on the shared 2-core machine.
#
#   models/icon-detector/build.sh            # from the repository root or anywhere
#   SECONDS_BUDGET=300 models/icon-detector/build.sh   # shorter training for a quick try
#   INIT_COMMIT= models/icon-detector/build.sh         # train from scratch instead of a warm start
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
work="$here/work"
seed="${SEED:-1}"
budget="${SECONDS_BUDGET:-1200}"
screens="${SCREENS:-3000}" # train on all but the last 500: 300 held-out clean + 200 held-out camera-style
# The model this one continues from: the first, simulator-only model (commit 979aff0). Its weights are
# read back out of its ONNX (warmstart.py); empty = from scratch.
init_commit="${INIT_COMMIT-979aff0}"
lr="${LR:-0.001}"

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
init_args=()
if [ -n "$init_commit" ]; then
  git -C "$root" show "$init_commit:models/icon-detector/piclaw-ui-detector.onnx" >"$work/init.onnx"
  init_args=(--init "$work/init.onnx" --lr "$lr")
fi
cd "$here"
if [ -n "$init_commit" ]; then
  # Two stages, as for the committed model: 1,200 s at lr 1e-3 from the first model, then 780 s at
  # lr 5e-4 from that (other batch order, same prepared screens) into the real output.
  mkdir -p "$work/stage1"
  "$py" train.py --data "$work/data" --out "$work/stage1" --seconds "$budget" --threads 2 --seed "$seed" \
    --train-screens "$((screens - 500))" "${init_args[@]}" --skip-init-eval
  init_args=(--init "$work/stage1/piclaw-ui-detector.onnx" --lr "${LR2:-0.0005}" --batch-seed "$((seed + 1))")
  budget="${SECONDS_BUDGET2:-780}"
fi
"$py" train.py --data "$work/data" --out "$here" --seconds "$budget" --threads 2 --seed "$seed" \
  --train-screens "$((screens - 500))" "${init_args[@]}"
cd "$root" && npx biome format --write models/icon-detector/metrics.json >/dev/null # house JSON style
echo "done: $here/piclaw-ui-detector.onnx, $here/metrics.json (benchmarks: npm run build && node dist/bench/detector.js; node dist/bench/detector-real.js)"
