#!/usr/bin/env bash
# Build the flashable PiClaw SD image (Debian trixie arm64, Raspberry Pi 3/4 and the QEMU test machine).
#
#   sudo image-build/build.sh [--ssh-key FILE.pub] [--out DIR] [--src DIR] [--mirror URL]
#                             [--clean-build] [--rebuild-rootfs]
#
#   --ssh-key FILE.pub   public key baked into root's authorized_keys (else put keys in the boot
#                        partition's `authorized_keys` file before the first boot)
#   --out DIR            output folder (default image-build/out); the image is DIR/piclaw-arm64.img
#   --src DIR            the PiClaw source tree to package (default: this checkout)
#   --mirror URL         Debian mirror (default http://deb.debian.org/debian)
#   --clean-build        `npm ci` + `npm run build` in a scratch copy instead of the checkout's TypeScript
#   --rebuild-rootfs     ignore the cached base root file system
#   --base FILE.img[.xz] real-rig path: customise a Raspberry Pi OS Lite (arm64) image the user
#                        downloaded, offline, instead of building Debian: adds the arm64 app tree,
#                        Node (if the image has none), the unit, the config and the first-boot
#                        services (lib/customise.sh; no loop devices, no mounts, no chroot).
#                        Output: DIR/piclaw-base-arm64.img
#   --plain-base         build the stand-in for such a base (Debian, without PiClaw and Node) as
#                        DIR/standin-base-arm64.img, to test --base here
#
# Stages: 1 rootfs (mmdebstrap, cached by the hash of lib/rootfs*.sh), 2 app (host build, arm64
# node_modules), 3 assemble (overlay, users, units, partitions). Needs root, binfmt_misc and:
# mmdebstrap qemu-user-static binfmt-support dosfstools mtools e2fsprogs fdisk file.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
. "$here/lib/common.sh"

out="$here/out" src="$(cd "$here/.." && pwd)" mirror="http://deb.debian.org/debian"
pubkey="" clean_build="" rebuild_rootfs="" base_image="" plain_base=""
while [ $# -gt 0 ]; do
  case "$1" in
    --ssh-key) pubkey="$(realpath "$2")"; shift 2 ;;
    --out) out="$(realpath -m "$2")"; shift 2 ;;
    --src) src="$(realpath "$2")"; shift 2 ;;
    --mirror) mirror="$2"; shift 2 ;;
    --clean-build) clean_build="--clean-build"; shift ;;
    --rebuild-rootfs) rebuild_rootfs=1; shift ;;
    --base) base_image="$(realpath "$2")"; shift 2 ;;
    --plain-base) plain_base=1; shift ;;
    -h|--help) sed -n '2,28p' "$0"; exit 0 ;;
    *) die "unknown option $1 (try --help)" ;;
  esac
done
[ "$(id -u)" = 0 ] || die "run as root (mmdebstrap --mode=root, chroot, file ownership in the image)"
if [ -n "$pubkey" ]; then
  ssh-keygen -l -f "$pubkey" >/dev/null 2>&1 || die "$pubkey is not an SSH public key"
fi

# The timing table (build-total from here): both paths keep one, under their own file name.
start_timings() {
  export TIMINGS_FILE="$1"
  : >"$TIMINGS_FILE"
  t_all=$(now_s)
}
# One stage: its progress line, the command, and the command's duration in the table as NAME.
stage() {
  local name="$1" what="$2" t
  shift 2
  t=$(now_s)
  log "$what"
  "$@"
  record_timing "$name" $(($(now_s) - t))
}
# Stage 2, the same on both paths: PiClaw built on the host into $out/work/app.
# shellcheck disable=SC2086 # $clean_build is one flag or none
app_stage() { stage app "stage 2: PiClaw for linux/arm64 from $src" "$here/lib/app.sh" "$src" "$out/work/app" $clean_build; }

if [ -n "$base_image" ]; then
  # Real-rig path: no Debian root file system, no emulation; the given image is the OS.
  need_cmds sfdisk debugfs e2fsck resize2fs mcopy mdir file node npm xz
  [ -f "$base_image" ] || die "$base_image: no such file"
  mkdir -p "$out"
  start_timings "$out/timings-base.txt"
  app_stage
  stage customise "stage 3: customising $base_image" \
    "$here/lib/customise.sh" "$base_image" "$out/work/app" "$src" "$out/work" "$out/piclaw-base-arm64.img" "$pubkey"
  rm -rf "$out/work"
  record_timing build-total $(($(now_s) - t_all))
  log "done: $out/piclaw-base-arm64.img — flash it with the Raspberry Pi Imager (\"Use custom\") or dd"
  exit 0
fi
need_cmds mmdebstrap sfdisk mkfs.vfat mcopy mkfs.ext4 file node npm
ensure_binfmt_arm64

mkdir -p "$out"
start_timings "$out/timings.txt"

# Stage 1: base root file system, cached (a cold build is ~6 min; nothing in it depends on PiClaw).
key="$(cat "$here/lib/rootfs.sh" "$here/lib/rootfs-finish.sh" | sha256sum | cut -c1-12)"
base="$out/cache/rootfs-$key"
fresh_rootfs() {
  rm -rf "$out/cache"
  "$here/lib/rootfs.sh" "$base" "$mirror"
  touch "$base.ok"
}
if [ -n "$rebuild_rootfs" ] || [ ! -f "$base.ok" ]; then
  stage rootfs "stage 1: Debian trixie arm64 root file system (mmdebstrap under qemu-user)" fresh_rootfs
else
  stage rootfs-cached "stage 1: cached $base" true
fi

if [ -n "$plain_base" ]; then
  mkdir -p "$out/work/no-app"
  stage standin-image "stage 3: the stand-in base image (Debian without PiClaw and Node)" \
    env PLAIN_BASE=1 "$here/lib/assemble.sh" "$base" "$out/work/no-app" "$src" "$out/work" "$out/standin-base-arm64.img" "$pubkey"
  rm -rf "$out/work"
  log "done: $out/standin-base-arm64.img (try: build.sh --base $out/standin-base-arm64.img)"
  exit 0
fi

app_stage
stage image "stage 3: assembling the image" \
  "$here/lib/assemble.sh" "$base" "$out/work/app" "$src" "$out/work" "$out/piclaw-arm64.img" "$pubkey"
rm -rf "$out/work"

record_timing build-total $(($(now_s) - t_all))
log "done: $out/piclaw-arm64.img — flash it with:  dd if=$out/piclaw-arm64.img of=/dev/sdX bs=4M conv=fsync"
