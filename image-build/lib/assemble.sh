#!/usr/bin/env bash
# Stage 3: the image's root file system (base + PiClaw + overlay) and the disk image, without loop
# devices or mounts: FAT boot partition via `mkfs.vfat -C` + mtools, ext4 root via `mkfs.ext4 -d`,
# MBR via sfdisk, partitions placed with dd.
# Usage: assemble.sh BASE_ROOTFS APP_DIR REPO_DIR WORK_DIR OUT_IMAGE [SSH_PUBKEY_FILE]
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
. "$here/common.sh"

base="$1" app="$2" repo="$3" work="$4" image="$5" pubkey="${6:-}"
overlay="$here/../overlay"                 # PiClaw's own files (also what --base adds)
os_overlay="$here/../overlay-debian"       # the Debian image's OS files (fstab, networkd, names)
unit="$repo/systemd/piclaw.service"
[ -f "$unit" ] || die "$unit is missing (the image installs the project's own unit as-is)"

root="$work/rootfs"
rm -rf "$root"
mkdir -p "$work"
cp -a "$base" "$root"
cp -a "$os_overlay/." "$root/"
in_root() { chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8 "$@"; }
in_root usermod -p '*' root
in_root systemctl enable --quiet systemd-networkd systemd-resolved systemd-timesyncd avahi-daemon ssh \
  fake-hwclock-load.service fake-hwclock-save.timer

if [ -n "${PLAIN_BASE:-}" ]; then
  # Stand-in for a Raspberry Pi OS Lite base (the --base test): the OS without PiClaw and without Node
  # (Raspberry Pi OS Lite ships no nodejs), so `build.sh --base` has to add both.
  rm -f "$root/usr/bin/node" "$root/usr/bin/nodejs"
  echo raspberrypi >"$root/etc/hostname"
  sed -i 's/piclaw/raspberrypi/' "$root/etc/hosts"
else
  cp -a "$overlay/." "$root/"
  cp -a "$app" "$root/opt/piclaw"
  install -m 644 "$unit" "$root/etc/systemd/system/piclaw.service"
  mkdir -p "$root/opt/piclaw/image-build"
  cp "$here/../README.md" "$root/opt/piclaw/image-build/README.md"
  # The unit must start what this image installs.
  grep -q '^ExecStart=.*/opt/piclaw/' "$unit" || log "warning: $unit ExecStart does not point into /opt/piclaw"

  # The service user: no login, no password, the groups that reach GPIO/PWM, the camera and UARTs.
  in_root sh -c 'getent group gpio >/dev/null || groupadd --system gpio'
  in_root sh -c 'getent passwd piclaw >/dev/null || useradd --system --user-group --home-dir /var/lib/piclaw --no-create-home --shell /usr/sbin/nologin --groups gpio,video,dialout piclaw'
  in_root install -d -o piclaw -g piclaw -m 750 /var/lib/piclaw
  in_root systemctl enable --quiet piclaw-firstboot.service piclaw-firstboot-secrets.service \
    piclaw-boot-settings.service piclaw-network-status.service piclaw.service
  # The Imager's older format runs `systemd.run=/boot/firstrun.sh` from cmdline.txt (see the script).
  install -m 755 "$here/boot-firstrun.sh" "$root/boot/firstrun.sh"
fi
# The Pi has no RTC: until NTP answers, the clock starts from the newest of fake-hwclock's saved time
# and systemd's epoch (the mtime of /usr/lib/clock-epoch); both are the build time on a fresh card.
date -u '+%Y-%m-%d %H:%M:%S' >"$root/etc/fake-hwclock.data"
touch "$root/usr/lib/clock-epoch"
ln -sfn /run/systemd/resolve/stub-resolv.conf "$root/etc/resolv.conf"

if [ -n "$pubkey" ]; then
  install -d -m 700 "$root/root/.ssh"
  install -m 600 "$pubkey" "$root/root/.ssh/authorized_keys"
fi

# Per-machine identity is made at first boot, never baked in.
rm -f "$root"/etc/ssh/ssh_host_*
: >"$root/etc/machine-id"
rm -f "$root/var/lib/systemd/random-seed" "$root/var/lib/systemd/credential.secret"
rm -rf "$root/var/log/journal/"* "$root/tmp/"* "$root/root/.npm"

# No account may have a usable password (a crypt hash starts with $).
hashed="$(awk -F: '$2 ~ /^\$/ {print $1}' "$root/etc/shadow")"
[ -z "$hashed" ] || die "accounts with a password in the image: $hashed"

# --- Boot partition: everything raspi-firmware put in /boot/firmware (firmware blobs, config.txt,
# cmdline.txt, kernel, initrd, device trees).
boot_mib=256
boot_img="$work/boot.vfat"
rm -f "$boot_img"
mkfs.vfat -C -F 32 -n PICLAW-BOOT "$boot_img" $((boot_mib * 1024)) >/dev/null
mcopy -s -p -m -i "$boot_img" "$root/boot/firmware/"* ::/
cat >"$work/authorized_keys" <<'KEYS'
# Put SSH public keys here (one per line, e.g. the contents of ~/.ssh/id_ed25519.pub); PiClaw adds them
# to root's authorized_keys at every boot. There is no password login.
KEYS
mcopy -o -i "$boot_img" "$work/authorized_keys" ::/authorized_keys
[ -n "${PLAIN_BASE:-}" ] || mcopy -o -i "$boot_img" "$here/piclaw.txt" ::/piclaw.txt
find "$root/boot/firmware" -mindepth 1 -delete

# --- Root partition: content + 25% + 256 MiB headroom (first boot grows it to the card).
used_mib=$(du -s --block-size=1M "$root" | cut -f1)
root_mib=$((used_mib * 5 / 4 + 256))
root_img="$work/root.ext4"
rm -f "$root_img"
mkfs.ext4 -q -L piclaw-root -d "$root" -E lazy_itable_init=1,lazy_journal_init=1 "$root_img" "${root_mib}M"

# --- Disk: 1 MiB gap, boot (FAT32 LBA, bootable), root (Linux), DOS label as the Pi firmware expects.
rm -f "$image"
truncate -s $(((1 + boot_mib + root_mib) * 1024 * 1024)) "$image"
sfdisk --quiet "$image" <<PARTS
label: dos
start=2048, size=$((boot_mib * 2048)), type=c, bootable
start=$(((1 + boot_mib) * 2048)), type=83
PARTS
dd if="$boot_img" of="$image" bs=1M seek=1 conv=notrunc,sparse status=none
dd if="$root_img" of="$image" bs=1M seek=$((1 + boot_mib)) conv=notrunc,sparse status=none
rm -f "$boot_img" "$root_img"
log "image: $image ($((1 + boot_mib + root_mib)) MiB; root content ${used_mib} MiB)"
