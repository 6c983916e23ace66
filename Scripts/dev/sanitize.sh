#!/usr/bin/env bash
# Runs the whole test suite under a sanitizer, in its own build folder (.build-address or
# .build-thread): `Scripts/dev/sanitize.sh address` (AddressSanitizer and LeakSanitizer: out-of-bounds
# access, use after free, leaks) or `Scripts/dev/sanitize.sh thread` (ThreadSanitizer: data races).
# Any report fails the run. The leaks the test harness itself makes (XCTest's and Foundation's
# own objects, kept until exit) are suppressed by name in Scripts/dev/sanitize-leaks.supp; a leak in
# CrownPager's code is never suppressed.
set -euo pipefail
case "${1:-}" in -h|--help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;; esac
cd "$(dirname "$0")/../.."
for dir in /opt/swift/usr/bin /usr/share/swift/usr/bin; do [ -x "$dir/swift" ] && PATH="$PATH:$dir"; done
sanitizer="${1:-address}"
case "$sanitizer" in
  address)
    export ASAN_OPTIONS="halt_on_error=1:detect_leaks=1"
    export LSAN_OPTIONS="suppressions=$PWD/Scripts/dev/sanitize-leaks.supp:print_suppressions=0"
    ;;
  thread)
    export TSAN_OPTIONS="halt_on_error=1"
    ;;
  *) echo "sanitize: unknown sanitizer '$sanitizer': say address or thread" >&2; exit 64 ;;
esac
Scripts/release/build-info.sh >/dev/null
swift test --sanitize="$sanitizer" --scratch-path ".build-$sanitizer"
echo "sanitize: the whole suite passed under the $sanitizer sanitizer, with no report"
