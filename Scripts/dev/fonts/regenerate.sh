#!/bin/sh
# Regenerates the Swift font files from the BDF sources in Sources/PagerGraphics/Fonts/BDF.
# Idempotent: the output depends only on the BDF files and bdf2swift.py.
set -eu
case "${1:-}" in -h|--help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;; esac
root=$(cd "$(dirname "$0")/../../.." && pwd)
fonts="$root/Sources/PagerGraphics/Fonts"

generate() { # bdf-file swift-name summary
    python3 "$root/Scripts/dev/fonts/bdf2swift.py" "$fonts/BDF/$1" \
        --name "$2" --summary "$3" \
        --display-path "Sources/PagerGraphics/Fonts/BDF/$1" \
        --output "$fonts/$(printf '%s' "$2" | sed 's/^./\U&/').swift"
}

generate 5x8.bdf fixed5x8 "Misc-fixed 5x8: 7 pixels above the baseline, 1 below; fits four lines on a 128x32 panel."
generate 6x10.bdf fixed6x10 "Misc-fixed 6x10: the body font, 8 pixels above the baseline, 2 below."
generate 10x20.bdf fixed10x20 "Misc-fixed 10x20: for titles and the clock, 16 pixels above the baseline, 4 below."
