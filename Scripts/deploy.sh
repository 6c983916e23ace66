#!/usr/bin/env bash
# Installs CrownPager on a Raspberry Pi over SSH, from this checkout on your desktop. By default
# no compiler runs on the Pi: the Debian package for the Pi's architecture is built here (or an
# up-to-date one in out/ is reused), copied over, installed with apt, and I2C is turned on.
#
#   Scripts/deploy.sh pi@crownpi.local                   the .deb route (64-bit Raspberry Pi OS or Debian 13)
#   Scripts/deploy.sh pi@crownpi.local --deb FILE        install this .deb
#   Scripts/deploy.sh pi@crownpi.local --build-on-target [install.sh options]
#                                                        copy the sources, build on the Pi (a Pi 4 or 5)
#
# Building the arm64 package on an x86-64 desktop cross-compiles in a Debian 13 root, which needs
# root here: the script asks for sudo then. SSH and sudo on the Pi may ask for passwords.
set -euo pipefail
cd "$(dirname "$0")/.."
usage() { awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; }
case "${1:-}" in
  -h|--help) usage; exit 0 ;;
  "" | -*) echo "deploy: give the Pi first: Scripts/deploy.sh user@host [options] (try --help)" >&2; exit 2 ;;
esac
host=$1
shift
build_on_target=0
deb=""
while [ $# -gt 0 ]; do
  case "$1" in
    --build-on-target) build_on_target=1; shift; break ;;
    --deb) deb="${2:?--deb needs a file}"; shift 2 ;;
    -h|--help) usage; exit 0 ;;
    *) echo "deploy: unknown option '$1' (try --help)" >&2; exit 2 ;;
  esac
done
say() { printf 'deploy: %s\n' "$*"; }
ssh_to() { ${CROWNPAGER_SSH:-ssh} "$@"; }
scp_to() { ${CROWNPAGER_SCP:-scp} "$@"; }

if [ "$build_on_target" -eq 1 ]; then
  say "copying the sources to $host:~/crownpager"
  git ls-files -z | tar --null -T - -czf - | ssh_to "$host" 'mkdir -p ~/crownpager && tar -xzf - -C ~/crownpager'
  say "building and installing on $host (sudo may ask for a password)"
  ssh_to -t "$host" "cd ~/crownpager && sudo Scripts/install.sh $*"
  exit 0
fi

if [ -z "$deb" ]; then
  arch="$(ssh_to "$host" dpkg --print-architecture)" || { say "could not ask $host for its architecture over SSH"; exit 1; }
  case "$arch" in
    arm64 | amd64) ;;
    armhf | armel)
      say "$host runs a 32-bit OS ($arch): there is no Swift for it in Debian, so no package either."
      say "Install 64-bit Raspberry Pi OS (any Pi Zero 2 W, 3, 4 or 5 runs it), or build there yourself"
      say "with a Swift toolchain you installed: Scripts/deploy.sh $host --build-on-target"
      exit 1 ;;
    *) say "$host is $arch: packages are made for arm64 and amd64 only"; exit 1 ;;
  esac
  version="$(Scripts/release/package.sh --print-version)"
  deb="out/crownpager_${version}_${arch}.deb"
  commit="$(git rev-parse --short=10 HEAD)"
  # Reused when it was built from this very commit with nothing changed since.
  built_from=""
  if [ -f "$deb" ]; then
    built_from="$(dpkg-deb --fsys-tarfile "$deb" | tar -xOf - ./usr/share/doc/crownpager/changelog.gz | gzip -dc | grep -o 'commit [0-9a-f]*' | cut -d' ' -f2)" || built_from=""
  fi
  if [ "$built_from" = "$commit" ] && git diff --quiet HEAD --; then
    say "reusing $deb (built from $commit)"
  else
    say "building $deb for $host's $arch"
    if [ "$arch" != "$(dpkg --print-architecture)" ] && [ "$(id -u)" -ne 0 ]; then
      sudo -E Scripts/release/package.sh --arch "$arch" >/dev/null
    else
      Scripts/release/package.sh --arch "$arch" >/dev/null
    fi
  fi
fi
[ -f "$deb" ] || { say "no package at $deb"; exit 1; }
name="$(basename "$deb")"
say "copying $name to $host:/tmp/"
scp_to "$deb" "$host:/tmp/$name"
say "installing it on $host with apt (sudo may ask for a password)"
# An edited /etc/crownpager/crownpager.toml is kept, without a question (confold).
ssh_to -t "$host" "sudo apt-get install -y -o Dpkg::Options::=--force-confdef -o Dpkg::Options::=--force-confold /tmp/$name && rm -f /tmp/$name"
say "turning I2C on if it is off"
ssh_to "$host" 'sudo bash -s -- --enable-i2c-only' <Scripts/install.sh
say "done: ssh $host journalctl -u crownpager -f (reboot once if I2C was just enabled)"
