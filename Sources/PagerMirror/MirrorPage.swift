/// The live mirror's page (`GET /`): the browser page's panel (PagerWeb.docc/BrowserPage.md)
/// without the engine and the editor, fed by the device's glass over Server-Sent Events. With the
/// token after `#` in the address, the wheel, a drag, the keys and the button turn and press the
/// device's crown. Plain JavaScript, no framework; everything in one response.
package enum MirrorPage {
    /// The page for a glass lit in `lit` on `dark` (`#RRGGBB`), each pixel `scale` screen pixels.
    package static func html(lit: String, dark: String, scale: Int = 4) -> String {
        filled(template, ["@LIT@": lit, "@DARK@": dark, "@SCALE@": "\(scale)"])
    }

    /// `text` with each `@NAME@` of `values` replaced, byte by byte: `String.replacing` comes from
    /// the string-processing module, which Embedded Swift lacks (`Scripts/dev/check-embedded.sh`).
    package static func filled(_ text: String, _ values: [String: String]) -> String {
        let bytes = Array(text.utf8)
        var page: [UInt8] = []
        page.reserveCapacity(bytes.count)
        var index = 0
        scan: while index < bytes.count {
            if bytes[index] == UInt8(ascii: "@") {
                for (marker, value) in values {
                    let name = Array(marker.utf8)
                    if bytes[index...].starts(with: name) {
                        page += value.utf8
                        index += name.count
                        continue scan
                    }
                }
            }
            page.append(bytes[index])
            index += 1
        }
        return String(decoding: page, as: UTF8.self)
    }

    static let template = #"""
        <!doctype html>
        <!-- CrownPager's live mirror: the device's glass as it changes (GET /events), /glass.png, and with
             the token after # in the address, the crown (POST /crown). CrownPagerApp.docc/LiveMirror.md. -->
        <html lang="en">
          <head>
            <meta charset="utf-8" />
            <meta name="viewport" content="width=device-width, initial-scale=1" />
            <title>CrownPager: live mirror</title>
            <style>
              body { margin: 0; font: 14px/1.4 system-ui, sans-serif; background: #1d1f21; color: #ddd; }
              header { padding: 8px 16px; background: #111; }
              header h1 { font-size: 16px; margin: 0; display: inline; }
              header span { color: #999; margin-left: 12px; }
              main { padding: 16px; }
              #bezel { display: inline-block; padding: 14px; background: #000; border-radius: 8px; border: 2px solid #333; }
              #glass { display: block; image-rendering: pixelated; outline: none; touch-action: none; }
              #glass.crown { cursor: ns-resize; }
              #glass:focus { box-shadow: 0 0 0 2px #4a90d9; }
              #state, #hint { color: #999; margin-top: 8px; max-width: 560px; }
              button { font: inherit; background: #2a2c2e; color: #eee; border: 1px solid #555; border-radius: 4px; }
            </style>
          </head>
          <body>
            <header><h1>CrownPager</h1><span>the device's glass, live</span></header>
            <main>
              <div id="bezel"><canvas id="glass" tabindex="0" aria-label="the device's panel"></canvas></div>
              <p id="state" aria-live="polite">connecting…</p>
              <p id="hint"></p>
              <p><a href="glass.png" download="crownpager-glass.png"><button>PNG</button></a></p>
            </main>
            <script>
              "use strict";
              const lit = "@LIT@", dark = "@DARK@", scale = @SCALE@;
              const canvas = document.getElementById("glass");
              const context = canvas.getContext("2d");
              const token = decodeURIComponent(location.hash.slice(1));
              const mirror = { sequence: 0, width: 0, height: 0, bytes: new Uint8Array(0), received: 0 };
              window.crownpager = { mirror };
              const rgb = (hex) => [1, 3, 5].map((at) => parseInt(hex.slice(at, at + 2), 16));
              const [litColour, darkColour] = [rgb(lit), rgb(dark)];
              // The glass's bytes are GDDRAM's: pages of 8 rows, a byte per column, bit 0 at the top.
              function draw() {
                const { width, height, bytes } = mirror;
                if (canvas.width !== width * scale) { canvas.width = width * scale; canvas.height = height * scale; }
                const image = context.createImageData(width * scale, height * scale);
                for (let y = 0; y < height * scale; y++) {
                  for (let x = 0; x < width * scale; x++) {
                    const gx = Math.floor(x / scale), gy = Math.floor(y / scale);
                    const on = (bytes[(gy >> 3) * width + gx] >> (gy & 7)) & 1;
                    const colour = on ? litColour : darkColour, at = (y * width * scale + x) * 4;
                    image.data[at] = colour[0]; image.data[at + 1] = colour[1]; image.data[at + 2] = colour[2];
                    image.data[at + 3] = 255;
                  }
                }
                context.putImageData(image, 0, 0);
              }
              const events = new EventSource("events");
              events.addEventListener("glass", (event) => {
                const [width, height, data] = event.data.split(" ");
                mirror.width = Number(width); mirror.height = Number(height);
                mirror.bytes = Uint8Array.from(atob(data), (character) => character.charCodeAt(0));
                mirror.sequence = Number(event.lastEventId); mirror.received = performance.now();
                draw();
                document.getElementById("state").textContent = "live";
              });
              events.onerror = () => { document.getElementById("state").textContent = "reconnecting…"; };
              // The crown: each turn or press is one POST; the device's engine decides what it means.
              function crown(query) {
                fetch("crown?" + query, { method: "POST", headers: { Authorization: "Bearer " + token } })
                  .then((answer) => answer.ok || answer.text().then((text) => {
                    document.getElementById("state").textContent = text; }));
              }
              if (token) {
                canvas.classList.add("crown");
                document.getElementById("hint").textContent =
                  "Turn the device's crown with the mouse wheel over the panel, a drag, or the arrow keys; " +
                  "hold the mouse button or Enter to press.";
                let wheel = 0;
                canvas.addEventListener("wheel", (event) => {
                  event.preventDefault();
                  wheel += event.deltaY / (event.deltaMode === 1 ? 3 : 100);
                  const detents = Math.max(-8, Math.min(8, Math.trunc(wheel)));
                  wheel -= detents;
                  if (detents !== 0) crown("turn=" + detents);
                }, { passive: false });
                // A drag turns; a click presses; a hold (300 ms without moving) holds the button down.
                let dragFrom = null, moved = false, held = false, holdTimer = 0;
                canvas.addEventListener("pointerdown", (event) => {
                  canvas.focus(); canvas.setPointerCapture(event.pointerId);
                  dragFrom = event.clientY; moved = false; held = false;
                  holdTimer = setTimeout(() => { if (!moved) { held = true; crown("button=down"); } }, 300);
                });
                canvas.addEventListener("pointermove", (event) => {
                  if (dragFrom === null) return;
                  const detents = Math.trunc((event.clientY - dragFrom) / 24);
                  if (detents !== 0) { moved = true; dragFrom += detents * 24; crown("turn=" + detents); }
                });
                canvas.addEventListener("pointerup", () => {
                  clearTimeout(holdTimer); dragFrom = null;
                  if (held) crown("button=up"); else if (!moved) crown("button=press");
                });
                canvas.addEventListener("keydown", (event) => {
                  if (event.repeat) return;
                  const keys = { ArrowDown: "turn=1", j: "turn=1", ArrowUp: "turn=-1", k: "turn=-1", Enter: "button=down" };
                  if (keys[event.key]) { event.preventDefault(); crown(keys[event.key]); }
                });
                canvas.addEventListener("keyup", (event) => { if (event.key === "Enter") crown("button=up"); });
              } else {
                document.getElementById("hint").textContent =
                  "This mirror shows the glass. With the token after # in the address, the crown turns too.";
              }
            </script>
          </body>
        </html>
        """#
}
