#!/usr/bin/env python3
"""Opens the browser page (out/web/crownpager.html) from the disk in Debian's Chromium, headless,
and drives it over the DevTools protocol as a person would, for Scripts/web/test-wasm.sh:

  1. typing a configuration with a broken key shows `crownpager check`'s own message for it, at
     its line (the line's number marked in the gutter);
  2. typing a good one (CONFIG) draws its first page: the canvas's pixels are the glass of
     `crownpager render --frozen` (the page opened with ?frozen, render's sample readings);
  3. three real wheel events over the panel turn three pages: the canvas then equals
     `render --crown "+1,+1,+1,wait 2s"`'s last frame, on two panels;
  4. with FILES_CONFIG and its FILEs: typed without the files, the page says to add the one
     missing; FILEs given to the page's Add files… input (DOM.setFileInputFiles, as a person
     picking them), the canvas is `render --frozen --config FILES_CONFIG`'s first page and its
     glass after a wheel notch (render reads the same files beside FILES_CONFIG); a file over
     16 MiB is refused with a sentence, the others kept;
  5. figures: the module's load and start time and a tick's time in Chromium;
  6. GNU Unifont: the first frame was drawn before unifont.js beside the page had loaded (text
     that needs no fallback never waits for it), and it does load; with --unicode UNICODE_CONFIG
     (pages of Hangul, CJK, Cyrillic and symbols), the canvas is render --frozen's glass, drawn
     from the same font (render reads Debian's installed unifont.hex), first, after three wheel
     notches and in the title list a long press opens, on two panels; and the same first page
     with the page served by a static server (Python's http.server) rather than opened from the
     disk, the font held back until the pages had drawn without it (DevTools' Fetch domain);
     the page copied alone, without unifont.js, starts and says that such text draws as boxes.

With --screenshot FILE it then shows the clock page on an SH1106 with blue glass and writes a
screenshot of the page (the README's picture).

  check-page.py PAGE CROWNPAGER CONFIG [FILES_CONFIG FILE...] [--unicode UNICODE_CONFIG] [--screenshot FILE]

Standard library only: a small WebSocket client speaks the protocol."""
import base64
import functools
import http.server
import json
import os
import re
import shutil
import socket
import struct
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request


def fail(message):
    print(f"check-page: {message}", file=sys.stderr)
    sys.exit(1)


class DevTools:
    """One page's DevTools WebSocket: commands sent, answers read, events set aside."""

    def __init__(self, url):
        match = re.match(r"ws://([^:/]+):(\d+)(/.*)", url)
        self.sock = socket.create_connection((match.group(1), int(match.group(2))), timeout=30)
        key = base64.b64encode(os.urandom(16)).decode()
        self.sock.sendall(
            (f"GET {match.group(3)} HTTP/1.1\r\nHost: {match.group(1)}:{match.group(2)}\r\n"
             f"Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
             "Sec-WebSocket-Version: 13\r\n\r\n").encode())
        response = b""
        while b"\r\n\r\n" not in response:
            chunk = self.sock.recv(4096)
            if not chunk:
                fail("Chromium closed the DevTools connection during the handshake")
            response += chunk
        if b" 101 " not in response.split(b"\r\n")[0]:
            fail(f"DevTools handshake refused: {response[:200]!r}")
        self.buffer = response.split(b"\r\n\r\n", 1)[1]
        self.next_id = 0
        self.events = []

    def _read(self, count):
        while len(self.buffer) < count:
            chunk = self.sock.recv(1 << 16)
            if not chunk:
                fail("Chromium closed the DevTools connection")
            self.buffer += chunk
        data, self.buffer = self.buffer[:count], self.buffer[count:]
        return data

    def _message(self):
        payload = b""
        while True:
            first, second = self._read(2)
            length = second & 0x7F
            if length == 126:
                length = struct.unpack(">H", self._read(2))[0]
            elif length == 127:
                length = struct.unpack(">Q", self._read(8))[0]
            payload += self._read(length)
            if first & 0x80:
                return json.loads(payload)

    def call(self, method, **params):
        self.next_id += 1
        data = json.dumps({"id": self.next_id, "method": method, "params": params}).encode()
        mask = os.urandom(4)
        header = bytes([0x81])
        if len(data) < 126:
            header += bytes([0x80 | len(data)])
        elif len(data) < 1 << 16:
            header += bytes([0x80 | 126]) + struct.pack(">H", len(data))
        else:
            header += bytes([0x80 | 127]) + struct.pack(">Q", len(data))
        self.sock.sendall(header + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(data)))
        while True:
            message = self._message()
            if message.get("id") == self.next_id:
                if "error" in message:
                    fail(f"{method}: {message['error']}")
                return message["result"]
            if message.get("method", "").startswith("Fetch."):
                self.events.append(message)

    def wait_event(self, method, seconds):
        """The parameters of the first event named `method` (of the Fetch domain, the one kept) that
        came, or comes within `seconds`."""
        deadline = time.monotonic() + seconds
        while True:
            for event in self.events:
                if event["method"] == method:
                    self.events.remove(event)
                    return event["params"]
            if time.monotonic() > deadline:
                fail(f"waited {seconds} s for DevTools' {method}")
            time.sleep(0.05)
            self.call("Runtime.evaluate", expression="0")  # reads the events that came meanwhile

    def evaluate(self, expression):
        result = self.call("Runtime.evaluate", expression=expression, awaitPromise=True, returnByValue=True)
        if "exceptionDetails" in result:
            fail(f"the page threw on {expression[:80]!r}: {result['exceptionDetails']}")
        return result["result"].get("value")


def render(crownpager, config, panel, crown, folder):
    """render --frozen's frames of `crown` on `panel`: the last step's glass as rows of 0 and 1."""
    subprocess.run([crownpager, "render", "--frozen", "--config", config, "--panel", panel, "--crown", crown,
                    "--no-png", "--steps-only", "--out", folder], check=True, stdout=subprocess.DEVNULL)
    last = sorted(name for name in os.listdir(folder) if re.fullmatch(r"step-\d+\.pbm", name))[-1]
    with open(os.path.join(folder, last)) as file:
        lines = [line for line in file.read().split("\n") if line and not line.startswith("#")]
    return lines[2:]


# The canvas read back as the glass: each scale x scale square's top left pixel, lit when it is the lit colour.
CANVAS_GLASS = """(() => {
  const canvas = document.getElementById("glass");
  const scale = Number(document.getElementById("scale").value);
  const data = canvas.getContext("2d").getImageData(0, 0, canvas.width, canvas.height).data;
  const rows = [];
  for (let y = 0; y < canvas.height; y += scale) {
    let row = "";
    for (let x = 0; x < canvas.width; x += scale) {
      const at = (y * canvas.width + x) * 4;
      row += data[at] + data[at + 1] + data[at + 2] > 0 ? "1" : "0";
    }
    rows.push(row);
  }
  return rows;
})()"""


def type_text(page, text):
    """Selects all of the editor's text and types `text` over it, as a person pasting would."""
    page.evaluate("document.getElementById('editor').focus(); document.getElementById('editor').select(); true")
    page.call("Input.insertText", text=text)


def wait_for(page, expression, what, seconds=10):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        value = page.evaluate(expression)
        if value:
            return value
        time.sleep(0.05)
    fail(f"waited {seconds} s for {what}")


def choose_panel(page, panel):
    """Picks `panel` in the page's Panel list, as a person would."""
    index = page.evaluate(f"window.crownpager.panels.indexOf({json.dumps(panel)})")
    page.evaluate(f"""(() => {{ const s = document.getElementById('panel'); s.value = '{index}';
        s.dispatchEvent(new Event('change')); return true; }})()""")


def glass_centre(page):
    """The middle of the panel's canvas, in the page's coordinates: where a wheel event turns the crown."""
    return page.evaluate("""(() => { const r = document.getElementById('glass').getBoundingClientRect();
        return [r.x + r.width / 2, r.y + r.height / 2]; })()""")


def settle(page, seconds=1.5):
    # The page's own clock moves the slide; real time must pass for it.
    time.sleep(seconds)
    page.evaluate("new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))")


def start_chromium(work, window="1400,900"):
    """Debian's Chromium, headless, its profile in `work`; it and its first page's DevTools."""
    chromium = shutil.which("chromium")
    if not chromium:
        fail("no chromium (package chromium): Scripts/setup.sh --web installs it")
    browser = subprocess.Popen(
        [chromium, "--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run",
         "--disable-dev-shm-usage", f"--window-size={window}", f"--user-data-dir={work}/profile",
         "--remote-debugging-port=0", "about:blank"],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    port = None
    deadline = time.monotonic() + 60
    while port is None and time.monotonic() < deadline:
        line = browser.stderr.readline()
        if not line and browser.poll() is not None:
            fail(f"chromium exited with status {browser.returncode} before listening")
        match = re.search(r"DevTools listening on ws://[^:]+:(\d+)/", line)
        if match:
            port = int(match.group(1))
    if port is None:
        fail("chromium did not say where DevTools listens within 60 s")
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list") as answer:
        target = next(t for t in json.load(answer) if t["type"] == "page")
    return browser, DevTools(target["webSocketDebuggerUrl"])


def stop_chromium(browser):
    """Ends the browser, killing it if it does not go within 10 s."""
    browser.terminate()
    try:
        browser.wait(timeout=10)
    except subprocess.TimeoutExpired:
        browser.kill()
        browser.wait()


def main():
    arguments = sys.argv[1:]
    options = {}
    for option in ["--screenshot", "--unicode"]:
        if option in arguments:
            at = arguments.index(option)
            options[option] = os.path.abspath(arguments[at + 1])
            del arguments[at:at + 2]
    screenshot = options.get("--screenshot")
    if len(arguments) < 3 or len(arguments) == 4:
        fail("usage: check-page.py PAGE CROWNPAGER CONFIG [FILES_CONFIG FILE...] [--unicode UNICODE_CONFIG] "
             "[--screenshot FILE]")
    page_path, crownpager, config, *with_files = (os.path.abspath(argument) for argument in arguments)
    work = tempfile.mkdtemp(prefix="crownpager-page-")
    browser = None
    try:
        browser, page = start_chromium(work)
        page.call("Page.enable")
        page.call("Page.navigate", url="file://" + page_path + "?frozen")
        wait_for(page, "window.crownpager !== undefined", "the engine to start")
        loaded = page.evaluate("window.crownpager.loaded")
        check_font_loads(page)

        # 1. A broken key: check's message at its line.
        broken = "[display]\nbrightness = 80\npanel = \"ssd1306-128x65\"\n"
        type_text(page, broken)
        shown = wait_for(page, """(() => { const m = [...document.querySelectorAll('#messages li.bad')];
            return m.length ? m.map((li) => li.textContent) : null; })()""", "check's message")
        checked = subprocess.run([crownpager, "check", "crownpager.toml"], cwd=write(work, "crownpager.toml", broken),
                                 capture_output=True, text=True)
        expected = [line for line in checked.stderr.split("\n") if line]
        if checked.returncode == 0 or shown != expected:
            fail(f"the page shows {shown}, crownpager check says {expected} (status {checked.returncode})")
        marked = page.evaluate("[...document.querySelectorAll('#gutter .bad')].map((s) => Number(s.textContent))")
        if marked != [3]:
            fail(f"the gutter marks lines {marked}, not line 3 of the broken key")
        print(f"check-page: a broken key shows check's message at its line: {shown[0]}")

        # 2. and 3. A good configuration, then three wheel notches, on two panels.
        with open(config) as file:
            type_text(page, file.read())
        wait_for(page, "document.querySelector('#messages li.ok') !== null", "the configuration to check good")
        for panel in ["128x64", "sh1107-64x128"]:
            choose_panel(page, panel)
            settle(page, 0.5)
            first = render(crownpager, config, panel, "wait 1s", os.path.join(work, panel + "-first"))
            if page.evaluate(CANVAS_GLASS) != first:
                fail(f"{panel}: the canvas is not render's first page")
            box = glass_centre(page)
            for _ in range(3):
                page.call("Input.dispatchMouseEvent", type="mouseWheel", x=box[0], y=box[1], deltaX=0, deltaY=100)
                time.sleep(0.25)
            settle(page)
            turned = render(crownpager, config, panel, "+1,+1,+1,wait 2s", os.path.join(work, panel + "-turned"))
            canvas = page.evaluate(CANVAS_GLASS)
            if canvas != turned:
                differing = sum(a != b for row, other in zip(canvas, turned) for a, b in zip(row, other))
                fail(f"{panel}: after three wheel notches the canvas differs from render's in {differing} pixels")
            print(f"check-page: {panel}: the canvas is render --frozen's glass, first and after three wheel notches")
        tick = page.evaluate("window.crownpager.tickMilliseconds()")
        print(f"check-page: Chromium {page.call('Browser.getVersion')['product']}: loaded and started in "
              f"{loaded:.0f} ms, {tick:.3f} ms a tick on average")
        if screenshot:
            # The README's picture: the clock page on a 1.3" SH1106 with blue glass.
            index = page.evaluate("window.crownpager.panels.indexOf('sh1106-128x64')")
            page.evaluate(f"""(() => {{ const s = document.getElementById('panel'); s.value = '{index}';
                s.dispatchEvent(new Event('change')); const p = document.getElementById('palette');
                p.value = p.options[1].value; p.dispatchEvent(new Event('change')); return true; }})()""")
            settle(page, 0.5)
            box = glass_centre(page)
            page.call("Input.dispatchMouseEvent", type="mouseWheel", x=box[0], y=box[1], deltaX=0, deltaY=100)
            settle(page)
            shot = page.call("Page.captureScreenshot", format="png")
            with open(screenshot, "wb") as file:
                file.write(base64.b64decode(shot["data"]))
            print(f"check-page: wrote {screenshot}")
        # After the picture, which shows CONFIG's clock page.
        if with_files:
            check_files(page, crownpager, with_files[0], with_files[1:], work)
        if "--unicode" in options:
            check_unicode(page, crownpager, options["--unicode"], work)
            check_served(page, page_path, crownpager, options["--unicode"], work)
            check_alone(page, page_path, work)
    finally:
        if browser is not None:
            stop_chromium(browser)
        shutil.rmtree(work, ignore_errors=True)


def check_files(page, crownpager, config, files, work):
    """Step 4: the files a configuration names, given through the page's file input."""
    panel = "128x64"
    choose_panel(page, panel)
    with open(config) as file:
        type_text(page, file.read())
    missing = os.path.basename(files[0])
    shown = wait_for(page, """(() => { const m = [...document.querySelectorAll('#messages li.bad')];
        return m.length ? m.map((li) => li.textContent) : null; })()""", "the message for the missing files")
    wanted = f"add {missing} to the page (Add files…)"
    if not any(wanted in line for line in shown):
        fail(f"without its files the page shows {shown}, none saying '{wanted}'")
    print(f"check-page: without its files the page says: {shown[0]}")
    found = page.call("Runtime.evaluate", expression="document.getElementById('files')")
    page.call("DOM.enable")
    page.call("DOM.setFileInputFiles", files=files, objectId=found["result"]["objectId"])
    names = [os.path.basename(path) for path in files]
    held = json.dumps(json.dumps(names, separators=(",", ":")))
    wait_for(page, f"JSON.stringify(window.crownpager.files()) === {held}",
             f"the page to hold {names}")
    wait_for(page, "document.querySelector('#messages li.ok') !== null && "
             "document.querySelector('#messages li.bad') === null", "the configuration to check good with its files")
    listed = page.evaluate("document.getElementById('fileList').textContent")
    if not all(name in listed for name in names):
        fail(f"the page lists '{listed}', not all of {names}")
    settle(page, 0.5)
    first = render(crownpager, config, panel, "wait 1s", os.path.join(work, "files-first"))
    canvas = page.evaluate(CANVAS_GLASS)
    if canvas != first:
        differing = sum(a != b for row, other in zip(canvas, first) for a, b in zip(row, other))
        fail(f"with its files the canvas differs from render's first page in {differing} pixels")
    box = glass_centre(page)
    page.call("Input.dispatchMouseEvent", type="mouseWheel", x=box[0], y=box[1], deltaX=0, deltaY=100)
    settle(page)
    turned = render(crownpager, config, panel, "+1,wait 2s", os.path.join(work, "files-turned"))
    if page.evaluate(CANVAS_GLASS) != turned:
        fail("with its files, after a wheel notch the canvas differs from render's")
    print(f"check-page: {', '.join(names)} given through Add files…: the canvas is render --frozen's glass, "
          "first and after a wheel notch")
    # A file over the 16 MiB a file may hold is refused with a sentence, and the others stay.
    huge = os.path.join(work, "huge.bdf")
    with open(huge, "wb") as file:
        file.truncate((16 << 20) + 1)
    page.call("DOM.setFileInputFiles", files=[huge], objectId=found["result"]["objectId"])
    refused = wait_for(page, "document.getElementById('fileProblems').textContent", "the page to refuse a 16 MiB file")
    if not refused.startswith("huge.bdf is 16777217 bytes: a file may hold at most 16777216 bytes"):
        fail(f"a file over 16 MiB was answered '{refused}'")
    if page.evaluate("window.crownpager.files()") != names:
        fail("a file refused changed the files the page holds")
    print(f"check-page: a file over the cap: {refused}")


def check_font_loads(page):
    """Step 6, first part: the page drew before GNU Unifont came, and then it came."""
    first = page.evaluate("window.crownpager.firstFrame()")
    if first is None or first["unifont"] == "loaded":
        fail(f"the first frame waited for GNU Unifont (drawn with the font {first and first['unifont']})")
    state = wait_for(page, """(() => { const u = window.crownpager.unifont;
        return u.state === "loaded" || u.state === "failed" ? u : null; })()""", "GNU Unifont to load", 60)
    if state["state"] != "loaded":
        fail(f"GNU Unifont did not load: {state['problem']}")
    print(f"check-page: the first frame was drawn {first['at']:.0f} ms after the page began, the font "
          f"{first['unifont']} (linear memory {first['memoryKiB']} KiB); GNU Unifont then loaded in "
          f"{state['milliseconds']:.0f} ms ({state['glyphs']} glyphs, {state['bytes']} bytes; linear memory "
          f"{page.evaluate('window.crownpager.memoryKiB()')} KiB)")


def expect_canvas(page, crownpager, config, panel, crown, folder, what):
    """Fails unless the canvas is render --frozen's last step of `crown` on `panel`."""
    expected = render(crownpager, config, panel, crown, folder)
    canvas = page.evaluate(CANVAS_GLASS)
    if canvas != expected:
        differing = sum(a != b for row, other in zip(canvas, expected) for a, b in zip(row, other))
        fail(f"{what}: the canvas differs from render's in {differing} pixels")


def check_unicode(page, crownpager, config, work):
    """Step 6: pages only GNU Unifont draws, as render draws them, from the disk."""
    with open(config) as file:
        type_text(page, file.read())
    wait_for(page, "document.querySelector('#messages li.ok') !== null && "
             "document.querySelector('#messages li.bad') === null", "the Unicode configuration to check good")
    for panel in ["128x64", "128x32"]:
        choose_panel(page, panel)
        settle(page, 0.5)
        folder = os.path.join(work, "unicode-" + panel)
        expect_canvas(page, crownpager, config, panel, "wait 1s", folder + "-first", f"{panel}: Hangul")
        box = glass_centre(page)
        for _ in range(3):
            page.call("Input.dispatchMouseEvent", type="mouseWheel", x=box[0], y=box[1], deltaX=0, deltaY=100)
            time.sleep(0.25)
        settle(page)
        expect_canvas(page, crownpager, config, panel, "+1,+1,+1,wait 2s", folder + "-turned",
                      f"{panel}: after three wheel notches")
        page.evaluate("document.getElementById('longPress').click(); true")
        settle(page, 2.5)
        expect_canvas(page, crownpager, config, panel, "+1,+1,+1,long-press,wait 2s", folder + "-list",
                      f"{panel}: the title list")
        print(f"check-page: {panel}: Hangul, CJK, Cyrillic and symbols are render --frozen's glyphs from GNU "
              "Unifont: first page, after three wheel notches and in the title list")


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *arguments):
        pass


def check_served(page, page_path, crownpager, config, work):
    """Step 6, last part: served by a static server, the font held back until the pages drew without it."""
    folder = os.path.dirname(page_path)
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(QuietHandler, directory=folder))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        page.call("Fetch.enable", patterns=[{"urlPattern": "*unifont.js*", "requestStage": "Request"}])
        url = f"http://127.0.0.1:{server.server_address[1]}/{os.path.basename(page_path)}?frozen"
        page.call("Page.navigate", url=url)
        paused = page.wait_event("Fetch.requestPaused", 30)
        wait_for(page, "window.crownpager !== undefined && window.crownpager.unifont.state === 'loading'",
                 "the served page to start and ask for its font")
        with open(config) as file:
            type_text(page, file.read())
        wait_for(page, "document.querySelector('#messages li.ok') !== null", "the Unicode configuration to check good")
        choose_panel(page, "128x64")
        settle(page, 0.5)
        expected = render(crownpager, config, "128x64", "wait 1s", os.path.join(work, "served"))
        if page.evaluate(CANVAS_GLASS) == expected:
            fail("served, the canvas showed the Hangul page's glyphs before GNU Unifont came")
        page.call("Fetch.continueRequest", requestId=paused["requestId"])
        page.call("Fetch.disable")
        wait_for(page, "window.crownpager.unifont.state === 'loaded'", "the served page's font", 60)
        settle(page, 0.5)
        expect_canvas(page, crownpager, config, "128x64", "wait 1s", os.path.join(work, "served-late"),
                      "served, the font come after the pages drew")
        print(f"check-page: served by http.server ({url}): the Hangul page drew boxes while unifont.js was held "
              "back, and render --frozen's glyphs once it came")
    finally:
        server.shutdown()
        server.server_close()


def check_alone(page, page_path, work):
    """Step 6, the page without its font: it runs, and says what draws as boxes and why."""
    alone = os.path.join(work, "alone")
    os.makedirs(alone)
    shutil.copy(page_path, alone)
    page.call("Page.navigate", url="file://" + os.path.join(alone, os.path.basename(page_path)) + "?frozen")
    state = wait_for(page, """(() => { const u = window.crownpager && window.crownpager.unifont;
        return u && u.state !== "loading" ? u.state : null; })()""", "the page alone to give up its font")
    said = page.evaluate("document.getElementById('fontProblem').textContent")
    if state != "failed" or not said.startswith("unifont.js is not beside the page: characters the built-in fonts"):
        fail(f"without unifont.js the font is '{state}' and the page says '{said}'")
    if page.evaluate("document.querySelector('#messages li.ok') === null"):
        fail("without unifont.js the built-in configuration did not check good")
    print(f"check-page: the page alone, without unifont.js, runs and says: {said}")


def write(folder, name, text):
    with open(os.path.join(folder, name), "w") as file:
        file.write(text)
    return folder


if __name__ == "__main__":
    main()
