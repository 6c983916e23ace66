#!/usr/bin/env bash
# The inner loop: builds, then runs every test but those tagged .endToEnd (they start the built
# program, the fake kernel, tmux or systemd-analyze) and .slow (thousands of random inputs). The
# tags in Tests/ are the source of truth; the names they mark go to `swift test --skip`, which
# every toolchain from 6.0 on takes (tag filters on the command line are newer than 6.0.3).
#
#   Scripts/dev/fast-tests.sh            build, then the fast tests (under 60 s on 2 cores)
#   Scripts/dev/fast-tests.sh --list     print the skipped suites and tests, one a line
#   Scripts/dev/fast-tests.sh -- ARGS    pass ARGS on to swift test (e.g. -- --filter PagerCoreTests)
#
# Scripts/test.sh runs everything; CI runs that.
set -euo pipefail
cd "$(dirname "$0")/../.."
for dir in /opt/swift/usr/bin /usr/share/swift/usr/bin; do [ -x "$dir/swift" ] && PATH="$PATH:$dir"; done
list=false extra=()
case "${1:-}" in
  -h|--help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;;
  --list) list=true ;;
  --) shift; extra=("$@") ;;
  "") ;;
  *) echo "fast-tests: unknown option '$1' (try --help)" >&2; exit 2 ;;
esac
# A suite whose @Suite names the tag, or a test whose @Test does: the declaration's name.
mapfile -t skipped < <(
  grep -rhoE '@(Suite|Test)\([^)]*\.tags\([^)]*\.(endToEnd|slow)[^)]*\)[^@]*?(struct|final class|func) [A-Za-z0-9_]+' \
    Tests --include='*.swift' | sed -E 's/.*(struct|final class|func) //' | sort -u)
if [ "${#skipped[@]}" -eq 0 ]; then
  echo "fast-tests: found no test tagged .endToEnd or .slow: the tags in Tests/ have changed shape" >&2
  exit 1
fi
if $list; then printf '%s\n' "${skipped[@]}"; exit 0; fi
[ -f Sources/CrownPagerBuildInfo/build-info.generated.h ] || Scripts/release/build-info.sh
swift build --build-tests
pattern="$(IFS='|'; echo "${skipped[*]}")"
# Test IDs read Module.Suite/test(); a name between dots, slashes or a parenthesis is the whole name.
swift test --skip-build --skip "(^|[./])($pattern)([/(]|$)" "${extra[@]}"
