#!/usr/bin/env python3
"""Browsers for Scripts/bench/mirror-stress.sh: a watcher that logs when each glass event came,
and a crowd of hostile clients. Python's standard library only.

  mirror-clients.py watch PORT LOG      one /events stream; LOG gets "<CLOCK_MONOTONIC ns> <id>" a line
  mirror-clients.py crowd PORT SECONDS  100 watchers that read everything, one slow client holding
                                        half a request, a 1 MiB head every 0.5 s, and a watcher that
                                        vanishes mid-stream every 0.2 s, for SECONDS
"""
import re
import select
import socket
import sys
import time


def connect(port, request=b"GET /events HTTP/1.1\r\nHost: pager\r\n\r\n"):
    client = socket.create_connection(("127.0.0.1", port), timeout=5)
    if request:
        client.sendall(request)
    client.setblocking(False)
    return client


def watch(port, log):
    client = connect(port)
    client.setblocking(True)
    client.settimeout(None)
    pending = b""
    with open(log, "w") as out:
        while True:
            data = client.recv(65536)
            if not data:
                return
            now = time.clock_gettime_ns(time.CLOCK_MONOTONIC)
            pending += data
            # Each whole event's id, stamped when its last byte came.
            while b"\n\n" in pending:
                event, pending = pending.split(b"\n\n", 1)
                found = re.search(rb"id: (\d+)", event)
                if found:
                    out.write(f"{now} {found.group(1).decode()}\n")
                    out.flush()


def crowd(port, seconds):
    watchers = [connect(port) for _ in range(100)]
    slow = connect(port, b"GET /glass.png HT")
    end = time.monotonic() + seconds
    next_big, next_vanish = 0.0, 0.0
    received = 0
    while time.monotonic() < end:
        now = time.monotonic()
        if now >= next_big:
            next_big = now + 0.5
            big = None
            try:
                big = connect(port, None)
                big.setblocking(True)
                big.sendall(b"GET / HTTP/1.1\r\nHost: pager\r\nX-Big: " + b"a" * (1 << 20))
            except OSError:
                pass  # the server closed it mid-head, as it may
            finally:
                if big:
                    big.close()
        if now >= next_vanish:
            next_vanish = now + 0.2
            try:
                vanishing = connect(port)
            except ConnectionRefusedError:
                break  # the pager has stopped: the crowd goes too
            time.sleep(0.01)
            vanishing.close()
        readable, _, _ = select.select(watchers, [], [], 0.05)
        for watcher in readable:
            try:
                received += len(watcher.recv(65536))
            except ConnectionResetError:
                pass  # the pager stopping
    slow.close()
    print(f"crowd: {len(watchers)} watchers received {received} bytes in {seconds} s")


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "watch":
        watch(int(sys.argv[2]), sys.argv[3])
    elif len(sys.argv) == 4 and sys.argv[1] == "crowd":
        crowd(int(sys.argv[2]), float(sys.argv[3]))
    else:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
