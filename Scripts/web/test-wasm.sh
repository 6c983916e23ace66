#!/usr/bin/env bash
# Runs the engine's WebAssembly module (Scripts/web/build-wasm.sh) and its browser page, and
# checks them against `crownpager render --frozen`, the same engine built for Linux:
#
#   1. the module's size: at most the budget below, raw and gzipped (wasm-opt's output, the
#      one the page carries); and the font beside the page (unifont.js) within its own
#   2. in Node: on every panel the program knows and a set of crown scripts, each frame the
#      module renders is byte for byte the PBM file `render --frozen` writes, its GIF the one
#      `render --frozen --gif` writes, and the glass after
#      the same steps turned live (crownpager_turn, _press, _advance) is the last one's; and
#      the same for a configuration whose image page and indicator image are files given to the
#      module as the page's Add files… gives them (Tests/PagerWebTests/Fixtures/images.toml);
#      and for pages of Hangul, CJK, Cyrillic and symbols with their title list
#      (Tests/PagerWebTests/Fixtures/unicode.toml), Debian's GNU Unifont handed to the module as
#      the page hands it (render takes the same installed file), also once the pages ran without it
#   3. in Debian's Chromium, headless, the page opened from the disk (Scripts/web/check-page.py)
#
#   Scripts/web/test-wasm.sh CROWNPAGER     the crownpager program to compare with
#
# Exits 69 when this Swift toolchain cannot build the module (Debian's swiftlang 6.0.3), having
# said so. Installs nothing: Scripts/setup.sh --web does.
set -euo pipefail
case "${1:-}" in
  -h|--help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;;
  "") echo "test-wasm: give the crownpager program to compare with (try --help)" >&2; exit 2 ;;
esac
crownpager="$(realpath "$1")"
cd "$(dirname "$0")/../.."
# The module's budget: 1.45 MB after wasm-opt, 570 KB gzipped (1,221,996 and 498,246 when first
# set; 1,362,239 and 536,126 with the night schedule and the large text, whose four Spleen fonts
# carry about 80 KB of glyphs, 2026-11-29; 1,406,010 and 553,241 with the files the page is given,
# 20 KB and 6.5 KB more, 2026-11-29; 1,425,318 and 561,041 with GNU Unifont's calls and reader,
# 19 KB and 7.7 KB more, 2026-11-29).
budget_bytes=1450000
budget_gzipped=570000
# The font's own budget: 1.4 MB for unifont.js, 1 MB gzipped (1,253,674 and 937,007 when first
# set, from Debian 12's unifont 15.0.01, 57,086 glyphs: room for the glyphs later releases add;
# base64 of gzip gains little from another gzip).
font_budget_bytes=1400000
font_budget_gzipped=1000000
status=0
Scripts/web/build-wasm.sh --sizes || status=$?
[ "$status" -eq 0 ] || exit "$status"
missing=()
for need in node:nodejs chromium:chromium python3:python3; do
  command -v "${need%%:*}" >/dev/null 2>&1 || missing+=("${need%%:*} (package ${need#*:})")
done
if [ "${#missing[@]}" -gt 0 ]; then
  echo "test-wasm: cannot run, missing: ${missing[*]}; Scripts/setup.sh --web installs them" >&2
  exit 1
fi

# hold_to_budget FILE BYTES GZIPPED: fails when FILE is over BYTES, or over GZIPPED once gzipped.
hold_to_budget() {
  local size gzipped
  size=$(wc -c <"$1")
  gzipped=$(gzip -9nc "$1" | wc -c)
  if [ "$size" -gt "$2" ] || [ "$gzipped" -gt "$3" ]; then
    echo "test-wasm: $1 is $size bytes ($gzipped gzipped): over its budget of $2 ($3 gzipped)" >&2
    exit 1
  fi
  echo "test-wasm: $1: $size bytes, $gzipped gzipped (budget $2, $3 gzipped)"
}
module=out/web/crownpager.wasm
hold_to_budget "$module" "$budget_bytes" "$budget_gzipped"
hold_to_budget out/web/unifont.js "$font_budget_bytes" "$font_budget_gzipped"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
config=Tests/PagerWebTests/Fixtures/pages.toml
# Every panel, and scripts that slide, rubber-band at the ends, open the title list and wait.
mapfile -t panels < <(node -e '
  const m = new WebAssembly.Module(require("fs").readFileSync(process.argv[1]));
  const stub = () => 0;
  const i = new WebAssembly.Instance(m, { wasi_snapshot_preview1: { fd_close: stub, fd_seek: stub, fd_write: stub, random_get: stub } });
  const n = i.exports.crownpager_panels();
  const b = new Uint8Array(i.exports.memory.buffer, i.exports.crownpager_output(), i.exports.crownpager_output_length());
  process.stdout.write(new TextDecoder().decode(b) + "\n");' "$module")
scripts=("+1,+1,-1,wait 1s" "-1,+1,+1,+1,+1,+1,+1,+1,wait 1s" "+2,press,+1,press,wait 1s" "+1,long-press,wait 2s")
# compare CONFIG FOLDER [--file PATH]... -- SCRIPT...: every panel and each script, by render
# --frozen and by the module (given the files), frames, GIFs and the glass turned live.
frames=0
compare() {
  local config="$1" folder="$2" files=() jobs=() number=0 failed=0
  shift 2
  while [ "$1" != "--" ]; do files+=("$1"); shift; done
  shift
  local panel script n last
  for panel in "${panels[@]}"; do
    for script in "$@"; do
      "$crownpager" render --frozen --config "$config" --panel "$panel" --crown "$script" --no-png \
        --out "$folder/render/$number" --gif "$folder/render/$number.gif" >/dev/null
      jobs+=("$panel|$script")
      number=$((number + 1))
    done
  done
  node Scripts/web/run-module.mjs "$module" "$config" "$folder/wasm" "${files[@]}" "${jobs[@]}"
  for ((n = 0; n < number; n++)); do
    if ! diff -rq -x live.pbm "$folder/render/$n" "$folder/wasm/$n" >&2; then
      echo "test-wasm: $config: ${jobs[$n]}: the module's frames differ from render's (above)" >&2
      failed=1
    fi
    if ! cmp "$folder/render/$n.gif" "$folder/wasm/$n.gif" >&2; then
      echo "test-wasm: $config: ${jobs[$n]}: the module's GIF differs from render --gif's" >&2
      failed=1
    fi
    frames=$((frames + $(find "$folder/render/$n" -name '*.pbm' | wc -l)))
    last="$(find "$folder/render/$n" -name 'step-??.pbm' | sort | tail -n 1)"
    if ! cmp -s <(grep -v '^#' "$last") "$folder/wasm/$n/live.pbm"; then
      echo "test-wasm: $config: ${jobs[$n]}: turned live, the glass differs from render's $(basename "$last")" >&2
      failed=1
    fi
  done
  [ "$failed" -eq 0 ] || exit 1
}
compare "$config" "$work/pages" -- "${scripts[@]}"
fixtures=Tests/PagerWebTests/Fixtures
compare "$fixtures/images.toml" "$work/images" --file "$fixtures/logo.pbm" --file "$fixtures/heart.png" -- \
  "wait 1s,+1,-1,wait 1s"
# Hangul, CJK, Cyrillic and symbols with Debian's GNU Unifont: the file build-wasm.sh put in
# unifont.js, which render reads where it is installed.
unifont=/usr/share/unifont/unifont.hex
compare "$fixtures/unicode.toml" "$work/unicode" --unifont "$unifont" -- "+1,+1,+1,+1,+1,wait 1s" "+1,long-press,wait 2s"
# The font handed over once the pages ran without it (as the page's font comes after its first
# frame): the boxes are redrawn as render draws the glyphs.
"$crownpager" render --frozen --config "$fixtures/unicode.toml" --crown "wait 1s" --no-png --steps-only \
  --out "$work/unicode/late" >/dev/null
if ! cmp -s <(grep -v '^#' "$work/unicode/late/step-00.pbm") "$work/unicode/wasm/late.pbm"; then
  echo "test-wasm: unicode.toml: with the font handed over late, the glass differs from render's first page" >&2
  exit 1
fi
echo "test-wasm: $frames frames of ${#panels[@]} panels and ${#scripts[@]} scripts (and of images.toml with its two files given to the module, and of unicode.toml with GNU Unifont) and their GIFs equal render --frozen's; the glass turned live equals the last step's; the font handed over late redraws the first page as render draws it"
python3 Scripts/web/check-page.py out/web/crownpager.html "$crownpager" "$config" \
  "$fixtures/images.toml" "$fixtures/logo.pbm" "$fixtures/heart.png" --unicode "$fixtures/unicode.toml"
