#!/usr/bin/env bash
# Writes the man pages (crownpager(1), crownpager.toml(5)) and the bash, zsh and fish completions of a built crownpager into a folder,
# from the program's own help (swift-argument-parser's generate-manual and
# --generate-completion-script). Scripts/release/package.sh calls it. For a foreign binary, set
# QEMU_LD_PREFIX to its sysroot: qemu-user then runs it (binfmt_misc).
#
#   Scripts/release/docs.sh CROWNPAGER GENERATE_MANUAL DEST
set -euo pipefail
case "${1:-}" in -h|--help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;; esac
[ $# -eq 3 ] || { echo "docs: usage: Scripts/release/docs.sh CROWNPAGER GENERATE_MANUAL DEST (try --help)" >&2; exit 2; }
binary=$1 manual_tool=$2 dest=$3
cd "$(dirname "$0")/../.."
mkdir -p "$dest/man" "$dest/completions"
# The commit's date, not today's: the same commit gives the same page.
date="$(git log -1 --format=%cs HEAD 2>/dev/null)" || date="$(date +%F)"
"$manual_tool" "$binary" --output-directory "$dest/man" --section 1 --date "$date" --authors "The CrownPager developers"
for shell in bash zsh fish; do "$binary" --generate-completion-script "$shell" >"$dest/completions/crownpager.$shell"; done
[ -s "$dest/man/crownpager.1" ] || { echo "docs: generate-manual wrote no crownpager.1" >&2; exit 1; }
# crownpager.toml(5), from the settings table; lintian's check of a page, which must say nothing.
"$binary" check --print-manual >"$dest/man/crownpager.toml.5"
if command -v man >/dev/null; then
  warnings="$(LC_ALL=C.UTF-8 MANROFFSEQ='' MANWIDTH=80 man --warnings -E UTF-8 -l -Tutf8 -Z "$dest/man/crownpager.toml.5" 2>&1 >/dev/null)"
  [ -z "$warnings" ] || { echo "docs: crownpager.toml.5 has roff warnings:" >&2; echo "$warnings" >&2; exit 1; }
fi
