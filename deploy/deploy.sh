#!/usr/bin/env bash
# Install or update PiClaw on a Raspberry Pi that runs Raspberry Pi OS (or Debian), from a workstation.
#
#   deploy/deploy.sh [options] USER@HOST
#     -p, --port N         SSH port (default 22)
#     -i, --identity FILE  SSH private key
#     --profile NAME       rig profile whose overlays go into config.txt (default corexy-fluidnc)
#     --src DIR            PiClaw checkout to build (default: this one)
#     --app DIR            an already staged app tree (skips the local TypeScript build)
#     --min-free-mb N      refuse when /opt has less free space (default 600)
#     -o OPTION            extra ssh option (repeatable), e.g. -o StrictHostKeyChecking=accept-new
#
# Steps: check the Pi (model, OS, arch, Node ≥ 20, npm, free space) → build on the workstation
# (TypeScript only) → copy the app when its manifest differs (tar over SSH) → `npm ci --omit=dev` on
# the Pi → user `piclaw` in gpio/video/dialout → a marked block of overlays in config.txt → the
# unit from systemd/ installed, enabled, (re)started → the MCP URL. Idempotent: a second run copies
# nothing, restarts nothing and prints "no changes".
#
# PICLAW_DEPLOY_SSH: the remote-command runner. It is called as `$PICLAW_DEPLOY_SSH 'SHELL COMMAND'`
# and must run that sh command as root on the target with stdin/stdout passed through. Default:
# `ssh USER@HOST sudo -n sh -c …` (no sudo for root@HOST). Tests use e.g. `env PICLAW_ROOT=/scratch PATH=/stubs:$PATH sh -c`.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/.." && pwd)"

log() { printf 'deploy: %s\n' "$*" >&2; }
die() { log "error: $*"; exit 1; }

port=22 identity="" profile="corexy-fluidnc" src="$repo" app="" min_free_mb=600 target=""
ssh_extra=()
while [ $# -gt 0 ]; do
  case "$1" in
    -p|--port) port="$2"; shift 2 ;;
    -i|--identity) identity="$2"; shift 2 ;;
    --profile) profile="$2"; shift 2 ;;
    --src) src="$(realpath "$2")"; shift 2 ;;
    --app) app="$(realpath "$2")"; shift 2 ;;
    --min-free-mb) min_free_mb="$2"; shift 2 ;;
    -o) ssh_extra+=(-o "$2"); shift 2 ;;
    -h|--help) sed -n '2,23p' "$0"; exit 0 ;;
    -*) die "unknown option $1 (try --help)" ;;
    *) target="$1"; shift ;;
  esac
done
[ -n "$target" ] || [ -n "${PICLAW_DEPLOY_SSH:-}" ] || die "usage: deploy.sh [options] USER@HOST (try --help)"

# sh single-quoting for a command line that crosses SSH.
shq() { printf "'%s'" "$(printf '%s' "$1" | sed "s/'/'\\\\''/g")"; }
remote() { # SHELL_COMMAND → runs as root on the target
  if [ -n "${PICLAW_DEPLOY_SSH:-}" ]; then
    # shellcheck disable=SC2086 # the runner is a command line by contract
    $PICLAW_DEPLOY_SSH "$1"
  else
    local opts=(-p "$port" -o BatchMode=yes -o ConnectTimeout=15 "${ssh_extra[@]}")
    [ -z "$identity" ] || opts+=(-i "$identity")
    local sudo="sudo -n "
    [ "${target%%@*}" != root ] || sudo=""
    ssh "${opts[@]}" "$target" "${sudo}sh -c $(shq "$1")"
  fi
}
remote_step() { remote "sh -s -- $*" <"$here/lib/remote.sh"; }

# 1. Check the Pi.
probe="$(remote_step probe)" || die "cannot run commands as root on the target (SSH key? passwordless sudo?)"
field() { printf '%s\n' "$probe" | sed -n "s/^$1=//p"; }
log "target: $(field model) — $(field os) — $(field arch) — node $(field node) — $(field free_mb) MB free"
case "$(field model)" in *"Raspberry Pi"*) ;; *) log "warning: not a Raspberry Pi ($(field model)); continuing" ;; esac
case "$(field arch)" in aarch64|arm64|x86_64) ;; *)
  die "$(field arch): PiClaw needs a 64-bit OS (onnxruntime-node ships no 32-bit ARM build); install Raspberry Pi OS (64-bit)" ;;
esac
node_major="$(field node | sed -n 's/^v\([0-9]*\).*/\1/p')"
[ -n "$node_major" ] && [ "$node_major" -ge 20 ] ||
  die "Node.js $(field node) on the target; PiClaw needs ≥ 20 (Raspberry Pi OS bookworm ships 18: install Node 20+ from nodesource.com or Debian trixie)"
[ "$(field npm)" != none ] || die "npm is missing on the target (apt install npm)"

# 2. The app, staged on the workstation: compiled JavaScript + the files the daemon reads, plus what
# the configure step installs (wrapper, default config, config.txt block for the profile).
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
if [ -z "$app" ]; then
  "$repo/image-build/lib/app.sh" "$src" "$work/app" --no-deps >&2
  app="$work/app"
fi
[ -f "$app/package-lock.json" ] && [ -f "$app/systemd/piclaw.service" ] ||
  die "$app is not a staged PiClaw app (package-lock.json, systemd/piclaw.service)"
stage="$work/stage"
mkdir -p "$stage"
cp -a "$app/." "$stage/"
rm -rf "$stage/node_modules" "$stage/.deploy"
mkdir -p "$stage/.deploy"
cp "$repo/image-build/overlay/usr/local/bin/piclaw" "$stage/.deploy/piclaw"
cp "$here/config.yaml" "$stage/.deploy/config.yaml"
sed -i "s/^  profile: .*/  profile: $profile/" "$stage/.deploy/config.yaml"
profile_file="$repo/calibration/profiles/$profile.yaml"
[ -f "$profile_file" ] || profile_file="$profile"
[ -f "$profile_file" ] || die "no rig profile $profile"
node "$here/lib/overlays.mjs" "$profile_file" >"$stage/.deploy/config-block.txt"

# Content hash of the whole staged tree (paths, modes, bytes): equal hash → nothing to copy.
manifest="$(cd "$stage" && find . -type f -printf '%P %m\n' | LC_ALL=C sort |
  while read -r path mode; do printf '%s %s %s\n' "$mode" "$(sha256sum <"$path" | cut -c1-64)" "$path"; done |
  sha256sum | cut -c1-64)"

changes=0
count() { local out="$1"; printf '%s\n' "$out" | grep '^changed: ' | sed 's/^/deploy: /' >&2 || true
  changes=$((changes + $(printf '%s\n' "$out" | grep -c '^changed: ' || true))); }

restart=0
if [ "$(field manifest)" = "$manifest" ]; then
  log "app: up to date (manifest ${manifest:0:12})"
else
  free="$(field free_mb)"
  [ "$free" -ge "$min_free_mb" ] || die "only $free MB free under /opt (need $min_free_mb)"
  log "app: copying ($(du -sh "$stage" | cut -f1)) and installing production dependencies on the target"
  tar -C "$stage" -czf - . | remote 'rm -rf "${PICLAW_ROOT:-}/opt/piclaw.new" && mkdir -p "${PICLAW_ROOT:-}/opt/piclaw.new" && tar -xzf - --no-same-owner -C "${PICLAW_ROOT:-}/opt/piclaw.new"'
  out="$(remote_step install-app "$manifest")"
  count "$out"
  restart=1
fi

# 3. User, groups, config, overlays, wrapper, unit, service.
out="$(remote_step configure "$restart")"
count "$out"
active="$(printf '%s\n' "$out" | sed -n 's/^active=//p')"
printf '%s\n' "$out" | grep '^note: ' | sed 's/^/deploy: /' >&2 || true

shown="${target:-<user>@<pi>}"
host="${shown#*@}"
sudo_hint="sudo "
[ "${shown%%@*}" != root ] || sudo_hint=""
if [ "$changes" -eq 0 ]; then echo "no changes"; else echo "$changes changes"; fi
cat <<MSG
piclaw.service: ${active:-unknown}
MCP endpoint:   http://$host:8048/mcp   (server.host/port in /etc/piclaw/config.yaml)
Create a token: ssh $shown ${sudo_hint}piclaw token create --label my-laptop
                (MCP hosts send it as  Authorization: Bearer <token>)
Logs:           ssh $shown journalctl -u piclaw -f
MSG
