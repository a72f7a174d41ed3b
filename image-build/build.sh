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
#
# Stages: 1 rootfs (mmdebstrap, cached by the hash of lib/rootfs*.sh), 2 app (host build, arm64
# node_modules), 3 assemble (overlay, users, units, partitions). Needs root, binfmt_misc and:
# mmdebstrap qemu-user-static binfmt-support dosfstools mtools e2fsprogs fdisk file.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
. "$here/lib/common.sh"

out="$here/out" src="$(cd "$here/.." && pwd)" mirror="http://deb.debian.org/debian"
pubkey="" clean_build="" rebuild_rootfs=""
while [ $# -gt 0 ]; do
  case "$1" in
    --ssh-key) pubkey="$(realpath "$2")"; shift 2 ;;
    --out) out="$(realpath -m "$2")"; shift 2 ;;
    --src) src="$(realpath "$2")"; shift 2 ;;
    --mirror) mirror="$2"; shift 2 ;;
    --clean-build) clean_build="--clean-build"; shift ;;
    --rebuild-rootfs) rebuild_rootfs=1; shift ;;
    -h|--help) sed -n '2,20p' "$0"; exit 0 ;;
    *) die "unknown option $1 (try --help)" ;;
  esac
done
[ "$(id -u)" = 0 ] || die "run as root (mmdebstrap --mode=root, chroot, file ownership in the image)"
need_cmds mmdebstrap sfdisk mkfs.vfat mcopy mkfs.ext4 file node npm
if [ -n "$pubkey" ]; then
  ssh-keygen -l -f "$pubkey" >/dev/null 2>&1 || die "$pubkey is not an SSH public key"
fi
ensure_binfmt_arm64

mkdir -p "$out"
export TIMINGS_FILE="$out/timings.txt"
: >"$TIMINGS_FILE"
t_all=$(now_s)

# Stage 1: base root file system, cached (a cold build is ~6 min; nothing in it depends on PiClaw).
key="$(cat "$here/lib/rootfs.sh" "$here/lib/rootfs-finish.sh" | sha256sum | cut -c1-12)"
base="$out/cache/rootfs-$key"
t=$(now_s)
if [ -n "$rebuild_rootfs" ] || [ ! -f "$base.ok" ]; then
  rm -rf "$out/cache"
  log "stage 1: Debian trixie arm64 root file system (mmdebstrap under qemu-user)"
  "$here/lib/rootfs.sh" "$base" "$mirror"
  touch "$base.ok"
  record_timing rootfs $(($(now_s) - t))
else
  log "stage 1: cached $base"
  record_timing rootfs-cached $(($(now_s) - t))
fi

# Stage 2: PiClaw built on the host.
t=$(now_s)
log "stage 2: PiClaw for linux/arm64 from $src"
"$here/lib/app.sh" "$src" "$out/work/app" $clean_build
record_timing app $(($(now_s) - t))

# Stage 3: the image.
t=$(now_s)
log "stage 3: assembling the image"
"$here/lib/assemble.sh" "$base" "$out/work/app" "$src" "$out/work" "$out/piclaw-arm64.img" "$pubkey"
record_timing image $(($(now_s) - t))
rm -rf "$out/work"

record_timing build-total $(($(now_s) - t_all))
log "done: $out/piclaw-arm64.img — flash it with:  dd if=$out/piclaw-arm64.img of=/dev/sdX bs=4M conv=fsync"
