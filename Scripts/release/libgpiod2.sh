#!/usr/bin/env bash
# Fetches libgpiod 2.x (the API of Debian 13 and current Raspberry Pi OS) from Debian's
# bookworm-backports suite and unpacks it into .build-libgpiod2/ with `dpkg -x`, so that the tests
# can load its libgpiod.so.3 through CROWNPAGER_LIBGPIOD (the headers are there to check the
# shim's own declarations against). The system's libgpiod (1.6 on Debian 12) is left alone.
#
#   Scripts/release/libgpiod2.sh          prints the folder holding the unpacked root (usr/...)
#
# The mirror comes from this machine's own apt sources (deb822 or one-line format): the entry
# that serves the release's main suite. No host is written down here. Runs again safely: a
# complete unpacked copy is reused.
set -euo pipefail
case "${1:-}" in -h|--help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;; esac
cd "$(dirname "$0")/../.."
say() { printf 'libgpiod2: %s\n' "$*" >&2; }

dest="$PWD/.build-libgpiod2"
root="$dest/root"
packages=(libgpiod-dev libgpiod3)
if [ -f "$root/.complete" ]; then echo "$root"; exit 0; fi

. /etc/os-release
codename="${VERSION_CODENAME:-}"
if [ "$codename" != "bookworm" ]; then
  say "this is ${PRETTY_NAME:-an unknown system}, not Debian 12 (bookworm): bookworm-backports is for bookworm only"
  exit 3
fi

# The mirror: the URI of the source that serves '$codename' (not the security archive).
. Scripts/dev/debian-root.sh
mirror="$(debian_root_mirror "$codename")"
if [ -z "$mirror" ]; then
  say "found no apt source serving '$codename' in /etc/apt/sources.list or /etc/apt/sources.list.d/*.sources"
  exit 1
fi
keyring=/usr/share/keyrings/debian-archive-keyring.gpg
say "mirror $mirror (from this machine's apt sources), suite $codename-backports"

# A private apt state: the machine's own lists and sources are not touched.
state="$dest/apt"
rm -rf "$state" "$root"
mkdir -p "$state/lists/partial" "$state/cache/archives/partial" "$state/sources.list.d" "$root"
cat > "$state/sources.list.d/backports.sources" <<EOF
Types: deb
URIs: $mirror
Suites: $codename-backports
Components: main
Signed-By: $keyring
EOF
: > "$state/sources.list"
apt_options=(
  -o "Dir::Etc::SourceList=$state/sources.list" -o "Dir::Etc::SourceParts=$state/sources.list.d"
  -o "Dir::State::Lists=$state/lists" -o "Dir::Cache=$state/cache" -o "Dir::Cache::pkgcache=" -o "Dir::Cache::srcpkgcache="
  -o "Debug::NoLocking=1" -o "APT::Get::List-Cleanup=0" -o "APT::Sandbox::User=$(id -un)"
)
say "reading the package list of $codename-backports"
apt-get "${apt_options[@]}" update -qq >&2
downloads=()
for package in "${packages[@]}"; do downloads+=("$package/$codename-backports"); done
say "downloading ${packages[*]}"
(cd "$state" && apt-get "${apt_options[@]}" download -qq "${downloads[@]}" >&2)
for deb in "$state"/*.deb; do
  say "unpacking $(basename "$deb")"
  dpkg -x "$deb" "$root"
done

# The .pc file says prefix=/usr: point it at the unpacked copy.
pc="$(find "$root" -name libgpiod.pc | head -n 1)"
[ -n "$pc" ] || { say "the packages hold no libgpiod.pc"; exit 1; }
sed -i "s|^prefix=.*|prefix=$root/usr|" "$pc"
version="$(sed -n 's/^Version: *//p' "$pc")"
case "$version" in 2.*) ;; *) say "expected libgpiod 2.x, got $version"; exit 1 ;; esac
say "libgpiod $version in $root"
touch "$root/.complete"
echo "$root"
