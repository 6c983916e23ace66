#!/usr/bin/env bash
# Runs the whole test suite: installs what is missing (Scripts/setup.sh --test), builds,
# checks that the pure targets compile as Embedded Swift for an RP2040, runs the engine as
# WebAssembly in Node and its page in Chromium (Scripts/web/test-wasm.sh), drives the terminal
# mock in tmux, then runs swift test. The program dlopens libgpiod, so the same build then runs
# the GPIO suites against the other major too (CROWNPAGER_LIBGPIOD): on Debian 12, libgpiod 2.x
# from bookworm-backports (Scripts/release/libgpiod2.sh); elsewhere, libgpiod.so.2 if it is installed.
#
#   Scripts/test.sh        everything; any step that cannot run fails the whole run, naming
#                          the package it lacks
#
# swift test also checks the service (ConfigInstallTests): `systemd-analyze verify` on
# Hardware/crownpager.service, and `systemd-analyze security --offline=yes` rating it 2.0 or
# less (systemd 250 or later; an older one prints that the exposure was not measured).
set -euo pipefail
case "${1:-}" in
  -h|--help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;;
  "") ;;
  *) echo "test: unknown option '$1' (try --help)" >&2; exit 2 ;;
esac
cd "$(dirname "$0")/.."
# The WebAssembly module's tools (Chromium among them) only where this toolchain can build it.
web=(--web)
Scripts/web/build-wasm.sh --check-toolchain >/dev/null 2>&1 || web=()
Scripts/setup.sh --test "${web[@]}"
for dir in /opt/swift/usr/bin /usr/share/swift/usr/bin; do [ -x "$dir/swift" ] && PATH="$PATH:$dir"; done
# Every tool a step below runs, with the package that has it: a missing one stops the run here.
missing=()
for need in swift:swiftlang cc:gcc git:git tmux:tmux pkill:procps systemd-analyze:systemd; do
  command -v "${need%%:*}" >/dev/null 2>&1 || missing+=("${need%%:*} (package ${need#*:})")
done
if [ "${#missing[@]}" -gt 0 ]; then
  echo "test: cannot run, missing: ${missing[*]}; Scripts/setup.sh --test installs them" >&2
  exit 1
fi
# The house format (.swift-format). swift-format comes with the toolchain (Debian's swiftlang
# 6.0.3 and swift.org's alike, and both read this tree the same way); the configuration names
# only rules both know, as --strict fails on an unknown one.
if ! swift format --version >/dev/null 2>&1; then
  echo "test: cannot run: this Swift toolchain has no swift-format (Debian: swiftlang has it)" >&2
  exit 1
fi
echo "test: swift format lint (.swift-format)"
swift format lint --strict --recursive --parallel Sources Tests Package.swift
Scripts/release/build-info.sh
echo "test: building"
swift build --build-tests
Scripts/dev/check-embedded.sh --target armv6m
# The engine as WebAssembly (its wasm32 compile is check-embedded's, cached), in Node and in a
# headless Chromium, against render's frames. A toolchain that cannot build it says so (69).
web_status=0
Scripts/web/test-wasm.sh "$(swift build --show-bin-path)/crownpager" || web_status=$?
if [ "$web_status" -eq 69 ]; then
  echo "test: NOT RUN: the WebAssembly module and its browser page (this Swift toolchain cannot build them; swift.org's 6.3 can)"
elif [ "$web_status" -ne 0 ]; then
  exit "$web_status"
fi
Scripts/dev/tmux-smoke.sh "$(swift build --show-bin-path)/crownpager"
echo "test: running swift test"
# libgpiod is loaded at run time, libgpiod.so.3 (2.x) before libgpiod.so.2 (1.x): the system's
# sonames say which major the suite must see.
sonames="$(/sbin/ldconfig -p)"
has_soname() { grep -qF $'\t'"$1 (" <<<"$sonames"; }
if has_soname libgpiod.so.3; then system_major=2
elif has_soname libgpiod.so.2; then system_major=1
else echo "test: neither libgpiod.so.3 nor libgpiod.so.2 is installed: install libgpiod3 or libgpiod2" >&2; exit 1
fi
if grep -q libgpiod <<<"$(ldd "$(swift build --show-bin-path)/crownpager")"; then
  echo "test: crownpager is linked to libgpiod: it must load it with dlopen" >&2; exit 1
fi
CROWNPAGER_EXPECT_GPIOD_MAJOR="$system_major" swift test --skip-build

# The other libgpiod major, same build: CROWNPAGER_LIBGPIOD has the shim load it instead.
if [ "$system_major" = "1" ]; then
  echo "test: the GPIO suites again against libgpiod 2.x (bookworm-backports, unpacked by Scripts/release/libgpiod2.sh)"
  gpiod2_root="$(Scripts/release/libgpiod2.sh)"
  gpiod2="$(find "$gpiod2_root" -name libgpiod.so.3 | head -n 1)"
  [ -n "$gpiod2" ] || { echo "test: Scripts/release/libgpiod2.sh unpacked no libgpiod.so.3" >&2; exit 1; }
  CROWNPAGER_LIBGPIOD="$gpiod2" CROWNPAGER_EXPECT_GPIOD_MAJOR=2 swift test --skip-build --filter GPIO
elif has_soname libgpiod.so.2; then
  echo "test: the GPIO suites again against the system's libgpiod 1.x (libgpiod.so.2)"
  CROWNPAGER_LIBGPIOD=libgpiod.so.2 CROWNPAGER_EXPECT_GPIOD_MAJOR=1 swift test --skip-build --filter GPIO
else
  echo "test: libgpiod 1.x (libgpiod.so.2, Debian 12's) is not installed here: its API was NOT tested; run Scripts/test.sh on Debian 12 for it"
fi
