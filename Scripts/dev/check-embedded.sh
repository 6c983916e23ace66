#!/usr/bin/env bash
# Compiles the pure targets as Embedded Swift for a Cortex-M0+ (the RP2040's armv6m), the way
# they will run on a microcontroller: no OS, no Foundation, no existentials, no reflection.
# A wrong import or an existential in a pure target fails here.
set -euo pipefail
case "${1:-}" in -h|--help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;; esac
cd "$(dirname "$0")/../.."
for dir in /opt/swift/usr/bin /usr/share/swift/usr/bin; do [ -x "$dir/swift" ] && PATH="$PATH:$dir"; done
target=armv6m-none-none-eabi
resource_dir="$(dirname "$(dirname "$(command -v swiftc)")")/lib/swift/embedded/$target"
if [ ! -d "$resource_dir" ]; then
  echo "embedded: this Swift toolchain has no Embedded Swift standard library for $target; skipped here."
  echo "embedded: (Swift 6.0 from Debian's swiftlang may lack it; the CI toolchain has it.)"
  exit 0
fi
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
compile() {
  local module=$1; shift
  swiftc -enable-experimental-feature Embedded -target "$target" -wmo -parse-as-library -Osize \
    -package-name CrownPager -module-name "$module" -I "$out" -emit-module -emit-module-path "$out/$module.swiftmodule" \
    -c "$@" -o "$out/$module.o"
  echo "embedded: $module compiles for $target ($(wc -c <"$out/$module.o") bytes of object code)"
}
compile CrownVocabulary $(find Sources/CrownVocabulary -name '*.swift' | sort)
compile PagerGraphics $(find Sources/PagerGraphics -name '*.swift' | sort)
compile PagerCore $(find Sources/PagerCore -name '*.swift' | sort)
compile SSD1306 $(find Sources/SSD1306 -name '*.swift' | sort)
compile MockDisplay $(find Sources/MockDisplay -name '*.swift' | sort)
compile CrownInput $(find Sources/CrownInput -name '*.swift' | sort)
compile PagerConfig $(find Sources/PagerConfig -name '*.swift' | sort)
compile PagerSettings $(find Sources/PagerSettings -name '*.swift' | sort)
compile PagerControl $(find Sources/PagerControl -name '*.swift' | sort)
compile PagerEngine $(find Sources/PagerEngine -name '*.swift' | sort)
compile PagerTools $(find Sources/PagerTools -name '*.swift' | sort)
