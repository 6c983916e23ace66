#!/usr/bin/env bash
# Writes Scripts/release/release-link/crownpager.order: the functions a running crownpager executes, in
# the order it first calls them, for lld's --symbol-ordering-file (Scripts/release/release-link.sh, the
# program of the .deb). lld then lays them out together at the start of the code, so a run touches a
# few hundred kB of contiguous code instead of 64 kB windows scattered over 5.6 MB: about 2 MB
# less peak RSS (CrownPagerApp.docc/Performance.md, "Footprint and wakeups").
#
# It builds the release program as Scripts/release/package.sh does, and runs it under valgrind's
# callgrind (which lists every function executed, by its symbol), with no hardware: `run` on the
# fake kernel of the tests with the built-in configuration and with a seconds clock, and `render`
# of slides, a scrub, the title list and a GIF. Installs valgrind through apt when missing.
#
# Run it again after larger changes: a function missing from the list still links (after the
# listed ones), so an old list costs some RSS, never correctness. Scripts/bench/wakeups.sh reports how
# many of the listed symbols the binary still has.
#
#   Scripts/release/symbol-order.sh [--seconds N]     N seconds of each run (default 20)
set -euo pipefail
trap 'echo "symbol-order: line $LINENO failed: $BASH_COMMAND" >&2' ERR
case "${1:-}" in -h|--help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;; esac
cd "$(dirname "$0")/../.."
for dir in /opt/swift/usr/bin /usr/share/swift/usr/bin; do [ -x "$dir/swift" ] && PATH="$PATH:$dir"; done
seconds=20
while [ $# -gt 0 ]; do
  case "$1" in
    --seconds) seconds="${2:?--seconds needs a number}"; shift 2 ;;
    *) echo "symbol-order: unknown option '$1' (see --help)" >&2; exit 64 ;;
  esac
done
case "$seconds" in '' | *[!0-9]*) echo "symbol-order: --seconds takes a whole number" >&2; exit 64 ;; esac
if ! command -v valgrind >/dev/null; then
  echo "symbol-order: installing valgrind (callgrind lists the functions a run executes)"
  apt-get install -y --no-install-recommends valgrind >/dev/null
fi
for tool in cc strip python3; do command -v "$tool" >/dev/null || { echo "symbol-order: needs $tool" >&2; exit 69; }; done

Scripts/release/build-info.sh >/dev/null
order=Scripts/release/release-link/crownpager.order
# The release link reads the list; any list (even an empty one) builds the program profiled.
[ -e "$order" ] || : >"$order"
. Scripts/release/release-link.sh
swift build "${release_build[@]}" --product crownpager >&2
binary="$(swift build "${release_build[@]}" --show-bin-path)/crownpager"
work="$(mktemp -d "${TMPDIR:-/tmp}/crownpager-order.XXXXXX")"
trap 'rm -rf "$work"' EXIT
# valgrind 3.19 cannot read the DWARF 5 the toolchain writes; the symbol table is all it needs.
cp "$binary" "$work/crownpager"
strip --strip-debug "$work/crownpager"
cc -shared -fPIC -O1 -I Tests/FakeKernel/include Tests/FakeKernel/*.c -o "$work/libFakeKernel.so" -ldl -lpthread
mkdir -p "$work/root"
printf '[display]\nbus = 1\n[[page]]\nkind = "clock"\ntitle = "Clock"\ntime = "%%H:%%M:%%S"\n' >"$work/clock.toml"

# Runs `crownpager run ARGS...` under callgrind on the fake kernel for $seconds, then SIGTERM.
profile_run() {
  local name="$1"
  shift
  env "LD_PRELOAD=$work/libFakeKernel.so" "FAKE_KERNEL_ROOT=$work/root" FAKE_I2C_DEVICES=1:0x3c \
    valgrind --tool=callgrind --demangle=no --callgrind-out-file="$work/$name.out" \
    "$work/crownpager" run "$@" </dev/null >/dev/null 2>"$work/$name.err" &
  local pid=$!
  sleep "$seconds"
  kill -TERM "$pid"
  wait "$pid" || { echo "symbol-order: the $name run failed:" >&2; tail -5 "$work/$name.err" >&2; exit 70; }
}
profile_run builtin --i2c-bus 1
profile_run clock --config "$work/clock.toml"
valgrind --tool=callgrind --demangle=no --callgrind-out-file="$work/render.out" "$work/crownpager" render \
  --out "$work/frames" --gif "$work/tour.gif" --frozen \
  --crown "+1,+1,@1s +1,@1.05s +1,@1.1s +1,@2s long-press,@3s -1,@3.5s press,@4s -3" >/dev/null 2>"$work/render.err"

# callgrind names each function once, in a fn= or cfn= line: "fn=(id) symbol".
python3 - "$work/builtin.out" "$work/clock.out" "$work/render.out" >"$order" <<'EOF'
import re, sys
seen = set()
pattern = re.compile(r"^c?fn=\(\d+\) (.+)$")
for path in sys.argv[1:]:
    for line in open(path, errors="replace"):
        match = pattern.match(line.rstrip("\n"))
        if not match:
            continue
        name = re.sub(r"'\d+$", "", match.group(1).strip())  # callgrind's recursion depth suffix
        if name and name not in seen and not name.startswith("0x"):
            seen.add(name)
            print(name)
EOF
# The build does not see the list change: the next release build links anew without this program.
rm -f "$binary"
echo "symbol-order: wrote $(wc -l <"$order") symbols to $order"
