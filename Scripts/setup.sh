#!/usr/bin/env bash
# Installs what CrownPager needs to build, run and test, and nothing that is already there.
# Safe to run again and again. It says what it does before it does it.
#
#   Scripts/setup.sh               what building and running the pager needs
#   Scripts/setup.sh --test        plus what the test suite needs (tmux, procps, systemd-analyze)
#   Scripts/setup.sh --vm          plus what the VM check needs (qemu-system-x86, qemu-system-arm, e2fsprogs)
#   Scripts/setup.sh --packaging   plus what Scripts/release/package.sh needs (static C++ runtime, dpkg-deb,
#                                  lintian, debootstrap and qemu-user-static for arm64) and
#                                  Scripts/release/apt-repo.sh (apt-ftparchive, gpg)
#   Scripts/setup.sh --web         plus what the WebAssembly engine and its page need (Scripts/web/build-wasm.sh:
#                                  wasi-libc, libclang-rt-N-dev-wasm32, binaryen; its tests: nodejs, chromium)
#
# Every package is named, also those a package only recommends: apt runs with
# --no-install-recommends, as on a minimal system, so nothing arrives by chance.
set -euo pipefail

want_test=0
want_packaging=0
want_vm=0
want_web=0
for arg in "$@"; do
  case "$arg" in
    --test) want_test=1 ;;
    --packaging) want_packaging=1 ;;
    --vm) want_vm=1 ;;
    --web) want_web=1 ;;
    -h|--help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;;
    *) echo "setup: unknown option '$arg' (try --help)" >&2; exit 2 ;;
  esac
done

say() { printf 'setup: %s\n' "$*"; }

if [ "$(id -u)" -eq 0 ]; then sudo=""; elif command -v sudo >/dev/null 2>&1; then sudo="sudo"; else
  say "not root and no sudo: install packages by hand or run as root"; sudo="__none__"; fi

missing_packages() {
  local pkg
  for pkg in "$@"; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || printf '%s\n' "$pkg"
  done
}

apt_updated=0
# The package lists, read once per run (apt-cache needs them too).
apt_update_once() {
  [ "$apt_updated" -eq 1 ] && return 0
  [ "$sudo" != "__none__" ] || return 1
  say "refreshing the package lists (apt-get update)"
  $sudo apt-get update -qq
  apt_updated=1
}
apt_install() {
  [ "$#" -gt 0 ] || return 0
  if ! command -v apt-get >/dev/null 2>&1; then
    say "no apt-get here: please install $* with your package manager"; return 1
  fi
  if [ "$sudo" = "__none__" ]; then say "cannot install $* without root"; return 1; fi
  apt_update_once
  say "installing: $*"
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "$@" >/dev/null
}

# Building: the C library's headers and start files (Scrt1.o, crti.o: gcc, which swiftlang
# depends on, only recommends libc6-dev), git and CA certificates (SwiftPM fetches the
# dependencies with git), libi2c (the display) and i2c-tools (i2cdetect, i2ctransfer to replay
# traces), libmosquitto-dev (<mosquitto.h> for the MQTT client's types: the program links no
# libmosquitto, it loads libmosquitto1 when [mqtt] has a host). libgpiod follows below: only its
# run-time library, which the program loads itself.
packages=(libc6-dev git ca-certificates libi2c-dev i2c-tools libmosquitto-dev)
# GNU Unifont's glyphs (/usr/share/unifont/unifont.hex): text the built-in fonts lack, Hangul first
# (PagerGraphics.docc/UnicodeText.md; its test reads the installed file).
packages+=(unifont)
# For the tests: tmux (the terminal mock's test), procps (pkill, in that test), systemd
# (systemd-analyze verifies the unit file), mosquitto and mosquitto-clients (the MQTT tests start a
# broker of their own on 127.0.0.1 and read it with mosquitto_sub).
[ "$want_test" -eq 1 ] && packages+=(tmux procps mosquitto mosquitto-clients)
# GNU libmicrohttpd for the live mirror's tests ([web]: the program loads it at run time, the build
# needs no header): libmicrohttpd12 on Debian 12, libmicrohttpd12t64 on Debian 13 (the same soname).
# The library itself is asked for (its soname in ld.so's cache), whichever package brought it.
# (Read whole first: grep -q ending the pipe early would fail it under pipefail.)
if [ "$want_test" -eq 1 ] && ! grep -qF 'libmicrohttpd.so.12 ' <<<"$(/sbin/ldconfig -p)"; then
  microhttpd=libmicrohttpd12
  if command -v apt-cache >/dev/null 2>&1 && apt_update_once && apt-cache show libmicrohttpd12t64 >/dev/null 2>&1; then
    microhttpd=libmicrohttpd12t64
  fi
  packages+=("$microhttpd")
fi
[ "$want_test" -eq 1 ] && ! command -v systemd-analyze >/dev/null 2>&1 && packages+=(systemd)
# For the VM check (Scripts/dev/vm-check.sh): QEMU for amd64 and arm64 guests, and e2fsprogs
# (mkfs.ext4 -d makes the disks, debugfs reads the results back). The kernels are built in a
# cached Debian 13 root (Scripts/dev/vm/kernel.sh), not with this machine's packages.
[ "$want_vm" -eq 1 ] && packages+=(qemu-system-x86 qemu-system-arm e2fsprogs)
# For packaging: dpkg-deb builds and lintian checks the .deb, binutils reads the binary's needs,
# debootstrap, qemu-user-static and binfmt-support make and run the arm64 roots (the static C++
# runtime follows below, once the compiler is known); apt-utils (apt-ftparchive) and gnupg build and
# sign the apt repository of Scripts/release/apt-repo.sh.
[ "$want_packaging" -eq 1 ] && packages+=(binutils dpkg-dev lintian debootstrap qemu-user-static binfmt-support file apt-utils gnupg)
# For the WebAssembly engine (Scripts/web/build-wasm.sh): wasi-libc and clang's wasm32 runtime
# (malloc, strtod, __multi3 for the Embedded Swift runtime; not written by hand), binaryen (wasm-opt);
# for its tests, nodejs (runs the module) and chromium (opens the page headless).
# clang's wasm32 runtime is the newest libclang-rt-N-dev-wasm32 the archive has (14 on Debian 12,
# 19 on Debian 13).
if [ "$want_web" -eq 1 ]; then
  packages+=(wasi-libc binaryen nodejs chromium)
  wasm_rt="$(dpkg-query -W -f='${db:Status-Status} ${Package}\n' 'libclang-rt-*-dev-wasm32' 2>/dev/null |
    awk '$1 == "installed" { print $2 }' | sort -V | tail -n 1)" || wasm_rt=""
  if [ -z "$wasm_rt" ] && command -v apt-cache >/dev/null 2>&1 && apt_update_once; then
    wasm_rt="$(apt-cache search --names-only '^libclang-rt-[0-9]+-dev-wasm32$' | cut -d' ' -f1 | sort -V | tail -n 1)"
  fi
  if [ -n "$wasm_rt" ]; then packages+=("$wasm_rt"); else say "no libclang-rt-N-dev-wasm32 in this system's archive: the WebAssembly module cannot be linked here"; fi
fi
if command -v dpkg-query >/dev/null 2>&1; then
  mapfile -t needed < <(missing_packages "${packages[@]}")
  if [ "${#needed[@]}" -gt 0 ]; then apt_install "${needed[@]}"; else say "system packages present"; fi
else
  say "not a Debian-like system: make sure these are installed: ${packages[*]}"
fi

# The Swift toolchain: Debian 13 and current Raspberry Pi OS package it as 'swiftlang' (Swift 6.0.3).
find_swift() {
  command -v swift >/dev/null 2>&1 && return 0
  for dir in /opt/swift/usr/bin /usr/share/swift/usr/bin; do
    if [ -x "$dir/swift" ]; then export PATH="$PATH:$dir"; return 0; fi
  done
  return 1
}
if find_swift; then
  say "swift present: $(swift --version 2>/dev/null | head -n 1)"
else
  if command -v apt-cache >/dev/null 2>&1 && apt_update_once && apt-cache show swiftlang >/dev/null 2>&1; then
    apt_install swiftlang
  fi
  if ! find_swift; then
    say "no Swift toolchain found, and this system's packages do not offer 'swiftlang'."
    say "Debian 13 (trixie) and Raspberry Pi OS (trixie) have it: sudo apt install swiftlang."
    say "Elsewhere install Swift 6.0 or newer from swift.org (e.g. with swiftly), then run this again."
    exit 1
  fi
  say "swift installed: $(swift --version 2>/dev/null | head -n 1)"
fi

# libgpiod for a knob on GPIO, loaded at run time: libgpiod2 (1.6) where the archive has it
# (Debian 12, Ubuntu 24.04), else libgpiod3 (2.x: Debian 13, current Raspberry Pi OS). Nothing to
# do when either is installed.
if command -v dpkg-query >/dev/null 2>&1 && [ -n "$(missing_packages libgpiod2)" ] && [ -n "$(missing_packages libgpiod3)" ]; then
  apt_update_once || say "cannot read the package lists without root"
  if apt-cache show libgpiod2 >/dev/null 2>&1; then apt_install libgpiod2; else apt_install libgpiod3; fi
fi

# --static-swift-stdlib links the C++ runtime statically: libstdc++-N-dev, N the major version of
# the gcc the Swift toolchain links with.
if [ "$want_packaging" -eq 1 ]; then
  gcc_major="$(gcc -dumpversion 2>/dev/null | cut -d. -f1)" || { say "no gcc: the Swift toolchain needs it to link"; exit 1; }
  mapfile -t needed < <(missing_packages "libstdc++-$gcc_major-dev")
  if [ "${#needed[@]}" -gt 0 ]; then apt_install "${needed[@]}"; fi
fi
