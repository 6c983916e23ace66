#!/usr/bin/env bash
# The link of the program the .deb ships, for Scripts/release/package.sh (both architectures, the arm64
# one through Scripts/release/cross-root.sh), Scripts/bench/wakeups.sh and Scripts/release/symbol-order.sh. Sourced:
#
#   . Scripts/release/release-link.sh
#   swift build "${release_build[@]}" --product crownpager
#
# A plain `swift build -c release` (Scripts/run.sh, the tests) links without any of it: the
# manifest carries no flags. Each one below earns its place on the .deb's program: the peak RSS of
# the panel cases of Scripts/bench/wakeups.sh (median) is 8,700 KiB with all of them and 12,744 KiB with
# none (README, "Footprint and wakeups"), and leaving one out costs:
#   -use-ld=lld                 the linker of the other four (the toolchain's default, gold, has
#                               neither packed relocations nor a symbol order)
#   -z pack-relative-relocs     1,016 KiB and 39 kB of the .deb: the loader reads the PIE's
#                               40,000 relative relocations packed in a few kB (DT_RELR, glibc
#                               2.36: Debian 12 on)
#   -L release-link             1,300 KiB: libstdc++.so here is a linker script, so the -lstdc++ of
#                               --static-swift-stdlib links the static archive's few pieces instead
#                               of libstdc++.so.6 and its symbol tables
#   --no-export-dynamic         400 to 480 KiB and 120 kB of the .deb: the runtime's
#                               -export-dynamic puts every symbol in the table each library's
#                               lookups search first
#   --symbol-ordering-file      2,320 KiB: the functions a run executes (crownpager.order, made by
#                               Scripts/release/symbol-order.sh) go first and together, where 3,000 of them
#                               scattered over 5.6 MB of code touched most of its 64 kB windows
# Symbols of the list that the binary lacks (other architectures', code changed since the list
# was made) are skipped silently: an old list costs RSS, never correctness, and wakeups.sh says
# how much of it the binary still has.

if [ "${BASH_SOURCE[0]}" = "$0" ]; then awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0; fi

release_link_dir="$PWD/Scripts/release/release-link"
release_link=(-Xswiftc -use-ld=lld)
# The glibc this links against is the building machine's (the arm64 build runs in a Debian 13 root
# whose sysroot has the same): a program with DT_RELR does not start with an older loader, such as
# Ubuntu 22.04's 2.35, so there the relocations stay unpacked.
if printf '%s\n' 2.36 "$(getconf GNU_LIBC_VERSION 2>/dev/null | awk '{ print $2 }')" | sort -V -C; then
  release_link+=(-Xlinker -z -Xlinker pack-relative-relocs)
fi
release_link+=(-Xswiftc -L -Xswiftc "$release_link_dir" -Xlinker --no-export-dynamic
  -Xlinker "--symbol-ordering-file=$release_link_dir/crownpager.order" -Xlinker --no-warn-symbol-ordering)
# The whole build: release, the Swift runtime inside the program, and its own build folder, so a
# plain release build (Scripts/run.sh) and this one do not rebuild each other's modules.
release_build=(-c release --static-swift-stdlib --scratch-path ".build-package-$(dpkg --print-architecture)" "${release_link[@]}")
