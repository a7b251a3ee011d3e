#!/usr/bin/env bash
# The test desktop: a virtual X display (Xvfb) with a window manager (openbox), a D-Bus
# session with its accessibility bus (AT-SPI) and a booted Wine prefix, on which the live
# tests drive real applications.
#
#   scripts/test-desktop.sh install   apt-installs what the live tests need (Debian 12; idempotent)
#   scripts/test-desktop.sh start     starts the desktop; prints `export NAME=value` lines to eval
#   scripts/test-desktop.sh status    says what is running (exit 0 only if the whole desktop is up)
#   scripts/test-desktop.sh stop      stops what `start` started, nothing else
#
# Environment:
#   SKILLDESK_DISPLAY     display to use (default :99; helpers and developers pick their own)
#   SKILLDESK_SCREEN      screen geometry (default 1280x800x24)
#   SKILLDESK_WINEPREFIX  Wine prefix (default /tmp/skilldesk-wine, or /tmp/skilldesk-wine-N for display :N != :99)
#   SKILLDESK_STATE_DIR   where pids and logs go (default /tmp/skilldesk-desktop-N)
#
# Works non-interactively (CI, root, no stdin). Everything it starts is recorded in the state
# dir, so `stop` never touches an X server, window manager or Wine prefix it did not start.
set -euo pipefail

DISPLAY_NAME="${SKILLDESK_DISPLAY:-:99}"
if [[ ! "$DISPLAY_NAME" =~ ^:([0-9]+)$ ]]; then
  echo "test-desktop: expected SKILLDESK_DISPLAY to look like :NN, got \`$DISPLAY_NAME\`" >&2
  exit 2
fi
DISPLAY_NUM="${BASH_REMATCH[1]}"
SCREEN="${SKILLDESK_SCREEN:-1280x800x24}"
if [[ "$DISPLAY_NAME" == ":99" ]]; then DEFAULT_PREFIX=/tmp/skilldesk-wine; else DEFAULT_PREFIX="/tmp/skilldesk-wine-$DISPLAY_NUM"; fi
PREFIX="${SKILLDESK_WINEPREFIX:-$DEFAULT_PREFIX}"
STATE="${SKILLDESK_STATE_DIR:-/tmp/skilldesk-desktop-$DISPLAY_NUM}"
# Wine: no debug chatter, and no prompts to download Mono/Gecko (there is no network for them).
WINE_ENV=(WINEPREFIX="$PREFIX" WINEDEBUG=-all WINEDLLOVERRIDES="mscoree,mshtml=")

PACKAGES=(
  xvfb xauth x11-utils x11-xserver-utils openbox dbus-x11 procps
  xdotool wmctrl xclip imagemagick
  wine wine64 mousepad galculator gnome-calculator chromium
  libreoffice-calc libreoffice-writer libreoffice-impress geany xterm pcmanfm thunar xarchiver zip unzip p7zip-full
  vlc gnome-clocks kolourpaint qalculate-gtk ktimer alarm-clock-applet
  fonts-dejavu-core
  at-spi2-core gir1.2-atspi-2.0 python3-gi libglib2.0-bin
  g++-mingw-w64-x86-64-posix binutils-mingw-w64-x86-64
)

log() { echo "test-desktop: $*" >&2; }
die() { log "$*"; exit 1; }

alive() { [[ -n "${1:-}" ]] && kill -0 "$1" 2>/dev/null; }
read_pid() { [[ -f "$STATE/$1.pid" ]] && cat "$STATE/$1.pid" || true; }

# Pid files can outlive their process and the pid be reused: only trust a pid whose command matches.
ours() {
  local name="$1" pid
  pid="$(read_pid "$name")"
  alive "$pid" || return 1
  case "$name" in
    xvfb) grep -q "Xvfb" "/proc/$pid/cmdline" 2>/dev/null ;;
    openbox) grep -q "openbox" "/proc/$pid/cmdline" 2>/dev/null ;;
    dbus) grep -q "dbus-daemon" "/proc/$pid/cmdline" 2>/dev/null ;;
    a11y) grep -q "at-spi-bus-launcher" "/proc/$pid/cmdline" 2>/dev/null ;;
    *) return 1 ;;
  esac
}

# A prefix's wineserver runs with its cwd in .../server-DEV-INODE of the prefix dir (the parent
# dir differs between Wine builds), which identifies it without touching other prefixes' servers.
wineserver_running() {
  [[ -d "$PREFIX" ]] || return 1
  local tag pid
  tag="server-$(stat -c %D "$PREFIX")-$(printf %x "$(stat -c %i "$PREFIX")")"
  for pid in $(pgrep -x 'wineserver(64)?' || true); do
    [[ "$(readlink "/proc/$pid/cwd" 2>/dev/null)" == */"$tag" ]] && return 0
  done
  return 1
}

display_answers() { DISPLAY="$DISPLAY_NAME" xdpyinfo >/dev/null 2>&1; }
wm_running() { DISPLAY="$DISPLAY_NAME" xprop -root _NET_SUPPORTING_WM_CHECK 2>/dev/null | grep -q 'window id'; }

wait_for() {
  local what="$1" tries="$2"; shift 2
  for ((i = 0; i < tries; i++)); do
    "$@" && return 0
    sleep 0.1
  done
  die "$what did not come up within $((tries / 10)) s (logs in $STATE)"
}

cmd_install() {
  local missing=() pkg
  for pkg in "${PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed' || missing+=("$pkg")
  done
  if ((${#missing[@]} == 0)); then
    log "all packages present (${#PACKAGES[@]})"
    return 0
  fi
  local sudo=()
  if ((EUID != 0)); then
    command -v sudo >/dev/null || die "installing ${missing[*]} needs root (or sudo)"
    sudo=(sudo -n)
  fi
  log "installing: ${missing[*]}"
  "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -q
  "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}" </dev/null
}

# Apps keep settings, sessions and recovery data under the XDG folders: each display gets its own,
# so desktops never share an app's state (LibreOffice even hands a second launch to the instance
# that uses the same profile, on whatever display that one is).
XDG_ENV=(XDG_CONFIG_HOME="$STATE/home/config" XDG_DATA_HOME="$STATE/home/data" XDG_CACHE_HOME="$STATE/home/cache")

print_env() {
  echo "export DISPLAY=$DISPLAY_NAME"
  local kv
  for kv in "${XDG_ENV[@]}"; do echo "export $kv"; done
  echo "export WINEPREFIX=$PREFIX"
  echo "export WINEDEBUG=-all"
  echo "export WINEDLLOVERRIDES=\"mscoree,mshtml=\""
  if [[ -f "$STATE/dbus.address" ]]; then echo "export DBUS_SESSION_BUS_ADDRESS=\"$(cat "$STATE/dbus.address")\""; fi
  if [[ -d "$STATE/bin" ]]; then echo "export PATH=$STATE/bin:$PATH"; fi
}

# VLC's `vlc` refuses to start as root ("VLC is not supposed to be run as root"), and CI runs the
# test desktop as root. As root, the desktop's PATH gets a copy of `vlc` whose check asks getppid
# instead of geteuid (the same player, the same program otherwise); users never run as root.
root_shims() {
  rm -rf "$STATE/bin"
  [[ "$(id -u)" == 0 && -x /usr/bin/vlc ]] || return 0
  grep -q geteuid /usr/bin/vlc || return 0
  mkdir -p "$STATE/bin"
  sed 's/geteuid/getppid/' /usr/bin/vlc >"$STATE/bin/vlc"
  chmod 755 "$STATE/bin/vlc"
}

start_xvfb() {
  if ours xvfb && display_answers; then return 0; fi
  if display_answers; then
    die "display $DISPLAY_NAME is already served by an X server this script did not start; pick another SKILLDESK_DISPLAY"
  fi
  command -v Xvfb >/dev/null || die "Xvfb is missing; run: scripts/test-desktop.sh install"
  # A stale lock from a crashed server would make Xvfb refuse to start.
  local lock="/tmp/.X$DISPLAY_NUM-lock"
  if [[ -f "$lock" ]] && ! alive "$(tr -d ' ' <"$lock")"; then rm -f "$lock" "/tmp/.X11-unix/X$DISPLAY_NUM"; fi
  setsid Xvfb "$DISPLAY_NAME" -screen 0 "$SCREEN" -nolisten tcp -dpi 96 +extension XTEST \
    </dev/null >"$STATE/xvfb.log" 2>&1 &
  echo $! >"$STATE/xvfb.pid"
  wait_for "Xvfb on $DISPLAY_NAME" 100 display_answers
}

start_dbus() {
  if ours dbus; then return 0; fi
  command -v dbus-daemon >/dev/null || { log "dbus-daemon missing; apps run without a session bus"; return 0; }
  local out
  mkdir -p "$STATE/home/config" "$STATE/home/data" "$STATE/home/cache"
  # Services D-Bus starts (dconf, which keeps GSettings) inherit the display's XDG folders.
  out="$(env "${XDG_ENV[@]}" dbus-daemon --session --fork --nopidfile --print-address=1 --print-pid=1 </dev/null 2>>"$STATE/dbus.log")"
  sed -n 1p <<<"$out" >"$STATE/dbus.address"
  sed -n 2p <<<"$out" >"$STATE/dbus.pid"
}

A11Y_LAUNCHER=/usr/libexec/at-spi-bus-launcher
# Asks whether the name is owned rather than calling the bus: a call would have D-Bus start another launcher.
a11y_bus_up() {
  DBUS_SESSION_BUS_ADDRESS="$(cat "$STATE/dbus.address")" dbus-send --session --print-reply --dest=org.freedesktop.DBus \
    / org.freedesktop.DBus.NameHasOwner string:org.a11y.Bus 2>/dev/null | grep -q 'boolean true'
}

# GTK and Qt apps publish their accessibility trees (what AtspiGrounder reads) on the AT-SPI
# bus. D-Bus would start it on demand, but then without DISPLAY, so every desktop would share one
# socket (~/.cache/at-spi/bus); started here, it gets this display's socket under the state dir,
# and `stop` can end it.
start_a11y() {
  if ours a11y && a11y_bus_up; then return 0; fi
  [[ -f "$STATE/dbus.address" ]] || { log "no D-Bus session: apps run without an accessibility bus"; return 0; }
  [[ -x "$A11Y_LAUNCHER" ]] || { log "at-spi2-core is missing (run: scripts/test-desktop.sh install); apps run without an accessibility bus"; return 0; }
  mkdir -p "$STATE/runtime" && chmod 700 "$STATE/runtime"
  # --a11y=1 sets org.a11y.Status.IsEnabled, which Qt and Chromium wait for before exposing a tree (GTK always does).
  DISPLAY="$DISPLAY_NAME" DBUS_SESSION_BUS_ADDRESS="$(cat "$STATE/dbus.address")" XDG_RUNTIME_DIR="$STATE/runtime" \
    setsid "$A11Y_LAUNCHER" --launch-immediately --a11y=1 </dev/null >>"$STATE/a11y.log" 2>&1 &
  echo $! >"$STATE/a11y.pid"
  wait_for "the accessibility bus on $DISPLAY_NAME" 100 a11y_bus_up
}

# The accessibility bus's address on the root window (as a GNOME session publishes it): Qt 5 apps
# otherwise ask the session bus for it while they are still connecting, and joined the tree on one
# start in three (KTimer, KolourPaint); with it, five in five. After openbox is up: a root property
# set while no other client is connected goes with the server's reset.
publish_a11y_bus() {
  [[ -f "$STATE/dbus.address" ]] || return 0
  local address
  address="$(DBUS_SESSION_BUS_ADDRESS="$(cat "$STATE/dbus.address")" gdbus call --session --dest org.a11y.Bus \
    --object-path /org/a11y/bus --method org.a11y.Bus.GetAddress 2>/dev/null | sed -E "s/^\('(.*)',\)$/\1/")"
  if [[ -n "$address" ]]; then
    DISPLAY="$DISPLAY_NAME" xprop -root -f AT_SPI_BUS 8s -set AT_SPI_BUS "$address" || log "could not publish the accessibility bus on the root window"
  fi
}

start_openbox() {
  if ours openbox && wm_running; then return 0; fi
  command -v openbox >/dev/null || die "openbox is missing; run: scripts/test-desktop.sh install"
  # Right after Xvfb starts answering, openbox has been seen to fail to open the display once: retry.
  local attempt pid
  for attempt in 1 2 3; do
    DISPLAY="$DISPLAY_NAME" setsid openbox --sm-disable </dev/null >>"$STATE/openbox.log" 2>&1 &
    pid=$!
    echo "$pid" >"$STATE/openbox.pid"
    for ((i = 0; i < 100; i++)); do
      wm_running && return 0
      alive "$pid" || break
      sleep 0.1
    done
    log "openbox attempt $attempt did not come up"
  done
  die "openbox on $DISPLAY_NAME did not come up (logs in $STATE)"
}

# Booting a prefix takes seconds; doing it once here (and keeping wineserver resident) spares every test.
start_wine() {
  command -v wine >/dev/null || die "wine is missing; run: scripts/test-desktop.sh install"
  local dbus=()
  [[ -f "$STATE/dbus.address" ]] && dbus=(DBUS_SESSION_BUS_ADDRESS="$(cat "$STATE/dbus.address")")
  mkdir -p "$PREFIX"
  # A persistent server must be the first one: `wineserver -p` does nothing if one already runs.
  if ! wineserver_running; then
    env "${WINE_ENV[@]}" wineserver -p </dev/null >>"$STATE/wine.log" 2>&1 || die "wineserver did not start (see $STATE/wine.log)"
  fi
  local boot=(wineboot)
  if [[ ! -f "$PREFIX/system.reg" ]]; then
    log "creating Wine prefix $PREFIX (once, a few seconds)"
    boot=(wineboot -i)
  fi
  # On an existing prefix this starts its services now, so the first `wine notepad.exe` of a test is fast.
  env "${WINE_ENV[@]}" "${dbus[@]}" DISPLAY="$DISPLAY_NAME" "${boot[@]}" </dev/null >>"$STATE/wine.log" 2>&1 \
    || die "${boot[*]} failed (see $STATE/wine.log)"
  echo "$PREFIX" >"$STATE/wineprefix"
}

cmd_start() {
  mkdir -p "$STATE"
  start_xvfb
  start_dbus
  start_a11y
  start_openbox
  publish_a11y_bus
  start_wine
  root_shims
  log "desktop up on $DISPLAY_NAME (state in $STATE)"
  print_env
}

cmd_status() {
  local ok=0 name
  for name in xvfb dbus a11y openbox; do
    if ours "$name"; then echo "$name: running (pid $(read_pid "$name"))"; else echo "$name: stopped"; [[ "$name" == dbus || "$name" == a11y ]] || ok=1; fi
  done
  if [[ -f "$STATE/wineprefix" ]] && wineserver_running; then
    echo "wine: prefix $PREFIX"
  else
    echo "wine: not started"
    ok=1
  fi
  if ((ok == 0)); then print_env; fi
  return "$ok"
}

stop_pid() {
  local name="$1" pid
  ours "$name" || { rm -f "$STATE/$name.pid"; return 0; }
  pid="$(read_pid "$name")"
  kill "$pid" 2>/dev/null || true
  for ((i = 0; i < 30; i++)); do alive "$pid" || break; sleep 0.1; done
  alive "$pid" && kill -9 "$pid" 2>/dev/null || true
  rm -f "$STATE/$name.pid"
}

cmd_stop() {
  [[ -d "$STATE" ]] || { log "nothing to stop on $DISPLAY_NAME"; return 0; }
  if [[ -f "$STATE/wineprefix" ]]; then
    # Ends every Wine process of this prefix (and only this prefix), then its wineserver.
    WINEPREFIX="$(cat "$STATE/wineprefix")" wineserver -k >/dev/null 2>&1 || true
    rm -f "$STATE/wineprefix"
  fi
  stop_pid openbox
  # The launcher ends its bus daemon (and the registry with it) when it exits.
  stop_pid a11y
  stop_pid dbus
  stop_pid xvfb
  rm -f "$STATE/dbus.address"
  log "stopped the desktop on $DISPLAY_NAME"
}

case "${1:-}" in
  install) cmd_install ;;
  start) cmd_start ;;
  status) cmd_status ;;
  stop) cmd_stop ;;
  *)
    echo "usage: scripts/test-desktop.sh install|start|status|stop   (display: SKILLDESK_DISPLAY, default :99)" >&2
    exit 2
    ;;
esac
