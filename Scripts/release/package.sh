#!/usr/bin/env bash
# Builds the Debian package crownpager_<version>_<arch>.deb from this checkout: a release binary
# with the Swift runtime linked in (--static-swift-stdlib: the target needs no Swift), the systemd
# unit, the udev rules, the default /etc/crownpager/crownpager.toml as a conffile, a man page and
# shell completions generated from the program's own help, and the maintainer scripts of
# Hardware/debian. lintian checks the result.
#
#   Scripts/release/package.sh                    for this machine's architecture, with its Swift toolchain
#   Scripts/release/package.sh --arch arm64       for a Raspberry Pi, from an x86-64 machine: cross-compiled
#                                         with Debian 13's swiftlang in a cached trixie root (needs root)
#   --out DIR          where the .deb goes (default: out/)
#   --version V        the package version (default: the program's own, from BuildVersion.swift)
#   --no-lintian       skip the lintian check
#   --print-version    print the version a package gets, and nothing else
# Prints the path of the .deb on its last line.
set -euo pipefail
cd "$(dirname "$0")/../.."
repo="$PWD"
host_arch="$(dpkg --print-architecture)"
arch="$host_arch"
out="$repo/out"
version=""
lint=1
print_version=0
while [ $# -gt 0 ]; do
  case "$1" in
    --arch) arch="${2:?--arch needs amd64 or arm64}"; shift 2 ;;
    --out) out="${2:?--out needs a folder}"; shift 2 ;;
    --version) version="${2:?--version needs a version}"; shift 2 ;;
    --no-lintian) lint=0; shift ;;
    --print-version) print_version=1; shift ;;
    -h|--help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;;
    *) echo "package: unknown option '$1' (try --help)" >&2; exit 2 ;;
  esac
done
say() { printf 'package: %s\n' "$*" >&2; }
case "$arch" in amd64 | arm64) ;; *) say "--arch takes amd64 or arm64, not '$arch'"; exit 2 ;; esac
[ -n "$version" ] || version="$(sed -n 's/.*static let number = "\(.*\)".*/\1/p' Sources/crownpager/BuildVersion.swift)"
[ -n "$version" ] || { say "found no version in Sources/crownpager/BuildVersion.swift"; exit 1; }
[ "$print_version" -eq 1 ] && { echo "$version"; exit 0; }
mkdir -p "$out" && out="$(cd "$out" && pwd)"
work="$(mktemp -d)"
started=$SECONDS

if [ "$arch" = "$host_arch" ]; then
  # Native: this machine's toolchain, as Scripts/setup.sh installs it.
  cleanup() { rm -rf "$work"; }
  trap cleanup EXIT
  Scripts/setup.sh --packaging >&2
  for dir in /opt/swift/usr/bin /usr/share/swift/usr/bin; do [ -x "$dir/swift" ] && PATH="$PATH:$dir"; done
  Scripts/release/build-info.sh
  # The release link of Scripts/release/release-link.sh, for both products: flags that differ between
  # them would build every module twice.
  . Scripts/release/release-link.sh
  say "building crownpager $version for $arch (release, static Swift runtime, the link of release-link.sh)"
  swift build "${release_build[@]}" --product crownpager >&2
  swift build "${release_build[@]}" --product generate-manual >&2
  bin="$(swift build "${release_build[@]}" --show-bin-path)"
  strip --strip-unneeded -o "$work/crownpager" "$bin/crownpager"
  Scripts/release/docs.sh "$work/crownpager" "$bin/generate-manual" "$work/docs" >&2
else
  # Cross: Debian 13's swiftlang in a cached trixie root (Scripts/release/cross-root.sh), on a copy of
  # the working tree as it is (uncommitted changes too, no build folders).
  [ "$host_arch" = amd64 ] && [ "$arch" = arm64 ] || { say "cross-building goes from amd64 to arm64 only"; exit 2; }
  [ "$(id -u)" -eq 0 ] || { say "building for $arch here needs root (debootstrap, chroot): sudo Scripts/release/package.sh --arch $arch"; exit 1; }
  debian_root_who=package
  . Scripts/dev/debian-root.sh
  cleanup() { debian_root_leave_all; rm -rf "$work"; }
  trap cleanup EXIT
  # The man page and completions come from running the arm64 program under qemu (Scripts/release/docs.sh):
  # binfmt_misc must be mounted and qemu-aarch64 registered, which a fresh machine may lack.
  debian_root_foreign_ready "$arch" || exit 1
  builder="$(Scripts/release/cross-root.sh prepare "$arch")"
  debian_root_enter "$builder"
  src="$builder/root/src"
  mkdir -p "$src"
  find "$src" -mindepth 1 -maxdepth 1 ! -name '.build-*' -exec rm -rf {} +
  git ls-files -z --cached --others --exclude-standard | tar --null -T - -cf - | tar -xf - -C "$src"
  cp -a .git "$src/.git"
  say "cross-building crownpager $version for $arch in $builder"
  debian_root_run "$builder" bash -c "cd src && Scripts/release/cross-root.sh build $arch" >&2
  cp "$src/.build-cross-$arch/crownpager" "$work/crownpager"
  cp -a "$src/.build-cross-$arch/docs" "$work/docs"
  debian_root_leave_all
fi
say "built in $((SECONDS - started)) s"

# What the binary needs from the system: its shared libraries, as Debian packages.
needed="$(LC_ALL=C readelf -d "$work/crownpager" | sed -n 's/.*Shared library: \[\(.*\)\]/\1/p')"
glibc="$(LC_ALL=C readelf -V "$work/crownpager" | grep -o 'GLIBC_[0-9.]*' | sed 's/GLIBC_//' | sort -V | tail -n 1)"
# No GLIBCXX version at all when libstdc++ is linked statically (release-link.sh): sed, unlike grep,
# does not fail on finding nothing.
glibcxx="$(LC_ALL=C readelf -V "$work/crownpager" | sed -n 's/.*GLIBCXX_3\.4\.\([0-9]*\).*/\1/p' | sort -n | tail -n 1)"
# Packed relative relocations (DT_RELR, release-link.sh) need the loader of glibc 2.36 or later.
if LC_ALL=C readelf -V "$work/crownpager" | grep -q GLIBC_ABI_DT_RELR; then
  glibc="$(printf '%s\n' "${glibc:-2.31}" 2.36 | sort -V | tail -n 1)"
fi
depends=()
for library in $needed; do
  case "$library" in
    libc.so.6 | libm.so.6 | libdl.so.2 | libpthread.so.0 | librt.so.1 | ld-linux*) entry="libc6 (>= ${glibc:-2.31})" ;;
    libstdc++.so.6)
      # The newest GLIBCXX_3.4.N the binary asks for, and the first gcc whose libstdc++6 has it.
      case "${glibcxx:-0}" in 29) gcc=11 ;; 30) gcc=12 ;; 31 | 32) gcc=13 ;; 33) gcc=14 ;; *) gcc="" ;; esac
      [ -n "${glibcxx:-}" ] && [ -z "$gcc" ] && [ "$glibcxx" -gt 33 ] && { say "GLIBCXX_3.4.$glibcxx is newer than this script knows"; exit 1; }
      entry="libstdc++6${gcc:+ (>= $gcc)}" ;;
    libgcc_s.so.1) entry="libgcc-s1" ;;
    libi2c.so.0) entry="libi2c0" ;;
    *) say "the binary needs $library, which this script cannot name a package for"; exit 1 ;;
  esac
  case " ${depends[*]-} " in *" $entry,"* | *" $entry "*) ;; *) depends+=("$entry") ;; esac
done
# libgpiod is not linked: the program loads either major at run time (Sources/CrownPagerGPIO).
depends+=("libgpiod3 | libgpiod2")
# Nor is libmosquitto (Sources/CrownPagerMosquitto): it is loaded when [mqtt] has a host. A Depends,
# not a Recommends: a configuration with a host must work wherever the package is installed, and
# the library is small (its libssl is on every Debian already).
depends+=("libmosquitto1")
# libmicrohttpd (Sources/CrownPagerMicroHTTPD) is loaded when [web] listens, and without it the pager
# runs with a warning that names the package: a Recommends (below), not a Depends.
depends+=("passwd")
# The unit's ExecReload is /bin/kill, which procps ships; a minimal Debian (debootstrap minbase, a
# container image) has none, and `systemctl reload` fails there with 203/EXEC (Scripts/dev/unit-check.sh).
depends+=("procps")
say "depends: $(IFS=,; echo "${depends[*]}" | sed 's/,/, /g')"

# The tree of the package.
tree="$work/tree"
doc="$tree/usr/share/doc/crownpager"
install -d "$tree/DEBIAN" "$tree/usr/bin" "$tree/usr/lib/systemd/system" "$tree/usr/lib/udev/rules.d" \
  "$tree/usr/lib/modules-load.d" \
  "$tree/etc/crownpager" "$tree/usr/share/man/man1" "$tree/usr/share/man/man5" "$doc" \
  "$tree/usr/share/bash-completion/completions" \
  "$tree/usr/share/zsh/vendor-completions" "$tree/usr/share/fish/vendor_completions.d"
install -m 0755 "$work/crownpager" "$tree/usr/bin/crownpager"
sed 's|/usr/local/bin/crownpager|/usr/bin/crownpager|g; s|^Documentation=.*|Documentation=man:crownpager(1)|' \
  Hardware/crownpager.service >"$tree/usr/lib/systemd/system/crownpager.service"
chmod 0644 "$tree/usr/lib/systemd/system/crownpager.service"
install -m 0644 Hardware/99-crownpager-i2c.rules Hardware/99-crownpager-gpio.rules Hardware/99-crownpager-spi.rules \
  "$tree/usr/lib/udev/rules.d/"
install -m 0644 Hardware/crownpager-modules.conf "$tree/usr/lib/modules-load.d/crownpager.conf"
install -m 0644 Hardware/crownpager.toml "$tree/etc/crownpager/crownpager.toml"
echo /etc/crownpager/crownpager.toml >"$tree/DEBIAN/conffiles"
for script in postinst prerm postrm; do install -m 0755 "Hardware/debian/$script" "$tree/DEBIAN/$script"; done

# The man page and the completions, from the program's own help (Scripts/release/docs.sh).
gzip -9n -c "$work/docs/man/crownpager.1" >"$tree/usr/share/man/man1/crownpager.1.gz"
gzip -9n -c "$work/docs/man/crownpager.toml.5" >"$tree/usr/share/man/man5/crownpager.toml.5.gz"
# bash-completion sources the file: no #! line.
sed '1{/^#!/d}' "$work/docs/completions/crownpager.bash" >"$tree/usr/share/bash-completion/completions/crownpager"
install -m 0644 "$work/docs/completions/crownpager.zsh" "$tree/usr/share/zsh/vendor-completions/_crownpager"
install -m 0644 "$work/docs/completions/crownpager.fish" "$tree/usr/share/fish/vendor_completions.d/crownpager.fish"

install -m 0644 Hardware/debian/copyright "$doc/copyright"
gzip -9n -c README.md >"$doc/README.md.gz"
gzip -9n -c Hardware/README.md >"$doc/Hardware.md.gz"
gzip -9n -c Hardware/ENCODER.md >"$doc/ENCODER.md.gz"
maintainer="${DEBFULLNAME:-$(git config user.name || echo "CrownPager developers")} <${DEBEMAIL:-$(git config user.email || echo "crownpager@localhost")}>"
changelog_date="$(git log -1 --format=%aD HEAD 2>/dev/null)" || changelog_date="$(date -R)"
commit="$(git rev-parse --short=10 HEAD 2>/dev/null)" || commit="unknown"
printf 'crownpager (%s) unstable; urgency=medium\n\n  * Built from commit %s; see README.md for what changed.\n\n -- %s  %s\n' \
  "$version" "$commit" "$maintainer" "$changelog_date" | gzip -9n >"$doc/changelog.gz"
find "$tree" -type d -exec chmod 0755 {} +
chmod 0644 "$tree/usr/share/bash-completion/completions/crownpager"
# The commit's time for every file's date: the same commit packs the same .deb.
SOURCE_DATE_EPOCH="$(git log -1 --format=%ct HEAD 2>/dev/null)" || SOURCE_DATE_EPOCH="$(date +%s)"
export SOURCE_DATE_EPOCH

installed_size="$(du -sk --exclude=DEBIAN "$tree" | cut -f1)"
cat >"$tree/DEBIAN/control" <<EOF
Package: crownpager
Version: $version
Architecture: $arch
Maintainer: $maintainer
Installed-Size: $installed_size
Depends: $(IFS=,; echo "${depends[*]}" | sed 's/,/, /g')
Recommends: i2c-tools, unifont, libmicrohttpd12t64 | libmicrohttpd12
Suggests: gpiod
Section: misc
Priority: optional
Description: watchOS-style vertical pages on an SSD1306 OLED, turned by a knob
 CrownPager shows pages stacked vertically, one screen high, on a 128x64 or
 128x32 SSD1306 (or SH1106) OLED over Linux I2C, with a column of page
 indicator dots beside a rotary encoder read through GPIO: turn to page,
 press to go back, hold for the list of pages. It runs as a service with its
 configuration in /etc/crownpager/crownpager.toml.
EOF
(cd "$tree" && find . -path ./DEBIAN -prune -o -type f -printf '%P\0' | sort -z | xargs -0 md5sum >DEBIAN/md5sums)
chmod 0644 "$tree/DEBIAN/md5sums" "$tree/DEBIAN/control" "$tree/DEBIAN/conffiles"

deb="$out/crownpager_${version}_${arch}.deb"
dpkg-deb --root-owner-group -Zxz --build "$tree" "$deb" >&2
say "$(basename "$deb"): $(du -k "$deb" | cut -f1) KiB, installed $installed_size KiB"
if [ "$lint" -eq 1 ]; then
  # Errors fail the build; warnings are shown. The package is native and unsigned on purpose.
  lintian --fail-on error "$deb" >&2
  say "lintian: no errors"
fi
echo "$deb"
