#!/usr/bin/env bash
# The control socket, the state directory and an action page through the packaged service, the
# part of Scripts/dev/unit-check.sh for issue 24: sourced by it, not run. It checks that:
#   - the socket is /run/crownpager/control.sock, mode 0660 for user and group crownpager, in a
#     folder of mode 0750 that systemd made (RuntimeDirectory=);
#   - `crownpager notify --priority critical` as root puts the overlay on the glass: the trace
#     replayed shows what an unconfined `crownpager run` on a fake of its own showed for it;
#   - a member of group crownpager may notify; a user outside it is refused with the fix;
#   - /var/lib/crownpager/notifications (StateDirectory=) keeps the critical one, mode 0600, and
#     after `systemctl restart crownpager` the new process shows it again;
#   - a press on the fake knob dismisses it; the next press runs the action page's
#     ["/bin/echo", "done"] (confirm = "none") and its result shows: the reference render of a
#     command page printing the same lines;
#   - still nothing denied in the journal;
#   - with --polkit (polkitd installed into the root): the README's rule lets the service's action
#     `systemctl restart foo.service` (a dummy unit) restart it from inside the unit's sandbox, and
#     the service user may not stop it.
#
#   control_prepare ROOT FAKE_LIB POLKIT   writes the configurations and the setup into ROOT/root/unit-check
#   control_checks                         runs the checks in the booted container (unit-check's helpers)

if [ "${BASH_SOURCE[0]}" = "$0" ]; then awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0; fi

control_message="Smoke in the kitchen"

# unit-check's fake display and knob (the settings of its first.toml, in DIR) with an action page
# first, then one for polkit, then home; FIRST is the first page's kind and lines (for the
# reference, a command page printing what the action's result shows).
control_config() {
  local dir=$1 first=$2
  sed '/^\[\[page\]\]/,$d' "$dir/first.toml"
  cat <<EOF
[[page]]
title = "Say done"
$first

[[page]]
kind = "text"
title = "Restart foo"
text = "press to restart foo.service"
action = ["systemctl", "restart", "foo.service"]
confirm = "none"

[[page]]
kind = "text"
title = "Home"
text = "home"
EOF
}

control_prepare() {
  local root=$1 fake_lib=$2 dir="$1/root/unit-check"
  control_polkit=$3
  control_config "$dir" $'kind = "text"\ntext = "press to say done"\naction = ["/bin/echo", "done"]\nconfirm = "none"' >"$dir/control.toml"
  control_config "$dir" $'kind = "command"\nargv = ["printf", "exit status 0\\\\ndone\\\\n"]\nrefresh = "1h"' >"$dir/action.toml"
  printf '[display]\nbus = 1\naddress = 0x3c\n\n[[page]]\nkind = "text"\ntitle = "Home"\ntext = "home"\n' >"$dir/notify.toml"
  # Run in the root before it boots (as root, unconfined): the references, and two users.
  cat >"$dir/control-setup.sh" <<EOF
set -e
cd /root/unit-check
crownpager check control.toml >/dev/null && crownpager check action.toml >/dev/null
crownpager render --config control.toml --out reference-control --crown 'wait 3s' --no-png </dev/null >/dev/null
crownpager render --config action.toml --out reference-action --crown 'wait 3s' --no-png </dev/null >/dev/null
useradd --system --no-create-home --groups crownpager pager-member
useradd --system --no-create-home pager-other
# The overlay as an unconfined run on a fake panel of its own shows it, once it has landed: the
# same glass twice, half a second apart, with the notification shown.
mkdir -p notify-run reference-notify
LD_PRELOAD=$fake_lib FAKE_KERNEL_ROOT=\$PWD/notify-run/root FAKE_I2C_DEVICES=1:0x3c \\
  FAKE_I2C_TRACE=\$PWD/notify-run/trace.txt crownpager run --config notify.toml --socket \$PWD/notify-run/control.sock \\
  </dev/null >notify-run/log 2>&1 &
run=\$!
ask() { crownpager "\$@" --socket \$PWD/notify-run/control.sock; }
for _ in \$(seq 1 100); do ask status >/dev/null 2>&1 && break; sleep 0.2; done
ask notify "$control_message" --title Smoke --priority critical
landed=0
for _ in \$(seq 1 40); do
  sleep 0.5
  crownpager replay notify-run/trace.txt --out notify-run/glass >/dev/null 2>&1 || continue
  if ask status | grep -q 'notification shown: Smoke' && [ -f reference-notify/step-00.pbm ] \\
    && cmp -s notify-run/glass/glass.pbm reference-notify/step-00.pbm; then landed=1; break; fi
  cp notify-run/glass/glass.pbm reference-notify/step-00.pbm
done
kill -TERM \$run && wait \$run
[ "\$landed" -eq 1 ] || { echo "the unconfined run's glass did not settle on the overlay: \$(cat notify-run/log)"; exit 1; }
EOF
  [ "$control_polkit" -eq 1 ] || return 0
  # The README's rule, and a unit for it to restart that counts its starts.
  mkdir -p "$root/etc/polkit-1/rules.d"
  sed -n '/^polkit.addRule/,/^});/p' "$repo/README.md" >"$root/etc/polkit-1/rules.d/50-crownpager.rules"
  printf '[Unit]\nDescription=A unit the pager restarts (Scripts/dev/unit-check-control.sh)\n[Service]\nType=oneshot\nRemainAfterExit=yes\nExecStart=/bin/sh -c "echo started >>/var/lib/foo-starts"\n' \
    >"$root/etc/systemd/system/foo.service"
  cat >>"$dir/control-setup.sh" <<EOF
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends polkitd >polkit-apt.log 2>&1 \\
  || { tail -n 20 polkit-apt.log; exit 1; }
EOF
}

# A press on the fake knob's button (line 22, low while pressed), long enough for the debouncer.
control_press() {
  local input="$root$fake/gpio-input"
  timeout 5 sh -c "printf '0 22 0\n' >'$input'" && sleep 0.2 && timeout 5 sh -c "printf '0 22 1\n' >'$input'"
}

control_checks() {
  local socket=/run/crownpager/control.sock pid before modes run state
  cp "$root/root/unit-check/control.toml" "$root/etc/crownpager/crownpager.toml"
  in_machine systemctl reload crownpager.service || fail "systemctl reload crownpager (the action page) failed ($?)"
  reloaded_control() { journal -u crownpager.service | grep -q 'reloaded /etc/crownpager/crownpager.toml: 3 pages'; }
  wait_for 10 reloaded_control || fail "no 'reloaded /etc/crownpager/crownpager.toml: 3 pages' in the journal"
  wait_for 20 glass_is control || fail "after the reload the glass is not the action page (reference-control)"

  # The socket systemd's folder holds, for root and the group.
  if modes="$(in_machine stat -c '%A %U:%G %n' /run/crownpager "$socket" 2>&1 | tr '\n' ' ')" \
    && [ "$modes" = "drwxr-x--- crownpager:crownpager /run/crownpager srw-rw---- crownpager:crownpager $socket " ]; then
    pass "the control socket: $modes"
  else
    fail "the control socket and its folder: '$modes' (0750 and 0660, user and group crownpager, wanted)"
  fi

  # A critical notification from root, on the glass.
  if run="$(in_machine crownpager notify "$control_message" --title Smoke --priority critical 2>&1)"; then
    pass "crownpager notify --priority critical as root exited 0"
  else
    fail "crownpager notify as root: $run"
  fi
  if wait_for 20 glass_is notify; then
    pass "the glass (the trace replayed) shows the critical notification as an unconfined run does"
  else
    fail "the glass is not the notification's overlay (see $root/root/unit-check/glass and reference-notify)"; keep=1
  fi

  # The group's members may ask; others are told how to get in.
  run="$(in_machine runuser -u pager-member -- crownpager notify "Post came" --priority passive 2>&1)" \
    && state="$(in_machine runuser -u pager-member -- crownpager status 2>&1)" || state="status $?: $run"
  if [[ "$state" == *"notification shown: Smoke, 1 queued"* ]]; then
    pass "a member of group crownpager notified (passive) and asked: $(tr '\n' ' ' <<<"$state")"
  else
    fail "a member of group crownpager: $state"
  fi
  run="$(in_machine runuser -u pager-other -- crownpager status 2>&1)" && fail "a user outside the group reached the socket: $run"
  if [[ "$run" == *"join the crownpager group"* ]]; then pass "a user outside the group is refused: $run"; else fail "a user outside the group: $run"; fi

  # Kept in the state directory, and back after a restart.
  if state="$(in_machine stat -c '%a %U' /var/lib/crownpager/notifications 2>&1)" && [ "$state" = "600 crownpager" ] \
    && grep -q "$control_message" "$root/var/lib/crownpager/notifications"; then
    pass "/var/lib/crownpager/notifications keeps it: mode $state, $(wc -l <"$root/var/lib/crownpager/notifications") lines"
  else
    fail "/var/lib/crownpager/notifications: '$state' (600 crownpager, naming the notification, wanted)"
  fi
  pid="$(in_machine systemctl show -p MainPID --value crownpager.service)"
  before="$(trace_bytes)"
  in_machine systemctl restart crownpager.service || fail "systemctl restart crownpager failed ($?)"
  restarted_with_it() {
    [ "$(in_machine systemctl show -p MainPID --value crownpager.service)" != "$pid" ] && [ "$(trace_bytes)" -gt "$before" ] \
      && in_machine crownpager status 2>/dev/null | grep -q 'notification shown: Smoke, 0 queued' && glass_is notify
  }
  if wait_for 20 restarted_with_it; then
    pass "after systemctl restart the new process ($(in_machine systemctl show -p MainPID --value crownpager.service)) shows the critical notification again (the passive one is gone)"
  else
    fail "after systemctl restart: $(in_machine crownpager status 2>&1 | tr '\n' ' '), the glass is not the overlay"; keep=1
  fi

  # A press dismisses it; the next runs the action, confined, and its result shows.
  control_press || fail "could not write to the fake knob ($fake/gpio-input)"
  if wait_for 20 glass_is control; then pass "a press on the knob dismissed it: the action page shows"; else fail "a press did not dismiss the notification"; keep=1; fi
  control_press || fail "could not write to the fake knob ($fake/gpio-input)"
  if wait_for 20 glass_is action; then
    pass "the next press ran [\"/bin/echo\", \"done\"] in the service: the page shows 'exit status 0' and 'done'"
  else
    fail "the action's result is not on the glass (reference-action): $(journal -u crownpager.service | tail -n 3)"; keep=1
  fi
  [ "$control_polkit" -eq 0 ] || control_polkit_checks
  denied="$(journal -u crownpager.service | grep -Ei 'operation not permitted|permission denied|bad system call' || [ $? -eq 1 ])"
  if [ -z "$denied" ]; then pass "after the socket, the restart and the action, the journal still has nothing denied"; else fail "the journal: $denied"; fi
}

# The README's polkit rule under the unit's hardening: the service's action restarts foo.service.
control_polkit_checks() {
  local starts
  [ -s "$root/etc/polkit-1/rules.d/50-crownpager.rules" ] || fail "no polkit rule taken from README.md"
  in_machine systemctl start foo.service || fail "systemctl start foo.service failed ($?)"
  starts="$(cat "$root/var/lib/foo-starts" 2>/dev/null | wc -l)"
  timeout 5 sh -c "printf '0 17 0\n0 27 0\n0 17 1\n0 27 1\n' >'$root$fake/gpio-input'" || fail "could not turn the fake knob"
  on_restart_page() { in_machine crownpager status 2>/dev/null | grep -q 'page 2 of 3: Restart foo'; }
  wait_for 10 on_restart_page || fail "one detent did not bring the Restart foo page: $(in_machine crownpager status 2>&1 | head -n 1)"
  control_press || fail "could not write to the fake knob ($fake/gpio-input)"
  restarted_foo() { [ "$(cat "$root/var/lib/foo-starts" 2>/dev/null | wc -l)" -gt "$starts" ]; }
  if wait_for 15 restarted_foo; then
    pass "polkit: the action's systemctl restart foo.service ran from the service's sandbox ($(wc -l <"$root/var/lib/foo-starts") starts of foo.service)"
  else
    fail "polkit: the action did not restart foo.service: $(journal -b | grep -Ei 'polkit|foo.service' | tail -n 5)"
  fi
  if in_machine runuser -u crownpager -- systemctl stop foo.service 2>"$work/polkit-stop.txt"; then
    fail "polkit: the service user could stop foo.service too"
  else
    pass "polkit: the service user may not stop foo.service: $(head -n 1 "$work/polkit-stop.txt")"
  fi
}
