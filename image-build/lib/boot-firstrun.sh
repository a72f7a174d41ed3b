#!/bin/sh
# /boot/firstrun.sh on the Debian image. The Raspberry Pi Imager's older customisation format puts
# `firstrun.sh` on the boot partition and appends `systemd.run=/boot/firstrun.sh
# systemd.run_success_action=reboot systemd.unit=kernel-command-line.target` to cmdline.txt
# (rpi-imager src/customization_generator.cpp). Here the boot partition is /boot/firmware, so that
# path lands on this script: it applies the Imager's settings the PiClaw way (piclaw-boot-settings
# reads /boot/firmware/firstrun.sh, never runs it), removes the systemd.run arguments from
# cmdline.txt as the Imager's own script would, and exits 0, so systemd reboots into the normal boot.
set -u
mount -o remount,rw / 2>/dev/null || true
mount /boot/firmware 2>/dev/null || true
mount -o remount,rw /boot/firmware 2>/dev/null || true
/usr/local/sbin/piclaw-boot-settings || echo "firstrun: piclaw-boot-settings failed (see its status file)"
sed -i 's| systemd.run.*||g' /boot/firmware/cmdline.txt
sync
exit 0
