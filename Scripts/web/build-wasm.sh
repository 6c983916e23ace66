#!/usr/bin/env bash
# Builds the engine as one WebAssembly module, and the browser page that carries it:
#
#   out/web/crownpager.wasm   the module: the pure targets as they are (Scripts/dev/check-embedded.sh
#                             compiles them as Embedded Swift for wasm32-unknown-none-wasm, in the
#                             package's language mode) and PagerWeb, whose C ABI the page calls
#                             (PagerWeb.docc/WebAssemblyABI.md); C runtime from Debian's wasi-libc
#                             and clang's wasm32 builtins, then wasm-opt -Oz (binaryen)
#   out/web/crownpager.html   the page, one file with the module inlined (base64): it opens from
#                             the disk (file://, where a page cannot fetch a .wasm) and from any
#                             static server
#   out/web/unifont.js        GNU Unifont, Debian's /usr/share/unifont/unifont.hex (package unifont)
#                             as gzip -9n in base64, for a <script src> the page adds after its first
#                             frame: the glyphs `crownpager render` and the device take for what the
#                             built-in fonts lack (Hangul, CJK, ...). Without it beside the page
#                             those characters draw as boxes, as on a device without the package
#   out/web/unifont-copyright.txt   its licence: Debian's copyright file for unifont and the GPL-2
#
#   Scripts/web/build-wasm.sh            build them all (cached: see below)
#   Scripts/web/build-wasm.sh --sizes    and print the sizes of the module (raw and after wasm-opt) and
#                                        of the font, each gzipped too
#   Scripts/web/build-wasm.sh --check-toolchain
#                                        only say whether this Swift toolchain can build it (0, or 69)
#
# Needs swift.org's toolchain (6.3 or later), which ships wasm-ld and the Embedded Swift standard
# library for wasm32 with its libraries. Debian 13's swiftlang 6.0.3 has wasm-ld and the Embedded
# module for wasm32, but its runtime headers do not compile for wasm32 ('__declspec' attributes are
# not enabled) and it ships no Embedded libraries for it (embedded/wasm32-unknown-none-wasm/): with
# it this script says so and exits 69 (EX_UNAVAILABLE), building nothing; Scripts/test.sh then
# says loudly that the WebAssembly tests did not run. Installs nothing: Scripts/setup.sh --web does.
#
# The objects of the pure targets and the linked module are cached under
# $CROWNPAGER_CACHE/wasm (default /var/cache/crownpager), keyed by the hash of every source,
# script and tool version that goes into them: a change anywhere builds afresh.
set -euo pipefail
sizes=0
check_only=0
case "${1:-}" in
  -h|--help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;;
  --sizes) sizes=1 ;;
  --check-toolchain) check_only=1 ;;
  "") ;;
  *) echo "build-wasm: unknown option '$1' (try --help)" >&2; exit 2 ;;
esac
cd "$(dirname "$0")/../.."
for dir in /opt/swift/usr/bin /usr/share/swift/usr/bin; do [ -x "$dir/swift" ] && PATH="$PATH:$dir"; done
if ! command -v swiftc >/dev/null 2>&1; then
  echo "build-wasm: no Swift toolchain (Scripts/setup.sh installs one)" >&2
  [ "$check_only" -eq 1 ] && exit 69
  exit 1
fi
target=wasm32-unknown-none-wasm
toolchain="$(dirname "$(dirname "$(command -v swiftc)")")"
stdlib="$toolchain/lib/swift/embedded/$target"
if [ ! -d "$stdlib" ] || [ ! -x "$toolchain/bin/wasm-ld" ]; then
  echo "build-wasm: this Swift toolchain ($(swiftc --version 2>&1 | head -n 1)) has no Embedded Swift" >&2
  echo "build-wasm: standard library for $target or no wasm-ld: the module cannot be built with it." >&2
  echo "build-wasm: swift.org's toolchain 6.3 or later has both (Debian's swiftlang 6.0.3 cannot: see --help)." >&2
  exit 69
fi
[ "$check_only" -eq 0 ] || { echo "build-wasm: this Swift toolchain can build the module"; exit 0; }
libc=/usr/lib/wasm32-wasi/libc.a
builtins="$(find /usr/lib -path '*/lib/wasi/libclang_rt.builtins-wasm32.a' 2>/dev/null | sort -V | tail -n 1)"
missing=()
[ -f "$libc" ] || missing+=("$libc (package wasi-libc)")
[ -n "$builtins" ] || missing+=("libclang_rt.builtins-wasm32.a (package libclang-rt-14-dev-wasm32)")
command -v wasm-opt >/dev/null 2>&1 || missing+=("wasm-opt (package binaryen)")
unifont=/usr/share/unifont/unifont.hex
[ -f "$unifont" ] && [ -f /usr/share/doc/unifont/copyright ] || missing+=("$unifont and its copyright file (package unifont)")
if [ "${#missing[@]}" -gt 0 ]; then
  echo "build-wasm: missing ${missing[*]}; Scripts/setup.sh --web installs them" >&2
  exit 1
fi

pure=(CrownVocabulary PagerGraphics PagerCore SSD1306 GlassViews CrownInput PagerConfig PagerSettings
  PagerControl PagerEngine PagerTools)
# The hash of the sources under the given paths (not their articles or the page) and of the tools' versions.
hash_of() {
  {
    swiftc --version 2>&1
    wasm-opt --version
    dpkg-query -W wasi-libc 2>/dev/null || echo "wasi-libc unknown"
    echo "$builtins"
    find "$@" -type f \( -name '*.swift' -o -name '*.sh' -o -name '*.c' \) -print0 | LC_ALL=C sort -z | xargs -0 sha256sum
  } | sha256sum | cut -c1-16
}
cache="${CROWNPAGER_CACHE:-/var/cache/crownpager}/wasm"
mkdir -p "$cache" out/web
sources=()
for module in "${pure[@]}"; do sources+=("Sources/$module"); done
objects="$cache/objects-$(hash_of "${sources[@]}" Scripts/dev/check-embedded.sh)"
module="$cache/module-$(hash_of "${sources[@]}" Sources/PagerWeb Scripts/dev/check-embedded.sh Scripts/web/build-wasm.sh Scripts/web/runtime-shim.c)"

if [ -f "$module/crownpager.wasm" ]; then
  echo "build-wasm: module unchanged (cached in $module)"
else
  if [ ! -f "$objects/PagerTools.o" ]; then
    echo "build-wasm: compiling the pure targets for $target (Scripts/dev/check-embedded.sh)"
    # A partial folder of this process's own: two builds of one tree at once (a test run beside
    # a page build) must not compile into each other's folder. The first to finish is kept.
    partial="$objects.partial.$$"
    Scripts/dev/check-embedded.sh --target wasm32 --objects "$partial"
    if [ -f "$objects/PagerTools.o" ]; then rm -rf "$partial"; else rm -rf "$objects" && mv "$partial" "$objects"; fi
  fi
  work="$(mktemp -d)"
  trap 'rm -rf "$work"' EXIT
  mapfile -t files < <(find Sources/PagerWeb -name '*.swift' | LC_ALL=C sort)
  echo "build-wasm: compiling PagerWeb (the C ABI) for $target"
  swiftc -enable-experimental-feature Embedded -target "$target" -swift-version 6 -wmo -parse-as-library -Osize \
    -package-name CrownPager -module-name PagerWeb -I "$objects" -c "${files[@]}" -o "$work/PagerWeb.o"
  "$toolchain/bin/clang" --target=wasm32-unknown-wasi -isystem /usr/include/wasm32-wasi -Os -Wall -Werror \
    -c Scripts/web/runtime-shim.c -o "$work/runtime-shim.o"
  echo "build-wasm: linking with wasi-libc and $builtins"
  linked=()
  for module_name in "${pure[@]}"; do linked+=("$objects/$module_name.o"); done
  # The stack: wasm-ld's default of 64 KiB overflowed ("memory access out of bounds") in
  # crownpager_gif once the engine gained the camera, the crown reporter and the night; the test
  # fixture needs more than 64 and at most 128 KiB (2026-11-29). 256 KiB leaves room.
  "$toolchain/bin/wasm-ld" --no-entry --gc-sections --strip-all -z stack-size=262144 -o "$work/crownpager.raw.wasm" \
    "${linked[@]}" "$work/PagerWeb.o" "$work/runtime-shim.o" "$stdlib/libswiftUnicodeDataTables.a" "$libc" "$builtins"
  # Features named one by one: --all-features makes a module Node 20 refuses.
  wasm-opt -Oz --enable-bulk-memory --enable-sign-ext --enable-mutable-globals --enable-nontrapping-float-to-int \
    --enable-multivalue --enable-reference-types "$work/crownpager.raw.wasm" -o "$work/crownpager.wasm"
  partial="$module.partial.$$"
  mkdir -p "$partial"
  cp "$work/crownpager.raw.wasm" "$work/crownpager.wasm" "$partial/"
  if [ -f "$module/crownpager.wasm" ]; then rm -rf "$partial"; else rm -rf "$module" && mv "$partial" "$module"; fi
fi
cp "$module/crownpager.wasm" "$module/crownpager.raw.wasm" out/web/
# The cache keeps the three last used of each (28 MB of objects and modules, 2.6 MB of module apiece).
touch "$module"
[ ! -d "$objects" ] || touch "$objects"
for kind in objects module; do
  find "$cache" -maxdepth 1 -name "$kind-*" ! -name '*.partial*' -printf '%T@ %p\n' | sort -rn | tail -n +4 |
    cut -d' ' -f2- | while read -r old; do rm -rf "$old"; done
done
# A partial folder an interrupted build left (no build runs for an hour).
find "$cache" -maxdepth 1 -name '*.partial.*' -mmin +60 -exec rm -rf {} +
# The page with the module in place of its marker line, as base64.
page=Sources/PagerWeb/Page/crownpager.html
marker="$(grep -n '@CROWNPAGER_WASM_BASE64@' "$page" | cut -d: -f1)"
[ -n "$marker" ] || { echo "build-wasm: $page has no @CROWNPAGER_WASM_BASE64@ line" >&2; exit 1; }
{
  head -n "$((marker - 1))" "$page"
  printf '      const moduleBase64 = "%s";\n' "$(base64 -w 0 out/web/crownpager.wasm)"
  tail -n "+$((marker + 1))" "$page"
} >"out/web/crownpager.html.partial.$$"
mv "out/web/crownpager.html.partial.$$" out/web/crownpager.html
# GNU Unifont beside the page, and its licence. A script, not a fetch: a page opened from the disk
# may load a script beside it, never fetch a file. gzip -9n (no name, no time: the same bytes each
# build); the page decompresses it with the browser's DecompressionStream. Measured against the
# text itself in a JavaScript string (3.8 MB): as fast to load in Chromium, three times the bytes.
version="$(dpkg-query -W -f '${Version}' unifont 2>/dev/null || echo unknown)"
{
  echo "// GNU Unifont (Debian's unifont $version, $unifont), gzip -9n in base64, for crownpager.html:"
  echo "// the glyphs crownpager takes for characters its built-in fonts lack. Written by"
  echo "// Scripts/web/build-wasm.sh. Licence: GPL-2+, see unifont-copyright.txt beside this file."
  printf 'self.crownpagerUnifont = { version: "%s", bytes: %d, gzipBase64: "%s" };\n' \
    "$version" "$(wc -c <"$unifont")" "$(gzip -9nc "$unifont" | base64 -w 0)"
} >"out/web/unifont.js.partial.$$"
mv "out/web/unifont.js.partial.$$" out/web/unifont.js
{
  echo "GNU Unifont in unifont.js: Debian's package unifont $version, $unifont, unmodified."
  echo "Debian's copyright file for it (/usr/share/doc/unifont/copyright), then the GPL version 2 it names."
  echo
  cat /usr/share/doc/unifont/copyright
  echo
  echo "-----------------------------------------------------------------------------"
  echo
  cat /usr/share/common-licenses/GPL-2
} >out/web/unifont-copyright.txt
echo "build-wasm: wrote out/web/crownpager.wasm ($(wc -c <out/web/crownpager.wasm) bytes), out/web/crownpager.html, out/web/unifont.js ($(wc -c <out/web/unifont.js) bytes) and out/web/unifont-copyright.txt"
if [ "$sizes" -eq 1 ]; then
  echo "build-wasm: $unifont: $(wc -c <"$unifont") bytes, $(gzip -9nc "$unifont" | wc -c) gzipped"
  for file in out/web/crownpager.raw.wasm out/web/crownpager.wasm out/web/unifont.js; do
    echo "build-wasm: $file: $(wc -c <"$file") bytes, $(gzip -9nc "$file" | wc -c) gzipped"
  done
fi
