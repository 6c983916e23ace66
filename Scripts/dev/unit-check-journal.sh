#!/usr/bin/env bash
# The journal's priorities through the packaged service, a part of Scripts/dev/unit-check.sh:
# sourced by it, not run. It makes an error (a restart with no panel at the file's address) and
# a warning (a reload of a broken file), and checks that `journalctl -p err` shows the error and
# nothing else, the broken reload is a warning, and what the program drives and its reloads are info.
#
#   journal_checks   runs the checks in the booted container (unit-check's helpers and files)

if [ "${BASH_SOURCE[0]}" = "$0" ]; then awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0; fi

journal_checks() {
  local errors warnings infos unparsed
  cp "$root/root/unit-check/reloaded.toml" "$work/good.toml"
  printf '[display\n' >"$root/etc/crownpager/crownpager.toml"
  in_machine systemctl reload crownpager.service || fail "systemctl reload crownpager (a broken file) failed ($?)"
  kept() { journal -u crownpager.service | grep -q 'kept the running configuration'; }
  wait_for 10 kept || fail "a reload of a broken file logged no 'kept the running configuration'"
  sed 's/^address = 0x3c$/address = 0x3d/' "$work/good.toml" >"$root/etc/crownpager/crownpager.toml"
  if in_machine systemctl restart crownpager.service 2>/dev/null; then
    fail "crownpager started with no panel at 0x3d"
  fi
  cp "$work/good.toml" "$root/etc/crownpager/crownpager.toml"
  in_machine systemctl reset-failed crownpager.service || say "systemctl reset-failed crownpager: status $?"
  in_machine systemctl restart crownpager.service || fail "systemctl restart crownpager with the good file failed ($?)"
  # The program's own lines (SyslogIdentifier=crownpager), not systemd's about the unit.
  program_lines() { journal -t crownpager "$@"; }
  errors="$(program_lines -p err)"
  warnings="$(program_lines -p warning..warning)"
  infos="$(program_lines -p info..info)"
  unparsed="$(program_lines | grep -E '^<[0-7]>' || [ $? -eq 1 ])"
  if [ -n "$errors" ] && ! grep -qv '0x3d' <<<"$errors" && [ -z "$unparsed" ]; then
    pass "journalctl -p err shows only the error: $(tail -n 1 <<<"$errors")"
  else
    fail "journalctl -p err: '${errors:-nothing}' (the 0x3d error and nothing else wanted; lines left with '<N>': '$unparsed')"
  fi
  if grep -q 'kept the running configuration' <<<"$warnings" && ! grep -q 'driving' <<<"$warnings"; then
    pass "the broken reload is a warning: $(grep 'kept the running' <<<"$warnings" | tail -n 1)"
  else
    fail "journalctl -p warning..warning: '${warnings:-nothing}' (the kept configuration wanted, not the info lines)"
  fi
  if grep -q 'driving' <<<"$infos" && grep -q 'reloaded /etc/crownpager' <<<"$infos" && ! grep -q 'could not write' <<<"$infos"; then
    pass "what it drives and the reloads are info ($(wc -l <<<"$infos") lines at -p info..info)"
  else
    fail "journalctl -p info..info: '${infos:-nothing}' (the 'driving' and 'reloaded' lines wanted, not the error)"
  fi
}
