#!/usr/bin/env bash
# The live mirror ([web]) under Hardware/crownpager-web.conf.example, the part of
# Scripts/dev/unit-check.sh for issue 32: sourced by it, not run. In the container's own network
# (nsenter --net: nothing is installed into the root) its loopback also carries 192.168.1.20, the
# example's browser, and 192.168.1.30, a machine the example does not name; the host's curl asks
# from each. With [web] listen = "0.0.0.0:8080", it checks that:
#   - under the drop-in, /glass.png comes to 127.0.0.1 and to 192.168.1.20, and is a PNG;
#   - under the same drop-in, 192.168.1.30 gets nothing (IPAddressDeny=any drops its packets);
#   - under the same drop-in, a mirror on port 8081 is not bound (SocketBindDeny=any): the journal
#     says why (EPERM, and the drop-in's line to change), and the service still pages;
#   - without the drop-in 192.168.1.30 gets the glass, so the refusal was the drop-in's;
#   - systemd-analyze security scores 2.0 or under with the drop-in.
#
#   web_checks           runs the checks in the booted container (unit-check's helpers and files;
#                        security_check and invocation_lines come from unit-check-mqtt.sh)

if [ "${BASH_SOURCE[0]}" = "$0" ]; then awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0; fi

# The HTTP status of /glass.png at ADDRESS:PORT asked from SOURCE ("000" when nothing came in 3 s);
# the body goes to $work/web-glass.png.
web_status() {
  local code
  if code="$(nsenter --target "$leader" --net curl --silent --max-time 3 --interface "$1" \
    --output "$work/web-glass.png" --write-out '%{http_code}' "http://$2/glass.png")"; then
    echo "$code"
  else
    echo 000
  fi
}

# Runs the service with [web] on PORT, under the example drop-in (or none: removed).
web_run() {
  local port=$1 dropin=$2 file="$root/etc/systemd/system/crownpager.service.d/web.conf"
  { cat "$root/root/unit-check/reloaded.toml"
    printf '\n[web]\nlisten = "0.0.0.0:%s"\n' "$port"; } >"$root/etc/crownpager/crownpager.toml"
  if [ "$dropin" = none ]; then rm -f "$file"; else cp Hardware/crownpager-web.conf.example "$file"; fi
  in_machine systemctl daemon-reload
  in_machine systemctl restart crownpager.service || fail "systemctl restart crownpager ([web] on $port, drop-in: $dropin) failed ($?)"
}

web_checks() {
  local allowed status local_status other
  nsenter --target "$leader" --net sh -c 'ip addr add 192.168.1.20/32 dev lo && ip addr add 192.168.1.30/32 dev lo' \
    || { fail "could not add 192.168.1.20 and .30 in the container's network"; return; }
  allowed="$(sed -n 's/^IPAddressAllow=//p' Hardware/crownpager-web.conf.example)"
  [ "$allowed" = "localhost 192.168.1.20" ] \
    || { fail "the example drop-in allows '$allowed', not the 'localhost 192.168.1.20' these checks ask from"; return; }

  web_run 8080 example
  listening() { invocation_lines | grep -q 'crownpager: live mirror on http://0.0.0.0:8080/'; }
  served() { [ "$(web_status 192.168.1.20 192.168.1.20:8080)" = 200 ]; }
  if wait_for 15 listening && wait_for 10 served && [ "$(head -c 8 "$work/web-glass.png" | od -An -tx1 | tr -d ' ')" = 89504e470d0a1a0a ]; then
    local_status="$(web_status 127.0.0.1 127.0.0.1:8080)"
    if [ "$local_status" = 200 ]; then
      pass "under the drop-in (IPAddressDeny=any, IPAddressAllow=$allowed, SocketBindAllow=tcp:8080) the mirror serves /glass.png to 192.168.1.20 and 127.0.0.1"
    else
      fail "under the drop-in the mirror served 192.168.1.20 but not 127.0.0.1 (status $local_status)"
    fi
  else
    fail "under the drop-in the mirror did not serve 192.168.1.20 a PNG: $(invocation_lines | grep -E 'mirror|web' | tail -n 2 | tr '\n' ' ')"
  fi
  security_check "with the fake hardware's drop-in and $(basename Hardware/crownpager-web.conf.example)"

  other="$(web_status 192.168.1.30 192.168.1.20:8080)"
  if [ "$other" = 000 ]; then
    pass "under the same drop-in 192.168.1.30 gets nothing from the mirror (its packets dropped)"
  else
    fail "under the drop-in allowing 192.168.1.20 only, 192.168.1.30 was answered with status $other"
  fi

  web_run 8081 example
  refused() { invocation_lines | grep -q 'crownpager: warning: no live mirror: '; }
  # The bind's own errno (EPERM from the cgroup's filter) and the fix: libmicrohttpd's left EBADF.
  if wait_for 15 refused && is_active \
    && invocation_lines | grep 'no live mirror: ' | grep -q 'EPERM.*SocketBindAllow='; then
    pass "under the same drop-in [web] on 8081 is not bound, and the service pages on: $(invocation_lines | grep -m 1 -o 'no live mirror: .*')"
  else
    fail "under the drop-in binding 8080 only, [web] on 8081: $(invocation_lines | grep -E 'mirror' | tail -n 2 | tr '\n' ' '), active: $(is_active && echo yes || echo no)"
  fi

  web_run 8080 none
  unguarded() { [ "$(web_status 192.168.1.30 192.168.1.20:8080)" = 200 ]; }
  if wait_for 15 unguarded; then
    pass "without the drop-in 192.168.1.30 gets the glass: the refusal was the drop-in's"
  else
    fail "without the drop-in 192.168.1.30 got no glass either: $(invocation_lines | grep -E 'mirror' | tail -n 2 | tr '\n' ' ')"
  fi
  nsenter --target "$leader" --net sh -c 'ip addr del 192.168.1.20/32 dev lo && ip addr del 192.168.1.30/32 dev lo' \
    || say "could not remove 192.168.1.20 and .30"
}
