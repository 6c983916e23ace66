#!/usr/bin/env bash
# Renders the README's pictures and the wiring diagram with crownpager itself (frozen readings,
# so they are reproducible).
set -euo pipefail
case "${1:-}" in -h|--help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;; esac
cd "$(dirname "$0")/../.."
swift build --product crownpager >/dev/null
bin="$(swift build --show-bin-path)/crownpager"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
# The pages are the shipped configuration's, drawn by the engine `run` drives: the pictures show
# what a Pi shows. The waits let the automatic indicator plate, shown while the crown turns, go away.
config=Hardware/crownpager.toml
"$bin" render --config "$config" --out "$tmp/64" --crown "+1,wait 2s" --frozen --palette blue --scale 4 >/dev/null
"$bin" render --config "$config" --out "$tmp/32" --crown "wait 2s" --panel 128x32 --frozen --palette blue --scale 4 \
    --steps-only >/dev/null
slide=("$tmp"/64/step-01-frame-*.png)
cp "$tmp/64/step-01.png" Hardware/pictures/clock-128x64.png
cp "${slide[$(( ${#slide[@]} / 3 ))]}" Hardware/pictures/slide-128x64.png
cp "$tmp/32/step-00.png" Hardware/pictures/system-128x32.png
# The README's animation: a slide, a scrub (six detents 50 ms apart: no animation, and past the
# end it stops on the last page), then the title list (long press, two turns back, press).
"$bin" render --config "$config" --gif Hardware/pictures/tour-128x64.gif --frozen --palette blue --scale 2 \
    --crown "+1,@2s +1,@2.05s +1,@2.1s +1,@2.15s +1,@2.2s +1,@2.25s +1,@4s long-press,@5.5s -1,@6.1s -1,@6.7s press,@8.5s wait 1s" \
    >/dev/null
"$bin" wiring-diagram --out Hardware/pictures/wiring.png --scale 2
# The 7-pin module on SPI0 as Hardware/README.md wires it: CE0, DC on GPIO24, RES on GPIO25.
"$bin" wiring-diagram --spi 0.0 --dc-line 24 --reset-line 25 --out Hardware/pictures/wiring-spi.png --scale 2
echo "render-pictures: wrote Hardware/pictures/{clock-128x64,slide-128x64,system-128x32,wiring,wiring-spi}.png and tour-128x64.gif"
