#!/usr/bin/env bash
# Boot the built image in QEMU (arm64 `virt` machine, TCG emulation) and check the appliance end to end:
# SSH with a key from the boot partition, piclaw.service READY (Type=notify → `systemctl is-active`),
# the first-boot MCP token over SSH, an MCP `initialize` + `tools/list` through the port forward (and a
# 401 without the token), the root file system grown to the (enlarged) disk. Prints timings.
#
#   image-build/boot-test.sh [--image FILE] [--ready-timeout S] [--keep]
#   --keep: leave the VM running afterwards (its ssh port and pid are printed).
#
# Works on a copy of the image (1 GiB larger, to see the first-boot grow). Kernel and initrd are the
# image's own, read from its boot partition with mtools. Needs qemu-system-arm (qemu-system-aarch64),
# mtools, fdisk, openssh-client, curl; no root needed unless the image file is root-only.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
. "$here/lib/common.sh"

image="$here/out/piclaw-arm64.img" ready_timeout=1200 keep=""
while [ $# -gt 0 ]; do
  case "$1" in
    --image) image="$(realpath "$2")"; shift 2 ;;
    --ready-timeout) ready_timeout="$2"; shift 2 ;;
    --keep) keep=1; shift ;;
    -h|--help) sed -n '2,12p' "$0"; exit 0 ;;
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
append="root=LABEL=piclaw-root rootfstype=ext4 rootwait rw console=ttyAMA0 fsck.repair=yes"
t0=$(now_s)
qemu-system-aarch64 -M virt -cpu cortex-a72 -smp 2 -m 2048 \
  -kernel "$work/vmlinuz" -initrd "$work/initrd.img" -append "$append" \
  -drive "if=none,file=$disk,format=raw,id=hd0" -device virtio-blk-pci,drive=hd0 \
  -netdev "user,id=net0,hostfwd=tcp:127.0.0.1:${ssh_port}-:22,hostfwd=tcp:127.0.0.1:${mcp_port}-:8048" \
  -device virtio-net-pci,netdev=net0,romfile= -device virtio-rng-pci \
  -display none -monitor none -serial "file:$work/console.log" &
qemu_pid=$!
cleanup() {
  if [ -z "$keep" ]; then kill "$qemu_pid" 2>/dev/null || true; wait "$qemu_pid" 2>/dev/null || true; fi
}
trap cleanup EXIT
log "qemu pid $qemu_pid: ssh -p $ssh_port, MCP http://127.0.0.1:$mcp_port/mcp, console $work/console.log"

fail() {
  log "FAILED: $*"
  tail -n 40 "$work/console.log" >&2 || true
  on_pi 'systemctl --no-pager status piclaw-firstboot piclaw; journalctl --no-pager -n 60 -u piclaw-firstboot -u piclaw' >&2 || true
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
grep -q '^host: piclaw ' "$work/ssh.txt" || fail "hostname is not piclaw"
grep -q '^passwords: 0 ' "$work/ssh.txt" || fail "an account has a password"
size_mb=$(on_pi "df --output=size -m / | tail -n1" | tr -d ' ')
image_mb=$(($(stat -c %s "$image") / 1024 / 1024))
[ "$size_mb" -gt "$image_mb" ] || fail "root file system (${size_mb} MiB) was not grown beyond the image (${image_mb} MiB)"

[ -n "$keep" ] || on_pi 'systemctl poweroff' >/dev/null 2>&1 || true
log "PASS"
echo "--- timings (s) ---"
cat "$TIMINGS_FILE"
