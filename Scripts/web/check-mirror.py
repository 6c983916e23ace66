#!/usr/bin/env python3
"""Opens the live mirror's page (`crownpager run` with [web]) in Debian's Chromium, headless, and
drives it over the DevTools protocol as a person would, for the end-to-end test
LiveMirrorEndToEndTests:

  1. the page draws the glass the stream sends (window.crownpager.mirror, and the canvas's pixels);
  2. with the token after # in the address, one real wheel event over the panel turns the device's
     crown: the page's glass changes, then settles.

It prints two lines for the test to compare with the panel: `first <base64>` and `turned <base64>`,
each the glass's bytes (GDDRAM layout) as the page holds them once it stopped changing, and
`canvas ok` when the canvas's pixels are those bytes drawn.

  check-mirror.py URL TOKEN

Standard library only: Scripts/web/check-page.py's DevTools client and Chromium start."""
import importlib.util
import os
import shutil
import sys
import tempfile
import time

here = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("check_page", os.path.join(here, "check-page.py"))
check_page = importlib.util.module_from_spec(spec)
spec.loader.exec_module(check_page)

# Deadlines, not pauses: the page answers in well under a second alone, but the test suite runs
# this beside hundreds of other tests on two cores, where 10 s is no safe bound for a cold Chromium.
WAIT = 60

# The glass the page holds, once no new picture came for 1 s: its bytes in base64.
SETTLED = """new Promise((done) => {
  const m = window.crownpager.mirror;
  let seen = m.sequence, since = performance.now();
  const look = () => {
    if (m.sequence !== seen) { seen = m.sequence; since = performance.now(); }
    if (seen > 0 && performance.now() - since > 1000) {
      done(btoa(String.fromCharCode(...m.bytes)));
    } else { setTimeout(look, 50); }
  };
  look();
})"""

# Whether the canvas shows the held bytes: each glass pixel's centre, lit or dark as the bytes say.
CANVAS_MATCHES = """(() => {
  const m = window.crownpager.mirror, canvas = document.getElementById('glass');
  const scale = canvas.width / m.width, pixels = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
  const dark = pixels.slice(0, 3).join();
  for (let y = 0; y < m.height; y++) for (let x = 0; x < m.width; x++) {
    const on = (m.bytes[(y >> 3) * m.width + x] >> (y & 7)) & 1;
    const at = ((y * scale + (scale >> 1)) * canvas.width + x * scale + (scale >> 1)) * 4;
    const lit = pixels.slice(at, at + 3).join() !== dark;
    if (on !== (lit ? 1 : 0) && !(x === 0 && y === 0)) return false;
  }
  return true;
})()"""


def main():
    if len(sys.argv) != 3:
        check_page.fail("usage: check-mirror.py URL TOKEN")
    url, token = sys.argv[1], sys.argv[2]
    work = tempfile.mkdtemp(prefix="crownpager-mirror-")
    browser = None
    try:
        browser, page = check_page.start_chromium(work, window="800,600")
        page.call("Page.enable")
        page.call("Page.navigate", url=f"{url}#{token}")
        check_page.wait_for(page, "window.crownpager && window.crownpager.mirror.sequence > 0", "the first glass", WAIT)
        first = page.evaluate(SETTLED)
        print(f"first {first}")
        if not page.evaluate(CANVAS_MATCHES):
            check_page.fail("the canvas does not show the glass the stream sent")
        before = page.evaluate("window.crownpager.mirror.sequence")
        box = page.evaluate("""(() => { const r = document.getElementById('glass').getBoundingClientRect();
            return [r.x + r.width / 2, r.y + r.height / 2]; })()""")
        page.call("Input.dispatchMouseEvent", type="mouseWheel", x=box[0], y=box[1], deltaX=0, deltaY=100)
        check_page.wait_for(page, f"window.crownpager.mirror.sequence > {before}", "the glass to follow the wheel", WAIT)
        turned = page.evaluate(SETTLED)
        print(f"turned {turned}")
        if not page.evaluate(CANVAS_MATCHES):
            check_page.fail("after the wheel, the canvas does not show the glass the stream sent")
        print("canvas ok")
    finally:
        if browser is not None:
            check_page.stop_chromium(browser)
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
