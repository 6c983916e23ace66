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

# The large text of size = "large" pages: Spleen (BSD 2-Clause, Fonts/BDF/LICENSE.spleen), four sizes.
large() { # size summary
    python3 "$root/Scripts/dev/fonts/bdf2swift.py" "$fonts/BDF/spleen-$1.bdf" \
        --name "spleen$1" --summary "$2" --subset text \
        --license "Fonts/BDF/LICENSE.spleen" --origin "Debian 12 fonts-spleen 1.9.1-1, spleen-$1.pcf.gz through pcf2bdf 1.07-1" \
        --display-path "Sources/PagerGraphics/Fonts/BDF/spleen-$1.bdf" \
        --output "$fonts/Spleen$1.swift"
}

large 8x16 "Spleen 8x16: large text on a 16-row panel, 12 pixels above the baseline, 4 below."
large 12x24 "Spleen 12x24: large text, 19 pixels above the baseline, 5 below."
large 16x32 "Spleen 16x32: large text, two lines on a 64-row panel, 26 pixels above the baseline, 6 below."
large 32x64 "Spleen 32x64: one short value filling a 64-row panel, 52 pixels above the baseline, 12 below."
