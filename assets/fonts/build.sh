#!/usr/bin/env bash
# Rebuilds the shipped font subsets from Noto Sans SC (SIL OFL 1.1), the recipe for the committed TTFs.
# Needs: npm (to fetch the @expo-google-fonts/noto-sans-sc package) and Debian's python3-fonttools (used via /usr/bin/python3).
# Usage: assets/fonts/build.sh   (run from the project root)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
(cd "$work" && npm pack --silent @expo-google-fonts/noto-sans-sc@0.4.3 >/dev/null && tar xzf ./*.tgz)
node "$here/charset.mjs" >"$work/chars.txt"
for weight in 400Regular 600SemiBold 300Light; do
  /usr/bin/python3 -m fontTools.subset "$work/package/$weight/NotoSansSC_$weight.ttf" \
    --text-file="$work/chars.txt" --layout-features='kern,liga,locl' \
    --no-hinting --desubroutinize --name-IDs='*' \
    --output-file="$here/NotoSansSC-${weight#[0-9][0-9][0-9]}.ttf"
done
cp "$work/package/LICENSE_FONT" "$here/OFL.txt"
ls -l "$here"/*.ttf
