#!/usr/bin/env bash
# mmdebstrap customize hook: undo the update-initramfs diversion, then build the one initramfs with
# only the modules a Raspberry Pi (SD card) or the QEMU `virt` test machine needs to find the root
# file system, and let raspi-firmware's hooks copy kernel, initrd and device trees to /boot/firmware.
set -euo pipefail
root="$1"
rm -f "$root/usr/sbin/update-initramfs"
for p in /usr/sbin/update-initramfs /sbin/update-initramfs; do
  chroot "$root" dpkg-divert --quiet --local --rename --remove "$p"
done

mkdir -p "$root/etc/initramfs-tools/conf.d"
cat >"$root/etc/initramfs-tools/conf.d/piclaw.conf" <<'CONF'
# PiClaw image: a short explicit module list (MODULES=dep cannot work in a chroot).
MODULES=list
FSTYPE=ext4
CONF
cat >>"$root/etc/initramfs-tools/modules" <<'MODS'
# PiClaw: the root file system (ext4 is a module in Debian's kernel; MODULES=list adds nothing by
# itself), the SD card on Raspberry Pi 3/4/5, the virtio disk of the QEMU test machine.
ext4
mmc_block
sdhci_iproc
sdhci_brcmstb
bcm2835
virtio_pci
virtio_blk
virtio_mmio
MODS

# Root by label, so the same image boots from /dev/mmcblk0p2 and from QEMU's /dev/vda2.
sed -i 's/^#\?ROOTPART=.*/ROOTPART=LABEL=piclaw-root/' "$root/etc/default/raspi-firmware"
grep -q '^ROOTPART=' "$root/etc/default/raspi-firmware" || echo 'ROOTPART=LABEL=piclaw-root' >>"$root/etc/default/raspi-firmware"

kver="$(ls "$root/lib/modules" | sort -V | tail -n1)"
chroot "$root" update-initramfs -c -k "$kver"
# raspi-firmware's kernel hook copies the kernel and device trees (run again: it may have run before
# the firmware package was configured).
if [ -x "$root/etc/kernel/postinst.d/z50-raspi-firmware" ]; then
  chroot "$root" /etc/kernel/postinst.d/z50-raspi-firmware "$kver"
fi
if [ -x "$root/etc/initramfs/post-update.d/z50-raspi-firmware" ]; then
  chroot "$root" /etc/initramfs/post-update.d/z50-raspi-firmware "$kver" "/boot/initrd.img-$kver"
fi
# Package caches are not part of the image.
rm -rf "$root/var/cache/apt/archives/"*.deb "$root/var/lib/apt/lists/"*
