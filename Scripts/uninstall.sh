#!/usr/bin/env bash
# Removes what Scripts/install.sh installed. Keeps /etc/crownpager (your configuration) unless --purge,
# which also removes the crownpager user. I2C stays enabled in config.txt.
#
#   sudo Scripts/uninstall.sh [--purge]
#   Scripts/uninstall.sh --root DIR [--purge]     remove from a folder instead of /
set -euo pipefail
root=""
purge=0
while [ $# -gt 0 ]; do
  case "$1" in
    --root) root="${2:?--root needs a folder}"; shift 2 ;;
    --purge) purge=1; shift ;;
    -h|--help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;;
    *) echo "uninstall: unknown option '$1' (try --help)" >&2; exit 2 ;;
  esac
done
say() { printf 'uninstall: %s\n' "$*"; }
if [ -z "$root" ]; then
  [ "$(id -u)" -eq 0 ] || { say "run as root (sudo Scripts/uninstall.sh), or give --root DIR"; exit 1; }
  if command -v systemctl >/dev/null 2>&1 && [ -d /run/systemd/system ]; then
    if systemctl cat crownpager.service >/dev/null 2>&1; then
      systemctl disable --now crownpager || say "could not stop and disable the service (above); removing its files anyway"
    fi
  fi
fi
for file in /etc/systemd/system/crownpager.service /usr/local/bin/crownpager \
            /etc/udev/rules.d/99-crownpager-i2c.rules /etc/udev/rules.d/99-crownpager-gpio.rules \
            /etc/udev/rules.d/99-crownpager-spi.rules /etc/modules-load.d/crownpager.conf; do
  if [ -e "$root$file" ]; then say "removing $root$file"; rm -f "$root$file"; fi
done
if [ "$purge" -eq 1 ]; then
  say "removing $root/etc/crownpager"; rm -rf "$root/etc/crownpager"
  # The service's StateDirectory=: the notifications kept across a restart.
  if [ -d "$root/var/lib/crownpager" ]; then say "removing $root/var/lib/crownpager"; rm -rf "$root/var/lib/crownpager"; fi
  if [ -z "$root" ] && id crownpager >/dev/null 2>&1; then say "removing the user crownpager"; userdel crownpager || say "could not remove the user crownpager (above)"; fi
else
  [ -d "$root/etc/crownpager" ] && say "kept $root/etc/crownpager (--purge removes it)"
fi
if [ -z "$root" ] && command -v systemctl >/dev/null 2>&1 && [ -d /run/systemd/system ]; then systemctl daemon-reload; fi
say "done"
