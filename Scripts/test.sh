#!/usr/bin/env bash
# Runs the whole test suite: installs what is missing (Scripts/setup.sh --test), builds,
# checks that the pure targets compile as Embedded Swift for an RP2040, drives the terminal
# mock in tmux, then runs swift test. On Debian 12 it then builds again against libgpiod 2.x
# (Scripts/libgpiod2.sh, in .build-gpiod2) and runs the GPIO suites there too: both majors.
#
#   Scripts/test.sh        everything; any step that cannot run fails the whole run, naming
#                          the package it lacks
set -euo pipefail
case "${1:-}" in
  -h|--help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;;
  "") ;;
  *) echo "test: unknown option '$1' (try --help)" >&2; exit 2 ;;
esac
cd "$(dirname "$0")/.."
Scripts/setup.sh --test
for dir in /opt/swift/usr/bin /usr/share/swift/usr/bin; do [ -x "$dir/swift" ] && PATH="$PATH:$dir"; done
# Every tool a step below runs, with the package that has it: a missing one stops the run here.
missing=()
for need in swift:swiftlang cc:gcc pkg-config:pkg-config git:git tmux:tmux pkill:procps systemd-analyze:systemd; do
  command -v "${need%%:*}" >/dev/null 2>&1 || missing+=("${need%%:*} (package ${need#*:})")
done
if [ "${#missing[@]}" -gt 0 ]; then
  echo "test: cannot run, missing: ${missing[*]}; Scripts/setup.sh --test installs them" >&2
  exit 1
fi
Scripts/build-info.sh
echo "test: building"
swift build --build-tests
Scripts/check-embedded.sh
Scripts/tmux-smoke.sh "$(swift build --show-bin-path)/crownpager"
echo "test: running swift test"
system_major="$(pkg-config --modversion libgpiod | cut -d. -f1)"
CROWNPAGER_EXPECT_GPIOD_MAJOR="$system_major" swift test --skip-build

# The other libgpiod major: 2.x from bookworm-backports, unpacked locally, in a second build.
if [ "$system_major" = "1" ]; then
  echo "test: libgpiod 2.x (bookworm-backports) in a second build, .build-gpiod2"
  gpiod2_root="$(Scripts/libgpiod2.sh)"
  pc_dir="$(dirname "$(find "$gpiod2_root" -name libgpiod.pc | head -n 1)")"
  lib_dir="$(dirname "$pc_dir")"
  export PKG_CONFIG_PATH="$pc_dir"
  swift build --scratch-path .build-gpiod2 --build-tests -Xlinker -rpath -Xlinker "$lib_dir"
  bin="$(swift build --scratch-path .build-gpiod2 --show-bin-path)"
  ldd "$bin/crownpager" | grep -q "$lib_dir/libgpiod.so.3" \
    || { echo "test: $bin/crownpager does not load libgpiod.so.3 from $lib_dir" >&2; exit 1; }
  CROWNPAGER_EXPECT_GPIOD_MAJOR=2 swift test --scratch-path .build-gpiod2 --skip-build --filter GPIO
else
  echo "test: the system's libgpiod is $system_major.x: the 1.6 second build is not set up (see README, Tests)"
fi
