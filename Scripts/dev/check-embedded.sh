#!/usr/bin/env bash
# Compiles the pure targets as Embedded Swift, the way they run off Linux: no OS, no Foundation,
# no existentials, no reflection; in the package's language mode (-swift-version 6), so a warning
# that Swift 6 makes an error (a type used from a module the file does not import) fails here as
# it would in the package. Two targets: a Cortex-M0+ (the RP2040's armv6m) and WebAssembly
# (wasm32, the module Scripts/web/build-wasm.sh links for the browser page).
# A wrong import or an existential in a pure target fails here.
#
#   Scripts/dev/check-embedded.sh                      both targets
#   Scripts/dev/check-embedded.sh --target armv6m      one of them (armv6m or wasm32)
#   Scripts/dev/check-embedded.sh --target wasm32 --objects DIR
#                                                      and keep the objects and modules in DIR
#
# A toolchain without an Embedded Swift standard library for a target (Debian's swiftlang 6.0.3
# has none; swift.org's 6.3.1, which CI uses, has both) says so and skips that target only.
set -euo pipefail
targets=(armv6m wasm32)
objects=""
while [ "$#" -gt 0 ]; do
  case "$1" in
    -h|--help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;;
    --target) [ "$#" -ge 2 ] || { echo "embedded: --target needs armv6m or wasm32" >&2; exit 2; }
      case "$2" in armv6m|wasm32) targets=("$2") ;; *) echo "embedded: unknown target '$2' (armv6m or wasm32)" >&2; exit 2 ;; esac
      shift 2 ;;
    --objects) [ "$#" -ge 2 ] || { echo "embedded: --objects needs a folder" >&2; exit 2; }
      objects=$2; shift 2 ;;
    *) echo "embedded: unknown option '$1' (try --help)" >&2; exit 2 ;;
  esac
done
cd "$(dirname "$0")/../.."
for dir in /opt/swift/usr/bin /usr/share/swift/usr/bin; do [ -x "$dir/swift" ] && PATH="$PATH:$dir"; done
# The pure targets, each after those it imports.
modules=(CrownVocabulary PagerGraphics PagerCore SSD1306 GlassViews CrownInput PagerConfig PagerSettings PagerMirror
  PagerControl PagerEngine PagerTools)
scratch=""
trap '[ -z "$scratch" ] || rm -rf "$scratch"' EXIT
check() {
  local short=$1 target out
  case "$short" in
    armv6m) target=armv6m-none-none-eabi ;;
    wasm32) target=wasm32-unknown-none-wasm ;;
  esac
  local resource_dir
  resource_dir="$(dirname "$(dirname "$(command -v swiftc)")")/lib/swift/embedded/$target"
  if [ ! -d "$resource_dir" ]; then
    echo "embedded: this Swift toolchain ($(swiftc --version 2>&1 | head -n 1)) has no Embedded Swift standard library for $target; $short skipped here."
    echo "embedded: (Debian's swiftlang 6.0.3 has no embedded/$target folder; swift.org's 6.3.1, which CI uses, has it.)"
    return 0
  fi
  if [ -n "$objects" ]; then out=$objects; mkdir -p "$out"; else scratch="$(mktemp -d)"; out=$scratch; fi
  local module
  for module in "${modules[@]}"; do
    # Sorted, so the object is the same from run to run (Scripts/web/build-wasm.sh caches it).
    mapfile -t files < <(find "Sources/$module" -name '*.swift' | LC_ALL=C sort)
    swiftc -enable-experimental-feature Embedded -target "$target" -swift-version 6 -wmo -parse-as-library -Osize \
      -package-name CrownPager -module-name "$module" -I "$out" -emit-module -emit-module-path "$out/$module.swiftmodule" \
      -c "${files[@]}" -o "$out/$module.o"
    echo "embedded: $module compiles for $target ($(wc -c <"$out/$module.o") bytes of object code)"
  done
  [ -z "$scratch" ] || rm -rf "$scratch"
  scratch=""
}
for short in "${targets[@]}"; do check "$short"; done
