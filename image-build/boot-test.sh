#!/usr/bin/env bash
# Boot the built image in QEMU (arm64 `virt` machine, TCG emulation) and check the appliance end to end:
# SSH with a key from the boot partition, piclaw.service READY (Type=notify → `systemctl is-active`),
# the first-boot MCP token over SSH, an MCP `initialize` + `tools/list` through the port forward (and a
# 401 without the token), the root file system grown to the (enlarged) disk. Prints timings.
#
#   image-build/boot-test.sh [--image FILE] [--imager] [--ready-timeout S] [--keep]
#   --imager: also write Raspberry Pi Imager-style first-boot files (cloud-init `user-data` +
#             `network-config` with a Wi-Fi network, time zone, locale, hostname, a user's key) and a
#             `piclaw.txt` into the boot partition, start the VM with an RTC in 2001 (a Pi has no
#             RTC), and check inside the booted image: the hostname, SSH as the Imager's user, the
#             wpa_supplicant configuration, the network status file, the clock not older than the
#             build, the boot-settings status file.
#   --keep: leave the VM running afterwards (its ssh port and pid are printed).
#
# Works on a copy of the image (1 GiB larger, to see the first-boot grow). Kernel and initrd are the
# image's own, read from its boot partition with mtools. Needs qemu-system-arm (qemu-system-aarch64),
# mtools, fdisk, openssh-client, curl; no root needed unless the image file is root-only.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
. "$here/lib/common.sh"

image="$here/out/piclaw-arm64.img" ready_timeout=1200 keep="" imager=""
while [ $# -gt 0 ]; do
  case "$1" in
    --image) image="$(realpath "$2")"; shift 2 ;;
    --ready-timeout) ready_timeout="$2"; shift 2 ;;
    --keep) keep=1; shift ;;
    --imager) imager=1; shift ;;
    -h|--help) sed -n '2,19p' "$0"; exit 0 ;;
    *) die "unknown option $1" ;;
  esac
done
need_cmds qemu-system-aarch64 mcopy mtype sfdisk ssh ssh-keygen curl node
[ -f "$image" ] || die "no image at $image (run image-build/build.sh first)"

work="$(dirname "$image")/boot-test"
rm -rf "$work"
mkdir -p "$work"
export TIMINGS_FILE="$work/timings.txt"
disk="$work/disk.img"
cp --sparse=always "$image" "$disk"
truncate -s +1G "$disk"

# A throwaway key, delivered the way a user would: the boot partition's authorized_keys file.
ssh-keygen -q -t ed25519 -N '' -C piclaw-boot-test -f "$work/id_ed25519"
boot="$disk@@$(part_offset "$disk" 1)"
mcopy -o -i "$boot" "$work/id_ed25519.pub" ::/authorized_keys
expect_host=piclaw rtc=()
if [ -n "$imager" ]; then
  # What the Imager 2.x writes for a cloud-init OS (rpi-imager src/customization_generator.cpp): the
  # PSK as PBKDF2-SHA1(passphrase, SSID, 4096, 32) in hex, a user with a key, hostname, time zone.
  ssh-keygen -q -t ed25519 -N '' -C imager-user -f "$work/id_imager"
  psk="$(node -e 'process.stdout.write(require("crypto").pbkdf2Sync("correct horse battery","PiClaw Lab",4096,32,"sha1").toString("hex"))')"
  expect_host=rig-one
  cat >"$work/user-data" <<UD
#cloud-config
manage_resolv_conf: false

hostname: rig-one
manage_etc_hosts: true
packages:
- avahi-daemon
timezone: Europe/London
locale: en_GB.UTF-8
keyboard:
  model: pc105
  layout: "gb"
users:
- name: alice
  groups: users,adm,dialout,audio,netdev,video,plugdev,cdrom,games,input,gpio,spi,i2c,render,sudo
  shell: /bin/bash
  lock_passwd: true
  ssh_authorized_keys:
    - $(cat "$work/id_imager.pub")
  sudo: ALL=(ALL) NOPASSWD:ALL
enable_ssh: true
ssh_pwauth: false
UD
  cat >"$work/network-config" <<NC
network:
  version: 2
  ethernets:
    eth0:
      dhcp4: true
      dhcp6: true
      optional: true
  wifis:
    wlan0:
      dhcp4: true
      regulatory-domain: "GB"
      access-points:
        "PiClaw Lab":
          password: "$psk"
      optional: true
NC
  printf 'instance-id: rpi-imager-boot-test\n' >"$work/meta-data"
  printf '# boot test\nrig_profile=corexy-fluidnc\npasscode_file=passcode.txt\n' >"$work/piclaw.txt"
  printf '424242\n' >"$work/passcode.txt"
  for f in user-data network-config meta-data piclaw.txt passcode.txt; do mcopy -o -i "$boot" "$work/$f" "::/$f"; done
  # The Pi has no RTC; QEMU's would tell the guest the host's time. Start it in 2001 instead.
  rtc=(-rtc base=2001-01-01T00:00:00)
fi
# Emulation only: the unit's TimeoutStartSec=180 is sized for a Pi; under TCG on a loaded host (load
# 18) the daemon's start took longer and systemd restarted it in a loop. A drop-in in the test copy
# (written with debugfs, as build.sh --base does) gives it 20 minutes; the image itself is unchanged.
if command -v debugfs >/dev/null; then
  root_off=$(part_offset "$disk" 2)
  root_len=$(sfdisk -J "$disk" | node -e 'process.stdout.write(String(JSON.parse(require("fs").readFileSync(0,"utf8")).partitiontable.partitions[1].size*512))')
  dd if="$disk" of="$work/root.ext4" bs=4M skip="$root_off" count="$root_len" iflag=skip_bytes,count_bytes status=none
  printf '[Service]\nTimeoutStartSec=1200\n' >"$work/qemu-timeout.conf"
  debugfs -w -f - "$work/root.ext4" >/dev/null 2>&1 <<DBG
mkdir /etc/systemd/system/piclaw.service.d
write $work/qemu-timeout.conf /etc/systemd/system/piclaw.service.d/qemu-timeout.conf
DBG
  dd if="$work/root.ext4" of="$disk" bs=4M seek="$root_off" oflag=seek_bytes conv=notrunc status=none
  rm -f "$work/root.ext4"
fi
config_txt="$(mtype -i "$boot" ::/config.txt | tr -d '\r')"
kernel="$(printf '%s\n' "$config_txt" | sed -n 's/^kernel=//p' | tail -n1)"
initrd="$(printf '%s\n' "$config_txt" | sed -n 's/^initramfs \([^ ]*\).*/\1/p' | tail -n1)"
[ -n "$kernel" ] && [ -n "$initrd" ] || die "config.txt names no kernel/initramfs:
$config_txt"
mcopy -o -i "$boot" "::/$kernel" "$work/vmlinuz"
mcopy -o -i "$boot" "::/$initrd" "$work/initrd.img"
log "kernel $kernel, initrd $initrd"

free_port() { node -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})'; }
ssh_port="$(free_port)" mcp_port="$(free_port)"
key="$work/id_ed25519"
ssh_opts=(-i "$key" -p "$ssh_port" -o BatchMode=yes -o StrictHostKeyChecking=no
  -o UserKnownHostsFile=/dev/null -o LogLevel=ERROR -o ConnectTimeout=10)
on_pi() { ssh "${ssh_opts[@]}" root@127.0.0.1 "$@"; }

# The image's cmdline.txt is for a Pi (serial0); QEMU's virt UART is ttyAMA0, the disk is virtio.
# systemd.default_device_timeout_sec: under TCG on a loaded host udev's coldplug can take longer than
# the default 90 s, and the boot partition's mount then fails into emergency mode (seen at load 18).
append="root=LABEL=piclaw-root rootfstype=ext4 rootwait rw console=ttyAMA0 fsck.repair=yes systemd.default_device_timeout_sec=600"
t0=$(now_s)
qemu-system-aarch64 -M virt -cpu cortex-a72 -smp 2 -m 2048 \
  -kernel "$work/vmlinuz" -initrd "$work/initrd.img" -append "$append" \
  -drive "if=none,file=$disk,format=raw,id=hd0" -device virtio-blk-pci,drive=hd0 \
  -netdev "user,id=net0,hostfwd=tcp:127.0.0.1:${ssh_port}-:22,hostfwd=tcp:127.0.0.1:${mcp_port}-:8048" \
  -device virtio-net-pci,netdev=net0,romfile= -device virtio-rng-pci \
  "${rtc[@]}" -display none -monitor none -serial "file:$work/console.log" &
qemu_pid=$!
cleanup() {
  if [ -z "$keep" ]; then kill "$qemu_pid" 2>/dev/null || true; wait "$qemu_pid" 2>/dev/null || true; fi
}
trap cleanup EXIT
log "qemu pid $qemu_pid: ssh -p $ssh_port, MCP http://127.0.0.1:$mcp_port/mcp, console $work/console.log"

fail() {
  log "FAILED: $*"
  tail -n 40 "$work/console.log" >&2 || true
  on_pi 'systemctl --no-pager status piclaw-firstboot piclaw-boot-settings piclaw; journalctl --no-pager -n 60 -u piclaw-firstboot -u piclaw-boot-settings -u piclaw' >&2 || true
  exit 1
}
alive() { kill -0 "$qemu_pid" 2>/dev/null || fail "qemu exited"; }

# 1. SSH with the key from the boot partition.
until on_pi true 2>/dev/null; do
  alive
  [ $(($(now_s) - t0)) -lt 600 ] || fail "no SSH after 600 s"
  sleep 3
done
record_timing boot-to-ssh $(($(now_s) - t0))

# 2. READY: a Type=notify unit is `active` only after READY=1.
while :; do
  state="$(on_pi systemctl is-active piclaw 2>/dev/null || true)"
  [ "$state" = active ] && break
  [ "$state" != failed ] || fail "piclaw.service failed"
  alive
  [ $(($(now_s) - t0)) -lt "$ready_timeout" ] || fail "piclaw not READY after $ready_timeout s (state: $state)"
  sleep 5
done
record_timing boot-to-ready $(($(now_s) - t0))
on_pi 'systemd-analyze; systemd-analyze blame --no-pager | head -n 8' || true

# 3. The first-boot token, over SSH (made by piclaw-firstboot-secrets.service, before piclaw).
until [ "$(on_pi systemctl is-active piclaw-firstboot-secrets 2>/dev/null || true)" = active ]; do
  alive
  [ $(($(now_s) - t0)) -lt "$ready_timeout" ] || fail "first-boot secrets not made after $ready_timeout s"
  sleep 5
done
record_timing boot-to-first-boot-token $(($(now_s) - t0))
t=$(now_s)
token="$(on_pi piclaw token show | sed -n 's/^ *\(piclaw_[^ ]*\).*/\1/p' | head -n1)"
[ -n "$token" ] || fail "piclaw token show printed no token"
record_timing token-show-over-ssh $(($(now_s) - t))

# 4. MCP through the forward: refused without the token, initialize + tools/list with it.
url="http://127.0.0.1:$mcp_port/mcp"
mcp_post() { # BODY [extra curl args...] → response body; headers in $work/headers.txt
  local body="$1"; shift
  curl -sS -D "$work/headers.txt" -o - --max-time 120 -X POST "$url" \
    -H 'Content-Type: application/json' -H 'Accept: application/json, text/event-stream' "$@" --data "$body"
}
init='{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"piclaw-boot-test","version":"1"}}}'
code="$(curl -sS -o /dev/null -w '%{http_code}' --max-time 60 -X POST "$url" -H 'Content-Type: application/json' \
  -H 'Accept: application/json, text/event-stream' --data "$init")"
[ "$code" = 401 ] || fail "MCP without a token answered HTTP $code (expected 401)"
t=$(now_s)
auth=(-H "Authorization: Bearer $token")
mcp_post "$init" "${auth[@]}" >"$work/initialize.txt"
grep -q '"protocolVersion"' "$work/initialize.txt" || fail "initialize: $(cat "$work/initialize.txt")"
session="$(sed -n 's/^[Mm][Cc][Pp]-[Ss]ession-[Ii]d: *\([^\r]*\).*/\1/p' "$work/headers.txt")"
extra=("${auth[@]}" -H 'MCP-Protocol-Version: 2025-11-25')
[ -z "$session" ] || extra+=(-H "MCP-Session-Id: $session")
mcp_post '{"jsonrpc":"2.0","method":"notifications/initialized"}' "${extra[@]}" >/dev/null
mcp_post '{"jsonrpc":"2.0","id":2,"method":"tools/list"}' "${extra[@]}" >"$work/tools.txt"
tools="$(grep -o '"name":"[a-z_]*"' "$work/tools.txt" | sed 's/"name":"\(.*\)"/\1/' | sort -u | tr '\n' ' ')"
[ -n "$tools" ] || fail "tools/list: $(head -c 500 "$work/tools.txt")"
record_timing mcp-initialize-and-tools-list $(($(now_s) - t))
log "MCP tools: $tools"

# 5. A command over SSH, and what first boot should have done.
t=$(now_s)
on_pi 'set -e
  echo "host: $(hostname) $(uname -srm)"
  echo "node: $(node -v)"
  echo "root: $(df -h --output=size,used / | tail -n1)"
  echo "machine-id: $(cat /etc/machine-id)"
  echo "avahi: $(systemctl is-active avahi-daemon), piclaw.local = $(getent hosts piclaw.local | cut -d" " -f1)"
  echo "passwords: $(awk -F: "\$2 ~ /^\\\$/" /etc/shadow | wc -l) accounts have one"
  echo "piclaw: $(systemctl show -p MainPID -p NRestarts piclaw | tr "\n" " ")"' | tee "$work/ssh.txt"
record_timing ssh-command $(($(now_s) - t))
grep -q "^host: $expect_host " "$work/ssh.txt" || fail "hostname is not $expect_host"
grep -q '^passwords: 0 ' "$work/ssh.txt" || fail "an account has a password"
size_mb=$(on_pi "df --output=size -m / | tail -n1" | tr -d ' ')
image_mb=$(($(stat -c %s "$image") / 1024 / 1024))
[ "$size_mb" -gt "$image_mb" ] || fail "root file system (${size_mb} MiB) was not grown beyond the image (${image_mb} MiB)"

# 6. First-boot settings from the boot partition (--imager).
if [ -n "$imager" ]; then
  t=$(now_s)
  on_pi 'echo "--- boot settings status"; cat /var/lib/piclaw-boot/status.json
    echo "--- wpa_supplicant"; sed "s/psk=.*/psk=<redacted>/" /etc/wpa_supplicant/wpa_supplicant-wlan0.conf
    echo "wants: $(readlink /etc/systemd/system/sys-subsystem-net-devices-wlan0.device.wants/wpa_supplicant@wlan0.service)"
    echo "--- network status"; cat /run/piclaw/network.json
    echo "--- time"; echo "tz: $(readlink /etc/localtime)"; cat /etc/default/locale
    echo "now: $(date -u +%s) build: $(stat -c %Y /usr/lib/clock-epoch) rtc: $(cat /sys/class/rtc/rtc0/since_epoch 2>/dev/null)"
    echo "fake-hwclock: $(cat /etc/fake-hwclock.data)"
    echo "boot partition: $(ls /boot/firmware | tr "\n" " ")"
    echo "ntp: $(timedatectl show -p NTPSynchronized --value 2>/dev/null)"
    echo "--- config"; grep -E "profile|passcode" /etc/piclaw/config.yaml; stat -c "passcode %U %a" /var/lib/piclaw/phone-passcode
    journalctl -b --no-pager -q -u piclaw-boot-settings | tail -n 20' | tee "$work/imager.txt"
  grep -q '"format": "cloud-init"' "$work/imager.txt" && grep -q '"state": "applied"' "$work/imager.txt" ||
    fail "cloud-init settings not applied"
  grep -q '"state": "rejected"' "$work/imager.txt" && fail "a boot settings file was rejected"
  grep -q '^country=GB' "$work/imager.txt" && grep -q 'ssid="PiClaw Lab"' "$work/imager.txt" ||
    fail "Wi-Fi configuration not written"
  grep -q '"configured":true,"ssid":"PiClaw Lab","device":false,"state":"no-device"' "$work/imager.txt" ||
    fail "network status does not show the configured Wi-Fi (no radio in QEMU)"
  grep -q '"ethernet":{"up":true,"ipv4":"10.0.2.15"}' "$work/imager.txt" || fail "network status: Ethernet not up"
  grep -q '^tz: /usr/share/zoneinfo/Europe/London' "$work/imager.txt" || fail "time zone not set"
  grep -q '^LANG=en_GB.UTF-8' "$work/imager.txt" || fail "locale not set"
  grep -q 'profile: corexy-fluidnc' "$work/imager.txt" && grep -q '^passcode piclaw 600' "$work/imager.txt" ||
    fail "piclaw.txt not applied"
  read -r now build rtc_s < <(sed -n 's/^now: \([0-9]*\) build: \([0-9]*\) rtc: \([0-9]*\).*/\1 \2 \3/p' "$work/imager.txt")
  [ -n "$now" ] && [ "$now" -ge "$build" ] || fail "clock ($now) older than the build ($build)"
  log "clock: guest $(date -u -d "@$now" +%FT%TZ), build $(date -u -d "@$build" +%FT%TZ), RTC $(date -u -d "@${rtc_s:-0}" +%FT%TZ)"
  ssh -i "$work/id_imager" -p "$ssh_port" -o BatchMode=yes -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null \
    -o LogLevel=ERROR alice@127.0.0.1 'echo "ssh as $(id -un) ok"' | grep -q '^ssh as alice ok' || fail "no SSH as the Imager's user"
  grep -q '^boot partition: .*passcode.txt' "$work/imager.txt" && fail "passcode.txt still on the boot partition"
  record_timing imager-checks $(($(now_s) - t))
fi

[ -n "$keep" ] || on_pi 'systemctl poweroff' >/dev/null 2>&1 || true
log "PASS"
echo "--- timings (s) ---"
cat "$TIMINGS_FILE"
