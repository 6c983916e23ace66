#!/usr/bin/env bash
# Render + encode per frame, CrownPager against luma.oled, the same workloads in one run.
# Installs what it needs and nothing that is already there; says what it does before it does it.
#
#   Scripts/bench/bench-vs-luma.sh            build crownpager-bench (release), install luma.oled, compare
#   Scripts/bench/bench-vs-luma.sh --rounds N  rounds to run (5 by default)
#   Scripts/bench/bench-vs-luma.sh --instructions
#                                       instructions a frame instead of time, both sides under
#                                       valgrind's callgrind (installed through apt if missing):
#                                       figures the machine's load does not move
#
# Instructions a frame are a difference of two runs, so that what a run does once (starting
# Python, loading fonts, the engine's start) drops out: luma's 250 frames less its 50, ours at
# twice the workload's frames less once (all the engine does counted, `DeviceEngine.handle`: the
# ticks, and the clock's reading, as the frame a tick waits for is drawn when it comes).
# luma's fonts are converted from BDF before either counted run, so a first run counts as a second.
# The two sides run in turns, workload by workload, round after round (ours, then luma's, for
# the text frame; then both for the slide; ...), so that a shared machine's changing speed
# falls on both alike. Each side's figure is its best round (the lowest median a frame, as
# Python's timeit reports), and each round's own ratio is printed beside it.
# CrownPager's side is the production path: `crownpager-bench luma` drives the engine `run`
# drives (DeviceEngine, through VirtualShell), times each tick that sends a frame (render and
# encode), and counts the tick's heap allocations (and apart, the shell's doing its effects).
# luma's side is luma.oled's ssd1306 device on luma.core's no-op serial interface, the frame
# drawn with PIL ImageDraw in the same misc-fixed fonts (converted from
# Sources/PagerGraphics/Fonts/BDF), then display(). Bytes are what each
# puts on the I2C bus a frame, control bytes included (luma framed as its smbus2 path frames it).
# luma.oled goes into a virtual environment under .build/luma-venv.
set -euo pipefail

rounds=5
instructions=no
while [ $# -gt 0 ]; do
  case "$1" in
    --instructions) instructions=yes; shift ;;
    -h|--help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;;
    --rounds)
      case "${2:-}" in
        ''|*[!0-9]*|0) echo "bench-vs-luma: --rounds takes a whole number of 1 or more" >&2; exit 2 ;;
      esac
      rounds="$2"; shift 2 ;;
    *) echo "bench-vs-luma: unknown option '$1' (try --help)" >&2; exit 2 ;;
  esac
done

say() { printf 'bench-vs-luma: %s\n' "$*" >&2; }

root="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$root"
luma_version="3.16.0"
venv=".build/luma-venv"

if [ "$(id -u)" -eq 0 ]; then sudo=""; elif command -v sudo >/dev/null 2>&1; then sudo="sudo"; else sudo="__none__"; fi
apt_install() {
  if ! command -v apt-get >/dev/null 2>&1; then say "no apt-get here: please install $*"; exit 1; fi
  if [ "$sudo" = "__none__" ]; then say "cannot install $* without root"; exit 1; fi
  say "refreshing the package lists (apt-get update)"
  $sudo apt-get update -qq
  say "installing: $*"
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "$@" >/dev/null
}

# Python with venv and pip: Debian splits them into python3-venv and python3-pip.
command -v python3 >/dev/null 2>&1 || apt_install python3
python3 -c 'import venv, ensurepip' 2>/dev/null || apt_install python3-venv python3-pip

if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -c "import luma.oled, sys; sys.exit(luma.oled.__version__ != '$luma_version')" 2>/dev/null; then
  say "installing luma.oled $luma_version into $venv"
  python3 -m venv "$venv"
  "$venv/bin/pip" install -q --disable-pip-version-check "luma.oled==$luma_version"
fi

for dir in /opt/swift/usr/bin /usr/share/swift/usr/bin; do
  command -v swift >/dev/null 2>&1 || { [ -x "$dir/swift" ] && export PATH="$PATH:$dir"; }
done
say "building crownpager-bench (release)"
swift build -c release --product crownpager-bench >&2

# The Python side, written out so that callgrind can run it too.
script=".build/luma-bench.py"
cat > "$script" <<'PY'
import os
import statistics
import subprocess
import sys
import time

from PIL import BdfFontFile, Image, ImageDraw, ImageFont
from luma.core.interface.serial import noop
from luma.oled.device import ssd1306
import luma.oled

fonts, cache, bench, mode = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
os.makedirs(cache, exist_ok=True)


def font(name):
    """The misc-fixed BDF font CrownPager draws with, as a PIL bitmap font."""
    target = os.path.join(cache, name)
    if not os.path.exists(target + ".pil"):
        with open(os.path.join(fonts, name + ".bdf"), "rb") as source:
            BdfFontFile.BdfFontFile(source).save(target)
    return ImageFont.load(target + ".pil")


small, big = font("6x10"), font("10x20")
if mode == "fonts":
    # Only convert the fonts: the counted runs then load them as every later run does.
    sys.exit(0)
WIDTH, HEIGHT, CONTENT = 128, 64, 120  # the content left of the 7-pixel indicator strip and its gap
TITLE = "Notes"
BODY = "CrownPager draws watch-style pages on a small OLED. Turn the crown to page."


def wrap(text, width):
    """Greedy word wrap in 6-pixel cells, as CrownPager wraps."""
    lines, line = [], ""
    for word in text.split():
        candidate = word if not line else line + " " + word
        if len(candidate) * 6 <= width:
            line = candidate
        else:
            lines.append(line)
            line = word
    return lines + [line]


LINES = wrap(BODY, CONTENT)


def text_page(draw, top, title):
    draw.text((0, top), title, font=small, fill=1)
    draw.line((0, top + 10, len(title) * 6 - 1, top + 10), fill=1)
    for index, line in enumerate(LINES):
        draw.text((0, top + 12 + index * 10), line, font=small, fill=1)


def indicator(draw, current, pages=3):
    for index in range(pages):
        y = 32 + (index - (pages - 1) / 2) * 8
        draw.ellipse((122, y - 2, 126, y + 2), outline=1, fill=1 if index == current else 0)


def text_frame(_):
    image = Image.new("1", (WIDTH, HEIGHT))
    draw = ImageDraw.Draw(image)
    text_page(draw, 0, TITLE)
    indicator(draw, 0)
    return image


def slide_frame(step, frames=8):
    offset = round(HEIGHT * ((step % frames) + 1) / (frames + 1))
    image = Image.new("1", (WIDTH, HEIGHT))
    draw = ImageDraw.Draw(image)
    text_page(draw, -offset, TITLE)
    text_page(draw, HEIGHT - offset, "Later")
    indicator(draw, 0 if offset < HEIGHT // 2 else 1)
    return image


def clock_frame(step):
    image = Image.new("1", (WIDTH, HEIGHT))
    draw = ImageDraw.Draw(image)
    draw.text((0, 0), "Clock", font=small, fill=1)
    draw.line((0, 10, 29, 10), fill=1)
    time_text = "10:%02d:%02d" % (9 + (30 + step) // 60 % 60, (30 + step) % 60)
    draw.text(((CONTENT - 80) // 2, 22), time_text, font=big, fill=1)
    date = "Sat 21 Nov 2026"
    draw.text(((CONTENT - len(date) * 6) // 2, 44), date, font=small, fill=1)
    indicator(draw, 2)
    return image


class CountingSerial(noop):
    """The no-op serial, counting the bytes luma's I2C serial would send (smbus2: one message
    a call, after its control byte)."""

    sent = 0

    def command(self, *cmd):
        CountingSerial.sent += 1 + len(cmd)

    def data(self, data):
        CountingSerial.sent += 1 + len(data)


def measure(make, frames):
    """Median and mean microseconds a frame (drawing the PIL image and display()), bytes a frame."""
    device = ssd1306(noop())
    times = []
    for step in range(frames):
        started = time.perf_counter_ns()
        device.display(make(step))
        times.append(time.perf_counter_ns() - started)
    counting = ssd1306(CountingSerial())
    CountingSerial.sent = 0
    for step in range(20):
        counting.display(make(step))
    return statistics.median(times) / 1000, statistics.fmean(times) / 1000, CountingSerial.sent / 20


if mode == "frames":
    # Only draw and display: callgrind counts what these frames cost.
    which, count = sys.argv[5], int(sys.argv[6])
    make = {"text": text_frame, "slide": slide_frame, "clock": clock_frame}[which]
    device = ssd1306(noop())
    for step in range(count):
        device.display(make(step))
    sys.exit(0)
rounds = int(mode)


def ours_run(workload):
    """One run of crownpager-bench's workload: frames, median, mean, bytes, allocations, the shell's."""
    row = subprocess.run([bench, "luma", workload], check=True, capture_output=True, text=True).stdout.strip()
    _, frames, median, mean, per_frame, allocations, shell = row.split("\t")
    return int(frames), float(median), float(mean), float(per_frame), allocations, shell


workloads = [
    ("text frame (full)", "text", text_frame, 2000),
    ("slide (per frame)", "slide", slide_frame, 1000),
    ("clock tick", "clock", clock_frame, 1000),
]
ours, theirs, ratios = {}, {}, {}
for _ in range(rounds):
    for name, key, make, frames in workloads:
        mine = ours_run(key)
        luma_figures = measure(make, frames)
        ratios.setdefault(name, []).append(luma_figures[0] / mine[1])
        # Each side's best round: the lowest median a frame.
        if name not in ours or mine[1] < ours[name][1]:
            ours[name] = mine
        if name not in theirs or luma_figures[0] < theirs[name][0]:
            theirs[name] = luma_figures

print("CrownPager vs luma.oled %s (Pillow %s), render + encode a 128x64 frame, %d rounds in turns"
      % (luma.oled.__version__, Image.__version__, rounds))
print("machine: %s, %d cores" % (os.uname().machine, os.cpu_count() or 0))
print("%-19s %9s %9s %7s %6s %6s %7s %7s  %s" % (
    "workload", "luma us", "ours us", "ratio", "luma B", "ours B", "allocs", "shell", "each round's ratio"))
for name, (luma_median, luma_mean, luma_bytes) in theirs.items():
    frames, median, mean, per_frame, allocations, shell = ours[name]
    print("%-19s %9.1f %9.2f %6.0fx %6.0f %6.0f %7s %7s  %s" % (
        name, luma_median, median, luma_median / median, luma_bytes, per_frame, allocations, shell,
        " ".join("%.0fx" % ratio for ratio in ratios[name])))
print("(luma us, ours us: each side's best round, its median a frame, and their ratio; each round's ratio:")
print(" of that round's medians, the two sides measured one after the other. Means a frame of the best rounds: "
      + ", ".join("%s luma %.1f / ours %.2f us" % (name, theirs[name][1], ours[name][2]) for name in theirs) + ")")
frames, median, mean, _, allocations, _ = ours_run("drawing")
print("drawing only, no engine (text page drawn and blitted into reused bitmaps): %.2f us, %s allocations a frame"
      % (median, allocations))
PY

if [ "$instructions" = no ]; then
  say "running both, in turns, $rounds rounds (luma.oled $luma_version)"
  exec "$venv/bin/python" "$script" "$root/Sources/PagerGraphics/Fonts/BDF" ".build/luma-fonts" \
    .build/release/crownpager-bench "$rounds"
fi

command -v valgrind >/dev/null 2>&1 || apt_install valgrind
# valgrind 3.19 (Debian 12) cannot read the DWARF 5 a Swift build writes: a copy without it.
bench=".build/luma-bench-nodebug"
cp .build/release/crownpager-bench "$bench"
strip --strip-debug "$bench"
counted() { # the instructions callgrind counted: counted FILE
  awk '/^summary:/ { print $2 }' "$1"
}
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
# A first run converts the BDF fonts to PIL's: done here, outside the counted runs, where it would
# fall in the 50-frame run only and drop out of luma's figure a frame (18x, not 365x, for the text).
say "converting the fonts for luma (not counted)"
"$venv/bin/python" "$script" "$root/Sources/PagerGraphics/Fonts/BDF" ".build/luma-fonts" "$bench" fonts
printf '%-19s %14s %14s %8s\n' "workload" "luma / frame" "ours / frame" "ratio"
for pair in "text frame (full):text" "slide (per frame):slide" "clock tick:clock"; do
  name="${pair%%:*}"; key="${pair##*:}"
  say "counting instructions: $name"
  for n in 50 250; do
    valgrind --tool=callgrind --callgrind-out-file="$out/luma-$n" "$venv/bin/python" "$script" \
      "$root/Sources/PagerGraphics/Fonts/BDF" ".build/luma-fonts" "$bench" frames "$key" "$n" >/dev/null 2>&1
  done
  frames=()
  for scale in 1 2; do
    frames+=("$(valgrind --tool=callgrind --callgrind-out-file="$out/ours-$scale" --toggle-collect='*DeviceB0V6handle_2at*' \
      "$bench" luma "$key" "$scale" 2>/dev/null | cut -f2)")
  done
  luma=$(( ($(counted "$out/luma-250") - $(counted "$out/luma-50")) / 200 ))
  ours=$(( ($(counted "$out/ours-2") - $(counted "$out/ours-1")) / (frames[1] - frames[0]) ))
  awk -v name="$name" -v luma="$luma" -v ours="$ours" \
    'BEGIN { printf "%-19s %14d %14d %7.0fx\n", name, luma, ours, luma / ours }'
done
echo "(instructions a frame, valgrind's callgrind: luma's display() with its PIL drawing; ours DeviceEngine.handle)"
