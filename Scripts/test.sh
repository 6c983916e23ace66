#!/usr/bin/env bash
# Runs the whole test suite: installs what is missing (Scripts/setup.sh --test), builds,
# checks that the pure targets compile as Embedded Swift for an RP2040, then runs swift test.
set -euo pipefail
cd "$(dirname "$0")/.."
Scripts/setup.sh --test
for dir in /opt/swift/usr/bin /usr/share/swift/usr/bin; do [ -x "$dir/swift" ] && PATH="$PATH:$dir"; done
echo "test: building"
swift build --build-tests
Scripts/check-embedded.sh
echo "test: running swift test"
swift test --skip-build
