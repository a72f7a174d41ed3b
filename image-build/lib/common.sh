# Shared helpers for image-build/*.sh (sourced, not run). Bash only.
# shellcheck shell=bash

# Timestamped progress line on stderr.
log() { printf '[%s] %s\n' "$(date -u +%H:%M:%S)" "$*" >&2; }
die() { log "error: $*"; exit 1; }

# Seconds since the epoch, for the timing table.
now_s() { date +%s; }

# Record a named duration (seconds) in $TIMINGS_FILE and echo it.
record_timing() {
  local name="$1" seconds="$2"
  log "timing: ${name} ${seconds} s"
  if [ -n "${TIMINGS_FILE:-}" ]; then printf '%s %s\n' "$name" "$seconds" >>"$TIMINGS_FILE"; fi
}

need_cmds() {
  local missing=()
  for c in "$@"; do command -v "$c" >/dev/null 2>&1 || missing+=("$c"); done
  [ ${#missing[@]} -eq 0 ] || die "missing tools: ${missing[*]} (apt-get install mmdebstrap qemu-user-static binfmt-support qemu-system-arm dosfstools mtools e2fsprogs fdisk openssh-client curl)"
}

# Foreign-architecture chroots need binfmt_misc with the qemu-aarch64 handler (F flag: no copy of the
# emulator inside the root file system).
ensure_binfmt_arm64() {
  if [ ! -e /proc/sys/fs/binfmt_misc/register ]; then
    mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc
  fi
  if [ ! -e /proc/sys/fs/binfmt_misc/qemu-aarch64 ]; then
    update-binfmts --enable qemu-aarch64 >/dev/null
  fi
  [ -e /proc/sys/fs/binfmt_misc/qemu-aarch64 ] || die "binfmt handler qemu-aarch64 not registered"
}

# Byte offset/size of partition N of a disk image, from sfdisk's JSON dump (sector size 512).
part_offset() { sfdisk -J "$1" | node -e 'const t=JSON.parse(require("fs").readFileSync(0,"utf8")).partitiontable;process.stdout.write(String(t.partitions[Number(process.argv[1])-1].start*512))' "$2"; }
