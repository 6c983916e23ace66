#!/usr/bin/env bash
# The README's two commands on a bare system, as a new user meets them: a minimal Debian 13 root
# (debootstrap --variant=minbase trixie), this repository cloned into it, then Scripts/test.sh
# and Scripts/run.sh (headless: `render` of the default configuration, and --version) run there.
# Fails on any failure. Needs root (debootstrap, chroot, mount); installs debootstrap if missing.
#
#   sudo Scripts/dev/fresh-root-check.sh                  test and run in a fresh trixie root
#   --suite NAME       another Debian suite (default trixie)
#   --run-only         only the run command (no test suite): a quicker look
#   --keep             leave the root in $CROWNPAGER_CACHE/fresh-<suite> to look around in
#
# The clone is of the committed HEAD. The pristine root and the downloaded packages are cached in
# $CROWNPAGER_CACHE (default /var/cache/crownpager); every check starts from a new copy of the root.
set -euo pipefail
cd "$(dirname "$0")/../.."
repo="$PWD"
suite=trixie
run_tests=1
keep=0
while [ $# -gt 0 ]; do
  case "$1" in
    --suite) suite="${2:?--suite needs a name}"; shift 2 ;;
    --run-only) run_tests=0; shift ;;
    --keep) keep=1; shift ;;
    -h|--help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;;
    *) echo "fresh-root: unknown option '$1' (try --help)" >&2; exit 2 ;;
  esac
done
debian_root_who=fresh-root
. Scripts/dev/debian-root.sh
say() { debian_root_say "$@"; }
[ "$(id -u)" -eq 0 ] || { say "run as root (sudo Scripts/dev/fresh-root-check.sh): debootstrap and chroot need it"; exit 1; }

arch="$(dpkg --print-architecture)"
base="$(debian_root_base "$suite" "$arch")"
root="$CROWNPAGER_CACHE/fresh-$suite"
cleanup() {
  debian_root_leave_all
  if [ "$keep" -eq 0 ]; then rm -rf "$root"; else say "kept the root: $root (chroot $root bash)"; fi
}
trap cleanup EXIT
debian_root_copy "$base" "$root"
debian_root_enter "$root"

say "cloning $(git rev-parse --short HEAD) into $root/root/crownpager"
git clone --quiet --no-hardlinks "$repo" "$root/root/crownpager"

timings=()
step() {
  local name=$1 started=$SECONDS; shift
  say "$name: $*"
  if ! debian_root_run "$root" bash -c 'cd crownpager && "$@"' bash "$@"; then
    say "FAILED in the fresh $suite root: $name ($*)"; exit 1
  fi
  timings+=("$name $((SECONDS - started)) s")
}
if [ "$run_tests" -eq 1 ]; then step test Scripts/test.sh; fi
step run Scripts/run.sh render --out /tmp/frames --crown +1,+1,-1 --frozen --no-png
step version Scripts/run.sh --version
frames="$(find "$root/tmp/frames" -name '*.pbm' | wc -l)"
[ "$frames" -gt 0 ] || { say "FAILED: render wrote no PBM frame"; exit 1; }
say "passed in a fresh $suite root: ${timings[*]}; render wrote $frames frames"
