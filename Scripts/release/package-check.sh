#!/usr/bin/env bash
# Proves the Debian packages in fresh Debian 13 roots (needs root):
#  1. amd64: install with apt, check the user, groups, unit, conffile and the program; edit the
#     configuration and add a file of one's own; upgrade to a newer build (the edit and the file
#     stay); remove (the configuration stays); purge (the conffile goes, the owner's file stays).
#  2. arm64, under qemu-user: install with apt, `crownpager --version`, and `render` of the default
#     configuration, whose PBM frames and I2C trace must be byte-identical to the amd64 build's.
#
#   sudo Scripts/release/package-check.sh AMD64_DEB [ARM64_DEB]      without ARM64_DEB only part 1 runs
#
# Both roots start as copies of cached minimal roots ($CROWNPAGER_CACHE, Scripts/dev/debian-root.sh).
set -euo pipefail
cd "$(dirname "$0")/../.."
case "${1:-}" in
  -h|--help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;;
  "" | -*) echo "package-check: usage: Scripts/release/package-check.sh AMD64_DEB [ARM64_DEB] (try --help)" >&2; exit 2 ;;
esac
amd64_deb="$(realpath "$1")"
arm64_deb="${2:+$(realpath "$2")}"
debian_root_who=package-check
. Scripts/dev/debian-root.sh
say() { debian_root_say "$@"; }
[ "$(id -u)" -eq 0 ] || { say "run as root: debootstrap and chroot need it"; exit 1; }
fail() { say "FAILED: $*"; exit 1; }
work="$(mktemp -d)"
trap 'debian_root_leave_all; rm -rf "$work" "$CROWNPAGER_CACHE/check-amd64" "$CROWNPAGER_CACHE/check-arm64"' EXIT
# The render both architectures must agree on: the default configuration, a few turns, a press.
render=(render --out /tmp/frames --crown "+1,+1,-1,press,+2" --frozen --no-png --trace /tmp/frames/trace.txt)
in_root() { local dir=$1; shift; debian_root_run "$dir" bash -c "$*"; }
apt_options="-y -qq -o Dpkg::Options::=--force-confdef -o Dpkg::Options::=--force-confold"

# No Swift on the target: the runtime is inside the program.
for deb in "$amd64_deb" ${arm64_deb:+"$arm64_deb"}; do
  depends="$(dpkg-deb -f "$deb" Depends)"
  say "$(basename "$deb") depends on: $depends"
  if grep -qi swift <<<"$depends"; then fail "$(basename "$deb") depends on Swift"; fi
done

# 1. amd64: install, upgrade, remove, purge.
root="$CROWNPAGER_CACHE/check-amd64"
debian_root_copy "$(debian_root_base trixie amd64)" "$root"
debian_root_enter "$root"
cp "$amd64_deb" "$root/tmp/crownpager.deb"
say "amd64: apt install ./$(basename "$amd64_deb")"
in_root "$root" "apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install $apt_options --no-install-recommends /tmp/crownpager.deb >/dev/null"
in_root "$root" "crownpager --version" | sed 's/^/  | /'
in_root "$root" "getent passwd crownpager >/dev/null" || fail "no crownpager user"
for group in i2c gpio input spi; do
  in_root "$root" "id -nG crownpager | tr ' ' '\n' | grep -qx $group" || fail "crownpager is not in group $group"
done
[ -L "$root/etc/systemd/system/multi-user.target.wants/crownpager.service" ] || fail "the service is not enabled"
in_root "$root" "crownpager check /etc/crownpager/crownpager.toml >/dev/null" || fail "the installed configuration does not check"
in_root "$root" "crownpager ${render[*]} >/dev/null" || fail "render fails on amd64"
cp -a "$root/tmp/frames" "$work/frames-amd64"
in_root "$root" "man -w crownpager >/dev/null 2>&1 || test -f /usr/share/man/man1/crownpager.1.gz" || fail "no man page"
echo '# edited by the owner' >>"$root/etc/crownpager/crownpager.toml"
echo 'P1 1 1 1' >"$root/etc/crownpager/logo.pbm"
edited="$(md5sum <"$root/etc/crownpager/crownpager.toml")"

# The upgrade, over a running pager: the same build under a higher version, so only the version
# differs. No systemd runs in a root (the postinst's restart is debhelper's usual snippet), so the
# pager runs by hand, in the terminal mock on a pseudo-terminal (script(1)), as the old program.
say "amd64: upgrade over a running pager"
in_root "$root" "sleep 600 | script -qfc 'crownpager run --mock' /dev/null >/dev/null 2>&1 &"
pager=""
for _ in $(seq 1 50); do pager="$(pgrep -f "^crownpager run --mock" | head -n 1)" && [ -n "$pager" ] && break; sleep 0.1; done
[ -n "$pager" ] || fail "the pager did not start before the upgrade"
mkdir "$work/upgrade"
dpkg-deb -R "$amd64_deb" "$work/upgrade/tree"
sed -i 's/^Version: \(.*\)$/Version: \1+check1/' "$work/upgrade/tree/DEBIAN/control"
dpkg-deb --root-owner-group --build "$work/upgrade/tree" "$root/tmp/crownpager-upgrade.deb" >/dev/null
in_root "$root" "DEBIAN_FRONTEND=noninteractive apt-get install $apt_options /tmp/crownpager-upgrade.deb >/dev/null"
in_root "$root" "dpkg-query -W -f '\${Version}' crownpager | grep -q '+check1'" || fail "the upgrade did not install"
[ "$(md5sum <"$root/etc/crownpager/crownpager.toml")" = "$edited" ] || fail "the upgrade changed the edited configuration"
[ -f "$root/etc/crownpager/logo.pbm" ] || fail "the upgrade removed the owner's file"
kill -0 "$pager" || fail "the running pager died in the upgrade"
readlink "/proc/$pager/exe" | grep -q '(deleted)' || fail "the running pager's program was not replaced by a new file"
kill -TERM "$pager"
for _ in $(seq 1 50); do kill -0 "$pager" 2>/dev/null || break; sleep 0.1; done
kill -0 "$pager" 2>/dev/null && fail "the old pager did not stop on SIGTERM after the upgrade"
pkill -f "^sleep 600" || say "the helper sleep had gone already"

say "amd64: remove, then purge"
in_root "$root" "DEBIAN_FRONTEND=noninteractive apt-get remove -y -qq crownpager >/dev/null"
[ ! -e "$root/usr/bin/crownpager" ] || fail "remove left the program"
[ "$(md5sum <"$root/etc/crownpager/crownpager.toml")" = "$edited" ] || fail "remove touched the configuration"
in_root "$root" "DEBIAN_FRONTEND=noninteractive apt-get purge -y -qq crownpager >/dev/null"
[ ! -e "$root/etc/crownpager/crownpager.toml" ] || fail "purge left the configuration"
[ -f "$root/etc/crownpager/logo.pbm" ] || fail "purge removed a file the package never installed"
[ ! -e "$root/etc/systemd/system/multi-user.target.wants/crownpager.service" ] || fail "purge left the service enabled"
debian_root_leave "$root"
say "amd64: install, upgrade, remove and purge passed"

[ -n "$arm64_deb" ] || exit 0

# 2. arm64 under qemu: install, --version, the same render.
root="$CROWNPAGER_CACHE/check-arm64"
debian_root_copy "$(debian_root_base trixie arm64)" "$root"
debian_root_enter "$root"
cp "$arm64_deb" "$root/tmp/crownpager.deb"
say "arm64: apt install ./$(basename "$arm64_deb") (under qemu)"
in_root "$root" "apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install $apt_options --no-install-recommends /tmp/crownpager.deb >/dev/null"
in_root "$root" "crownpager --version" | sed 's/^/  | /'
in_root "$root" "crownpager --version | grep -q 'for aarch64'" || fail "the arm64 program does not say aarch64"
in_root "$root" "crownpager ${render[*]} >/dev/null" || fail "render fails on arm64"
cp -a "$root/tmp/frames" "$work/frames-arm64"
debian_root_leave "$root"
diff -r "$work/frames-amd64" "$work/frames-arm64" >"$work/diff" || { head -n 40 "$work/diff" >&2; fail "arm64 and amd64 render differently"; }
say "arm64: installed and rendered $(find "$work/frames-arm64" -name '*.pbm' | wc -l) frames and a $(wc -l <"$work/frames-arm64/trace.txt")-line trace, byte-identical to amd64"
