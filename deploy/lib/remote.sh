# shellcheck shell=sh
# PiClaw deploy: the part that runs ON the Pi, as root (sent over SSH on stdin by deploy/deploy.sh).
#   sh -s -- probe
#   sh -s -- install-app MANIFEST     (the new app was unpacked into /opt/piclaw.new)
#   sh -s -- configure RESTART(0|1)
# Every path is under ${PICLAW_ROOT:-} so tests can aim it at a scratch directory. Every step is
# idempotent and prints `changed: WHAT` only when it changed something: deploy.sh counts those lines.
set -eu
R="${PICLAW_ROOT:-}"
APP="$R/opt/piclaw"
changed() { echo "changed: $*"; }

# Replace DEST with SRC when they differ; returns 0 when it replaced.
install_if_changed() { # SRC DEST MODE
  if [ -f "$2" ] && cmp -s "$1" "$2"; then return 1; fi
  install -D -m "$3" "$1" "$2"
  return 0
}

probe() {
  model="$(tr -d '\0' <"$R/proc/device-tree/model" 2>/dev/null || echo unknown)"
  os="$(. "$R/etc/os-release" 2>/dev/null && echo "${PRETTY_NAME:-unknown}" || echo unknown)"
  echo "model=$model"
  echo "os=$os"
  echo "arch=$(uname -m)"
  echo "node=$(node -v 2>/dev/null || echo none)"
  echo "npm=$(npm -v 2>/dev/null || echo none)"
  mkdir -p "$R/opt"
  echo "free_mb=$(df -Pm "$R/opt" | awk 'NR==2 {print $4}')"
  echo "manifest=$(cat "$APP/.piclaw-manifest" 2>/dev/null || echo none)"
}

install_app() {
  new="$R/opt/piclaw.new"
  [ -d "$new" ] || { echo "install-app: $new is missing" >&2; exit 1; }
  lock="$(sha256sum "$new/package-lock.json" | cut -d' ' -f1)"
  if [ -d "$APP/node_modules" ] && [ "$(cat "$APP/.piclaw-lock" 2>/dev/null)" = "$lock" ]; then
    mv "$APP/node_modules" "$new/node_modules"
  else
    # --ignore-scripts: sharp, onnxruntime-node and serialport load prebuilt arm64 binaries; the
    # optional pigpio/onoff addons stay unbuilt (the GRBL back-end does not need them).
    (cd "$new" && npm ci --omit=dev --ignore-scripts --no-audit --no-fund --loglevel=error)
    changed "production dependencies installed (npm ci)"
  fi
  echo "$lock" >"$new/.piclaw-lock"
  echo "$1" >"$new/.piclaw-manifest"
  rm -rf "$APP.old"
  if [ -d "$APP" ]; then mv "$APP" "$APP.old"; fi
  mv "$new" "$APP"
  rm -rf "$APP.old"
  changed "app in /opt/piclaw"
}

# The marked block in config.txt (Raspberry Pi OS bookworm+: /boot/firmware; older: /boot).
config_txt_block() {
  txt="$R/boot/firmware/config.txt"
  [ -f "$txt" ] || txt="$R/boot/config.txt"
  [ -f "$txt" ] || { echo "note: no config.txt found; overlays not set"; return 0; }
  want="$APP/.deploy/config-block.txt"
  begin='# >>> piclaw (managed by deploy.sh; edits inside are replaced) >>>'
  end='# <<< piclaw <<<'
  current="$(awk -v b="$begin" -v e="$end" '$0==b{on=1;next} $0==e{on=0;next} on' "$txt")"
  if grep -qxF "$begin" "$txt" && [ "$current" = "$(cat "$want")" ]; then return 0; fi
  tmp="$txt.piclaw-tmp"
  awk -v b="$begin" -v e="$end" '$0==b{on=1;next} $0==e{on=0;next} !on' "$txt" >"$tmp"
  { echo "$begin"; cat "$want"; echo "$end"; } >>"$tmp"
  cat "$tmp" >"$txt"
  rm -f "$tmp"
  changed "overlays in ${txt#"$R"} (reboot to apply)"
}

configure() {
  restart="$1"
  for g in gpio video dialout; do
    if ! getent group "$g" >/dev/null; then groupadd --system "$g"; changed "group $g"; fi
  done
  if ! getent passwd piclaw >/dev/null; then
    useradd --system --user-group --home-dir /var/lib/piclaw --no-create-home \
      --shell /usr/sbin/nologin piclaw
    changed "user piclaw"
  fi
  for g in gpio video dialout; do
    if ! id -nG piclaw | tr ' ' '\n' | grep -qx "$g"; then usermod -aG "$g" piclaw; changed "piclaw in group $g"; fi
  done

  if [ ! -f "$R/etc/piclaw/config.yaml" ]; then
    install -d -m 755 "$R/etc/piclaw"
    install -m 640 "$APP/.deploy/config.yaml" "$R/etc/piclaw/config.yaml"
    chown root:piclaw "$R/etc/piclaw/config.yaml"
    changed "default /etc/piclaw/config.yaml"
    restart=1
  fi
  config_txt_block
  if install_if_changed "$APP/.deploy/piclaw" "$R/usr/local/bin/piclaw" 755; then
    changed "/usr/local/bin/piclaw"
  fi
  if install_if_changed "$APP/systemd/piclaw.service" "$R/etc/systemd/system/piclaw.service" 644; then
    restart=1
    systemctl daemon-reload
    changed "piclaw.service unit"
  fi
  if [ "$(systemctl is-enabled piclaw 2>/dev/null || true)" != enabled ]; then
    systemctl enable --quiet piclaw
    changed "piclaw.service enabled"
  fi
  if [ "$restart" = 1 ]; then
    systemctl restart piclaw
    changed "piclaw.service restarted"
  elif [ "$(systemctl is-active piclaw 2>/dev/null || true)" != active ]; then
    systemctl start piclaw
    changed "piclaw.service started"
  fi
  echo "active=$(systemctl is-active piclaw 2>/dev/null || true)"
}

case "${1:-}" in
  probe) probe ;;
  install-app) install_app "${2:?manifest}" ;;
  configure) configure "${2:-0}" ;;
  *) echo "remote.sh: unknown step ${1:-}" >&2; exit 2 ;;
esac
