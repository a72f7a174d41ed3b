#!/usr/bin/env bash
# Stage 1: the Debian trixie arm64 base root file system (packages, kernel, firmware, initramfs).
# Usage: rootfs.sh OUT_DIR [MIRROR]. Runs as root; needs mmdebstrap and binfmt qemu-aarch64.
# The initramfs is built exactly once, at the end: during package installation update-initramfs is
# diverted to a no-op (building it per package under emulation took 31 min here).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
. "$here/common.sh"

out="${1:?usage: rootfs.sh OUT_DIR [MIRROR]}"
mirror="${2:-http://deb.debian.org/debian}"

# Kept small: what the appliance runs (node, ssh, mDNS, networking, time) plus the boot chain.
# socat: the simulated rig's GRBL board sits behind a pty pair (src/sim/gantry/pty-pair.ts; without
# socat it falls back to python3, which is far bigger).
# Wi-Fi from the boot partition (piclaw-boot-settings): wpa_supplicant driven by systemd-networkd,
# the regulatory database (the country code) and the Pi's Broadcom Wi-Fi firmware. fake-hwclock: the
# Pi has no RTC, so the clock starts from the last saved time, not 1970/the kernel's build date.
# locales + tzdata: the Imager's locale and time zone.
packages=(
  systemd-sysv udev dbus kmod systemd-resolved systemd-timesyncd
  initramfs-tools zstd linux-image-arm64 raspi-firmware
  nodejs ca-certificates
  socat
  openssh-server avahi-daemon libnss-mdns
  fdisk e2fsprogs
  iproute2 iputils-ping curl less
  wpasupplicant wireless-regdb firmware-brcm80211
  fake-hwclock locales tzdata
)
include="$(IFS=,; echo "${packages[*]}")"

rm -rf "$out"
mkdir -p "$(dirname "$out")"
mmdebstrap --mode=root --architectures=arm64 --variant=apt \
  --components=main,non-free-firmware \
  --include="$include" \
  --setup-hook='mkdir -p "$1/boot/firmware"' \
  --essential-hook='for p in /usr/sbin/update-initramfs /sbin/update-initramfs; do chroot "$1" dpkg-divert --quiet --local --rename --add "$p"; done; printf "#!/bin/sh\nexit 0\n" > "$1/usr/sbin/update-initramfs"; chmod 755 "$1/usr/sbin/update-initramfs"' \
  --customize-hook="$here/rootfs-finish.sh \"\$1\"" \
  trixie "$out" "$mirror"
