#!/usr/bin/env bash
# Fuzzes what a user or a device can feed in: libFuzzer programs (Tests/Fuzz/Targets) built with
# the toolchain's -sanitize=fuzzer,address over the pure targets' sources, each seeded from
# Tests/Fuzz/Corpus/<target>. The inputs it finds go to .build/fuzz/corpus/<target>, crashes to
# .build/fuzz/crashes/<target>/; a crash, a timeout or a leak fails the run, naming the input.
# Every crash found becomes a regression test in the unit tests of the target that crashed.
#
#   Scripts/dev/fuzz.sh                        every target for 60 seconds each
#   Scripts/dev/fuzz.sh TARGET|all [SECONDS]   one target, or all, for SECONDS each (default 60)
#   Scripts/dev/fuzz.sh --runs N [TARGET|all]  each target for N inputs beyond its seeds (CI)
#   Scripts/dev/fuzz.sh --campaign [TARGET|all] each target until 10^6 inputs or 10 minutes, whichever
#                                          comes first, and a table of the figures in
#                                          .build/fuzz/campaign.txt (the figures a release reports)
#   Scripts/dev/fuzz.sh --list                 the targets
#   Scripts/dev/fuzz.sh --build                builds the targets and stops
#
# Targets: config (configuration text), durations (durations and I2C addresses), pbm, xbm, png,
# inflate (zlib), i2c-trace, crown-script, input-events (kernel input events), keys (terminal
# key and mouse sequences), gauge (the values a gauge source yields), command-output, bdf (BDF
# fonts), unifont-hex (GNU Unifont's .hex text, as the device reads the file and as the browser
# page hands it to its module in parts), output-path
# (output paths that are devices, FIFOs, sockets, folders, disks or links: nothing but a regular
# file is ever replaced; run as root, it makes real device nodes with mknod), vhost-user (a
# vhost-user-i2c back-end fed front-end messages and guest rings), notifications (the file that
# keeps notifications across a restart, and the overlay drawing what it yields), control-request
# (the control socket's requests, split into reads anywhere), mqtt-payload (an MQTT payload to a
# page's value: JSON under a dotted path, a gauge's number), terminal-text (command and file output
# read as a terminal shows it), graphemes (text wrapped and cut by grapheme cluster), mirror-request
# (the live mirror's requests as libmicrohttpd hands them over, and its streams read in any pieces).
set -euo pipefail
targets=(config durations pbm xbm png inflate i2c-trace crown-script input-events keys gauge command-output bdf unifont-hex
  output-path vhost-user notifications control-request mqtt-payload terminal-text graphemes mirror-request)
# The pure targets and LinuxSystem's file writing: what the fuzz targets link. They are compiled in
# the order their own imports give (below), so a new dependency between them needs no edit here.
modules=(CrownVocabulary PagerGraphics PagerCore SSD1306 CrownInput GlassViews PagerConfig PagerSettings PagerEngine
  PagerTools VhostUserI2C PagerControl PagerMirror PagerWeb LinuxSystem)
# Of LinuxSystem, only the files that write output (they need no C module of the target).
declare -A only=([LinuxSystem]="Errno.swift ErrnoSentence.swift FileDescriptor.swift FileSystem.swift OutputFile.swift OutputPath.swift")
usage() { awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; }
mode=time seconds=60 runs=0 chosen=all
case "${1:-}" in
  -h|--help) usage; exit 0 ;;
  --list) printf '%s\n' "${targets[@]}"; exit 0 ;;
  --build) mode=build ;;
  --runs)
    [[ "${2:-}" =~ ^[0-9]+$ ]] || { echo "fuzz: --runs needs a number of inputs (try --help)" >&2; exit 2; }
    mode=runs runs=$2 chosen=${3:-all} ;;
  --campaign) mode=campaign runs=1000000 seconds=600 chosen=${2:-all} ;;
  -*) echo "fuzz: unknown option '$1' (try --help)" >&2; exit 2 ;;
  "") ;;
  *)
    chosen=$1 seconds=${2:-60}
    [[ "$seconds" =~ ^[0-9]+$ ]] && [ "$seconds" -gt 0 ] || { echo "fuzz: SECONDS must be a whole number above 0" >&2; exit 2; } ;;
esac
if [ "$chosen" != all ] && [[ ! " ${targets[*]} " =~ " $chosen " ]]; then
  echo "fuzz: no target '$chosen'; the targets: ${targets[*]}" >&2
  exit 2
fi
cd "$(dirname "$0")/../.."
for dir in /opt/swift/usr/bin /usr/share/swift/usr/bin; do [ -x "$dir/swift" ] && PATH="$PATH:$dir"; done
command -v swiftc >/dev/null || { echo "fuzz: cannot run: no swiftc on PATH (Scripts/setup.sh installs Swift)" >&2; exit 1; }
out=.build/fuzz
mkdir -p "$out/modules" "$out/bin" "$out/logs"
flags=(-swift-version 6 -package-name CrownPager -sanitize=fuzzer,address -parse-as-library -Onone -gline-tables-only)
# Debian's swiftlang and swift.org's toolchains both ship libFuzzer; a toolchain without it fails here.
probe="$out/probe.swift"
[ -f "$probe" ] || printf '@_cdecl("LLVMFuzzerTestOneInput")\npublic func probe(_ d: UnsafeRawPointer?, _ n: Int) -> CInt { 0 }\n' >"$probe"
if [ ! -x "$out/bin/probe" ] && ! swiftc "${flags[@]}" "$probe" -o "$out/bin/probe" >"$out/logs/probe.log" 2>&1; then
  echo "fuzz: cannot run: this Swift toolchain cannot build with -sanitize=fuzzer,address:" >&2
  cat "$out/logs/probe.log" >&2
  exit 1
fi

# A module's sources: all of them, or the few `only` names.
sources_of() {
  if [ -n "${only[$1]:-}" ]; then
    local names
    read -r -a names <<<"${only[$1]}"
    printf "Sources/$1/%s\n" "${names[@]}"
  else
    find "Sources/$1" -name '*.swift' | sort
  fi
}
# Orders the modules so each comes after every one of them its sources import. A module that
# imports one outside the list, or a cycle, stops the run here with the names, not at the compiler.
ordered=() placed=" "
while [ "${#ordered[@]}" -lt "${#modules[@]}" ]; do
  progressed=false
  for module in "${modules[@]}"; do
    [[ "$placed" == *" $module "* ]] && continue
    ready=true
    mapfile -t sources < <(sources_of "$module")
    for imported in $(sed -n 's/^\(@[A-Za-z_]*\(([^)]*)\)\{0,1\} \)*import \([A-Za-z0-9_]*\).*/\3/p' "${sources[@]}" | sort -u); do
      [ -d "Sources/$imported" ] || continue
      if [[ ! " ${modules[*]} " =~ " $imported " ]]; then
        echo "fuzz: $module imports $imported, which is not in the script's modules: add it there" >&2
        exit 1
      fi
      [[ "$placed" == *" $imported "* ]] || ready=false
    done
    if $ready; then ordered+=("$module") placed+="$module " progressed=true; fi
  done
  $progressed || { echo "fuzz: the modules import each other in a cycle; placed so far: ${ordered[*]}" >&2; exit 1; }
done
modules=("${ordered[@]}")

# Builds a module again when one of its sources, or a module before it, is newer than its object.
rebuilt=false
for module in "${modules[@]}"; do
  object="$out/modules/$module.o"
  if $rebuilt || [ ! -f "$object" ] || [ -n "$(find "Sources/$module" -name '*.swift' -newer "$object" | head -n 1)" ]; then
    echo "fuzz: compiling $module"
    mapfile -t sources < <(sources_of "$module")
    if ! swiftc "${flags[@]}" -wmo -module-name "$module" -I "$out/modules" -emit-module \
      -emit-module-path "$out/modules/$module.swiftmodule" -c "${sources[@]}" -o "$object" \
      >"$out/logs/build-$module.log" 2>&1; then
      cat "$out/logs/build-$module.log" >&2
      rm -f "$object"
      exit 1
    fi
    # The compiler leaves an object that came out the same untouched: its time must say it is current.
    touch "$object"
    rebuilt=true
  fi
done
objects=()
for module in "${modules[@]}"; do objects+=("$out/modules/$module.o"); done
build() {
  local target=$1 program="$out/bin/$1" source="Tests/Fuzz/Targets/$1.swift" support=Tests/Fuzz/Targets/FuzzSupport.swift
  if $rebuilt || [ ! -x "$program" ] || [ "$source" -nt "$program" ] || [ "$support" -nt "$program" ]; then
    echo "fuzz: linking $target"
    # The linker's notes about ASan's local symbols are noise: the log keeps them, a failure shows them.
    if ! swiftc "${flags[@]}" -module-name FuzzTarget -I "$out/modules" "$support" "$source" "${objects[@]}" -lm \
      -o "$program" >"$out/logs/build-$target.log" 2>&1; then
      cat "$out/logs/build-$target.log" >&2
      rm -f "$program"
      exit 1
    fi
    touch "$program"
  fi
}
[ "$chosen" = all ] && chosen_targets=("${targets[@]}") || chosen_targets=("$chosen")
for target in "${chosen_targets[@]}"; do build "$target"; done
[ "$mode" = build ] && { echo "fuzz: built ${chosen_targets[*]} in $out/bin"; exit 0; }

failed=()
[ "$mode" = campaign ] && : >"$out/campaign.rows"
for target in "${chosen_targets[@]}"; do
  seeds="Tests/Fuzz/Corpus/$target" corpus="$out/corpus/$target" crashes="$out/crashes/$target"
  mkdir -p "$corpus" "$crashes"
  [ -d "$seeds" ] || { echo "fuzz: $target has no seed corpus at $seeds" >&2; exit 1; }
  options=(-timeout=10 -rss_limit_mb=2048 -max_len=65536 -print_final_stats=1 "-artifact_prefix=$crashes/")
  if [ "$mode" = runs ]; then
    options+=("-runs=$runs") limit=600
  elif [ "$mode" = campaign ]; then
    options+=("-runs=$runs" "-max_total_time=$seconds") limit=$((seconds + 300))
  else
    options+=("-max_total_time=$seconds") limit=$((seconds + 300))
  fi
  log="$out/logs/$target.log"
  # Symbolized reports name the Swift function that trapped; leaks count as failures too. The
  # Swift runtime's own backtracer is off: it would read memory under ASan and report itself.
  status=0 started=$SECONDS
  SWIFT_BACKTRACE=enable=no ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1}" \
    timeout "$limit" "$out/bin/$target" "${options[@]}" "$corpus" "$seeds" >"$log" 2>&1 || status=$?
  executed="$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)"
  coverage="$(sed -n 's/.* cov: \([0-9]*\) .*/\1/p' "$log" | tail -n 1)"
  features="$(sed -n 's/.* ft: \([0-9]*\) .*/\1/p' "$log" | tail -n 1)"
  if [ "$status" -eq 0 ]; then
    echo "fuzz: $target: ${executed:-?} inputs in $((SECONDS - started)) s, coverage ${coverage:-?} edges, ${features:-?} features, no crash"
    [ "$mode" = campaign ] && printf '| %s | %s | %s | %s | %s | 0 |\n' "$target" "${executed:-?}" \
      "$((SECONDS - started))" "${coverage:-?}" "${features:-?}" >>"$out/campaign.rows"
  else
    echo "fuzz: $target FAILED (status $status) after ${executed:-?} inputs; the log is $log:" >&2
    sed -nE '/ERROR|Fatal error|SUMMARY|Test unit written|deadly signal|timeout|#[0-9]+ 0x[0-9a-f]+ in \$s/p' "$log" | head -n 24 >&2
    failed+=("$target")
  fi
done
if [ "$mode" = campaign ]; then
  {
    echo "Fuzz campaign, $(date -u +%Y-%m-%d), $(swiftc --version 2>&1 | head -n 1), $(nproc) cores:"
    echo "each target until $runs inputs or $seconds s (Scripts/dev/fuzz.sh --campaign)."
    echo
    echo "| target | inputs | seconds | coverage (edges) | features | crashes |"
    echo "|---|---|---|---|---|---|"
    cat "$out/campaign.rows"
    for target in "${failed[@]}"; do echo "| $target | FAILED: see $out/logs/$target.log | | | | 1 |"; done
  } >"$out/campaign.txt"
  cat "$out/campaign.txt"
fi
if [ "${#failed[@]}" -gt 0 ]; then
  echo "fuzz: ${#failed[@]} of ${#chosen_targets[@]} targets failed: ${failed[*]}" >&2
  exit 1
fi
echo "fuzz: ${#chosen_targets[@]} targets, no crash"
