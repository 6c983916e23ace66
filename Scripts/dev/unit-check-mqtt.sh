#!/usr/bin/env bash
# The service on an MQTT broker under Hardware/crownpager-mqtt.conf.example, the part of
# Scripts/dev/unit-check.sh for issue 25: sourced by it, not run. The host's mosquitto listens
# on 127.0.0.1 and 127.0.0.2 in the container's own network (its loopback: nsenter --net, so
# nothing is installed into the root), and it checks that:
#   - under the drop-in with IPAddressAllow= the broker's 127.0.0.1, the service connects (its
#     journal says so) and the broker holds its availability `online`;
#   - under the same drop-in, a broker given as 127.0.0.2 is not reached: the journal says why,
#     and `online` never comes;
#   - without the drop-in 127.0.0.2 is reached, so the refusal was the drop-in's;
#   - systemd-analyze security scores 2.0 or under with the drop-in as without it.
# No After=network-online.target is needed for any of it: the client retries (MQTT.md).
#
#   mqtt_checks          runs the checks in the booted container (unit-check's helpers and files)
#   security_check WHAT  the exposure the container's systemd rates, 2.0 or under wanted; WHAT
#                        names the drop-ins in force for the PASS or FAIL line

if [ "${BASH_SOURCE[0]}" = "$0" ]; then awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0; fi

security_check() {
  local what=$1 security score
  security="$(in_machine systemd-analyze security --no-pager crownpager.service 2>&1)" \
    || { fail "systemd-analyze security failed ($what): $(tail -n 3 <<<"$security")"; return; }
  score="$(sed -n 's/.*Overall exposure level for crownpager.service: \([0-9.]*\).*/\1/p' <<<"$security")"
  if [ -n "$score" ] && awk -v s="$score" 'BEGIN { exit !(s <= 2.0) }'; then
    pass "systemd-analyze security crownpager.service (systemd $systemd_version, online, $what): $score"
  else
    fail "systemd-analyze security crownpager.service ($what): '${score:-no score}' (2.0 or under wanted)"
  fi
}

mqtt_base=unit/pager
# The container's network, the host's programs (mosquitto and its clients are the host's).
in_network() { nsenter --target "$leader" --net "$@"; }
# The availability the broker holds for the pager, as seen at ADDRESS ("" when none came in 3 s).
mqtt_availability() { in_network /usr/bin/mosquitto_sub -h "$1" -p 1883 -t "$mqtt_base/availability" -C 1 -W 3 2>/dev/null; }
# The current run's journal lines: those of the service's invocation now.
invocation_lines() {
  journal _SYSTEMD_INVOCATION_ID="$(in_machine systemctl show -p InvocationID --value crownpager.service)"
}

# Runs the service against the broker at ADDRESS, under the example drop-in allowing ALLOWED
# (none: the drop-in removed); the configuration is the reloaded one of unit-check with [mqtt].
mqtt_run() {
  local address=$1 allowed=$2 dropin="$root/etc/systemd/system/crownpager.service.d/mqtt.conf"
  { cat "$root/root/unit-check/reloaded.toml"
    printf '\n[mqtt]\nhost = "%s"\nport = 1883\nbase_topic = "%s"\n' "$address" "$mqtt_base"; } \
    >"$root/etc/crownpager/crownpager.toml"
  if [ "$allowed" = none ]; then
    rm -f "$dropin"
  else
    sed "s/^IPAddressAllow=.*/IPAddressAllow=$allowed/" Hardware/crownpager-mqtt.conf.example >"$dropin"
  fi
  in_machine systemctl daemon-reload
  in_machine systemctl restart crownpager.service || fail "systemctl restart crownpager ($address, allowed: $allowed) failed ($?)"
}

mqtt_checks() {
  local broker allow online reason
  printf 'listener 1883 127.0.0.1\nlistener 1883 127.0.0.2\npersistence false\nallow_anonymous true\n' >"$work/mqtt-broker.conf"
  in_network /usr/sbin/mosquitto -c "$work/mqtt-broker.conf" >"$work/mqtt-broker.log" 2>&1 &
  broker=$!
  listening() { in_network ss -Htln 'sport = :1883' | grep -q '127.0.0.2'; }
  wait_for 10 listening || { fail "mosquitto did not listen in the container's network: $(tail -n 3 "$work/mqtt-broker.log")"; return; }
  allow="$(sed -n 's/^IPAddressAllow=//p' Hardware/crownpager-mqtt.conf.example)"

  mqtt_run 127.0.0.1 127.0.0.1
  online() { [ "$(mqtt_availability "$1")" = online ]; }
  connected() { invocation_lines | grep -q 'crownpager: mqtt: connected'; }
  if wait_for 15 connected && wait_for 5 online 127.0.0.1; then
    pass "under the drop-in (IPAddressDeny=any, IPAddressAllow=127.0.0.1 for the example's $allow) the service reaches its broker at 127.0.0.1: connected, availability online"
  else
    fail "under the drop-in allowing 127.0.0.1 the service did not reach 127.0.0.1: $(invocation_lines | grep 'mqtt' | tail -n 2 | tr '\n' ' ')"
  fi
  security_check "with the fake hardware's drop-in and $(basename Hardware/crownpager-mqtt.conf.example)"

  mqtt_run 127.0.0.2 127.0.0.1
  refused() { invocation_lines | grep -q 'crownpager: mqtt: disconnected ('; }
  # Refused at once (EPERM), or, were the SYN dropped unanswered, after the 10 s connect timeout.
  wait_for 30 refused || say "no 'mqtt: disconnected' line within 30 s: $(invocation_lines | tail -n 3 | tr '\n' ' ')"
  reason="$(invocation_lines | grep -m 1 'crownpager: mqtt: disconnected (' || [ $? -eq 1 ])"
  if [ -n "$reason" ] && ! connected && ! online 127.0.0.2; then
    pass "under the same drop-in a broker at 127.0.0.2 is not reached: ${reason#crownpager: }"
  else
    fail "under the drop-in allowing 127.0.0.1 only, 127.0.0.2: '${reason:-no disconnected line}', connected: $(connected && echo yes || echo no), availability '$(mqtt_availability 127.0.0.2)'"
  fi
  # The service still runs, and pages, without its broker.
  if is_active; then pass "still active without its broker"; else fail "crownpager.service stopped without its broker"; fi

  mqtt_run 127.0.0.2 none
  if wait_for 15 connected && wait_for 5 online 127.0.0.2; then
    pass "without the drop-in the service reaches 127.0.0.2: the refusal was the drop-in's"
  else
    fail "without the drop-in the service did not reach 127.0.0.2 either: $(invocation_lines | grep 'mqtt' | tail -n 2 | tr '\n' ' ')"
  fi

  kill -TERM "$broker" 2>/dev/null || say "mosquitto (pid $broker) had gone"
  wait "$broker" || say "mosquitto ended with status $?"
}
