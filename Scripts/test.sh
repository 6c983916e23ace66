#!/usr/bin/env bash
# Runs the whole test suite: installs what is missing (Scripts/setup.sh --test), builds,
# checks that the pure targets compile as Embedded Swift for an RP2040, drives the terminal
# mock in tmux, then runs swift test.
set -euo pipefail
cd "$(dirname "$0")/.."
Scripts/setup.sh --test
for dir in /opt/swift/usr/bin /usr/share/swift/usr/bin; do [ -x "$dir/swift" ] && PATH="$PATH:$dir"; done
echo "test: building"
swift build --build-tests
Scripts/check-embedded.sh
Scripts/tmux-smoke.sh "$(swift build --show-bin-path)/crownpager"
echo "test: running swift test"
swift test --skip-build
