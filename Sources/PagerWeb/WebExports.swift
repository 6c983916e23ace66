// The module's C ABI for the browser page (PagerWeb.docc/WebAssemblyABI.md): numbers in and out,
// text and pictures through two buffers in linear memory. Compiled for wasm32 only, by
// Scripts/web/build-wasm.sh; on the host the same logic is `WebPager`, which the tests drive.
// Behind a compiler check too: Swift 6.0.3 (Debian's) need not parse `@_expose(wasm, ...)`.
#if compiler(>=6.3)
    #if arch(wasm32)
        import CrownVocabulary
        import GlassViews
        import PagerConfig
        import PagerEngine
        import PagerGraphics
        import PagerSettings
        import PagerTools
        import SSD1306

        /// The module's one pager: a page has one panel. Single-threaded: WebAssembly runs on the page's thread.
        nonisolated(unsafe) private var pager = WebPager()
        /// Bytes the page writes in (a configuration, a crown script), owned by the module.
        nonisolated(unsafe) private var input = WebBuffer()
        /// Bytes the module answers with (text, a PNG, the glass), owned by the module.
        nonisolated(unsafe) private var output = WebBuffer()

        /// Memory the module owns and lends the page, grown as needed, never shrunk.
        struct WebBuffer {
            var start: UnsafeMutablePointer<UInt8>?
            var capacity = 0
            var count = 0

            /// Room for `size` bytes (their old contents not kept); the start.
            mutating func reserve(_ size: Int) -> UnsafeMutablePointer<UInt8>? {
                if size > capacity || start == nil {
                    start?.deallocate()
                    capacity = max(size, 1024)
                    start = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
                }
                count = 0
                return start
            }

            /// Holds `bytes` from now on.
            mutating func set(_ bytes: some Collection<UInt8>) {
                guard let start = reserve(bytes.count) else { return }
                var index = 0
                for byte in bytes {
                    start[index] = byte
                    index += 1
                }
                count = index
            }

            /// The first `length` bytes (at most what the buffer holds), as UTF-8 text.
            func text(_ length: Int32) -> String {
                guard let start else { return "" }
                return String(
                    decoding: UnsafeBufferPointer(start: start, count: max(0, min(Int(length), capacity))),
                    as: UTF8.self)
            }
        }

        /// Room for `size` bytes of input; returns where to write them (0 when `size` is negative or
        /// over a file's cap and 64 KiB for its name: the module's memory never shrinks).
        @_expose(wasm, "crownpager_input")
        func crownpagerInput(_ size: Int32) -> UnsafeMutablePointer<UInt8>? {
            size < 0 || Int(size) > WebFileStore.maximumFileBytes + (64 << 10) ? nil : input.reserve(Int(size))
        }

        /// Where the last answer starts.
        @_expose(wasm, "crownpager_output")
        func crownpagerOutput() -> UnsafeMutablePointer<UInt8>? { output.start }

        /// The last answer's length in bytes.
        @_expose(wasm, "crownpager_output_length")
        func crownpagerOutputLength() -> Int32 { Int32(output.count) }

        /// Reads the `length` bytes of input (UTF-8 TOML) as `crownpager check` does and, when good,
        /// runs them as `run` takes a reload (`WebPager.load`). Returns the number of mistakes (0:
        /// running); the answer is `check`'s lines, its summary or each mistake as
        /// `crownpager: crownpager.toml:LINE: key: message`.
        @_expose(wasm, "crownpager_load")
        func crownpagerLoad(_ length: Int32) -> Int32 {
            let answer = pager.load(input.text(length))
            output.set(answer.lines.joined(separator: "\n").utf8)
            if case .mistakes(let errors) = answer { return Int32(errors.errors.count) }
            return 0
        }

        /// Keeps a file the user gave the page: the input holds its name (`name_length` bytes of
        /// UTF-8; a path keeps only its last component) and then its `bytes_length` bytes. A
        /// configuration's `path`, `image` or `font` ending in that name reads it from the next
        /// `crownpager_load` on. Returns 0, or 1 when it is refused (no name, over 16 MiB, or all
        /// files over 32 MiB; nothing is kept), the answer saying why.
        @_expose(wasm, "crownpager_add_file")
        func crownpagerAddFile(_ nameLength: Int32, _ bytesLength: Int32) -> Int32 {
            guard let start = input.start, nameLength >= 0, bytesLength >= 0,
                Int(nameLength) + Int(bytesLength) <= input.capacity
            else {
                output.set("the file's name and bytes are not in the input".utf8)
                return 1
            }
            let name = input.text(nameLength)
            let bytes = Array(UnsafeBufferPointer(start: start + Int(nameLength), count: Int(bytesLength)))
            return answer { () throws(WebFileError) in try pager.addFile(name: name, bytes: bytes) }
        }

        /// Forgets every file the page was given (`crownpager_load` then finds none).
        @_expose(wasm, "crownpager_clear_files")
        func crownpagerClearFiles() { pager.removeAllFiles() }

        /// The files the page holds; the answer is their names, one a line, in the order added. Returns how many.
        @_expose(wasm, "crownpager_files")
        func crownpagerFiles() -> Int32 {
            output.set(pager.files.names.joined(separator: "\n").utf8)
            return Int32(pager.files.names.count)
        }

        /// The built-in configuration's text (`crownpager check --print-default`): the page's first text.
        /// Returns its length in bytes.
        @_expose(wasm, "crownpager_default_text")
        func crownpagerDefaultText() -> Int32 {
            output.set(Configuration.builtInText.utf8)
            return Int32(output.count)
        }

        /// The panels the program knows; the answer is their names, one a line, in the order `crownpager_choose_panel` counts.
        @_expose(wasm, "crownpager_panels")
        func crownpagerPanels() -> Int32 {
            output.set(SSD1306Panel.all.map { $0.name }.joined(separator: "\n").utf8)
            return Int32(SSD1306Panel.all.count)
        }

        /// Shows the pages on panel number `index` of `crownpager_panels` (-1: the configuration's own),
        /// from the first page. Returns 0, or 1 for an index out of range (nothing changes).
        @_expose(wasm, "crownpager_choose_panel")
        func crownpagerChoosePanel(_ index: Int32) -> Int32 {
            if index == -1 {
                pager.choose(panel: nil)
                return 0
            }
            guard SSD1306Panel.all.indices.contains(Int(index)) else { return 1 }
            pager.choose(panel: SSD1306Panel.all[Int(index)])
            return 0
        }

        /// Turns the picture by `degrees`, 0 or 180 (-1: the configuration's own). Returns 0, or 1 for other degrees.
        @_expose(wasm, "crownpager_rotate")
        func crownpagerRotate(_ degrees: Int32) -> Int32 {
            if degrees == -1 {
                pager.rotate(nil)
                return 0
            }
            guard degrees == 0 || degrees == 180 else { return 1 }
            pager.rotate(DisplayRotation(degrees: Int(degrees)))
            return 0
        }

        /// The computer's local time for clock pages from now on (weekday 0 is Sunday); command and
        /// file pages show that they run on the device.
        @_expose(wasm, "crownpager_set_clock")
        func crownpagerSetClock(
            _ year: Int32, _ month: Int32, _ day: Int32, _ hour: Int32, _ minute: Int32, _ second: Int32,
            _ weekday: Int32
        ) {
            pager.sampler.wallClock = ClockReading(
                year: Int(year), month: Int(month), day: Int(day), hour: Int(hour), minute: Int(minute),
                second: Int(second), weekday: Int(weekday))
            pager.sampler.deviceAnswer = WebPageSampler.onDevice
        }

        /// `render --frozen`'s readings from now on: 10:09:30 on 21 November 2026, `42` for commands and files.
        @_expose(wasm, "crownpager_freeze")
        func crownpagerFreeze() { pager.sampler.freeze() }

        /// Starts taking GNU Unifont's .hex text, `size` bytes in all (room is made for them at
        /// once), in parts (`crownpager_unifont_add`); a font half given is dropped. Returns 0, or
        /// 1 for a size under 0 or over 16 MiB (the answer says why).
        @_expose(wasm, "crownpager_unifont_begin")
        func crownpagerUnifontBegin(_ size: Int32) -> Int32 {
            answer { () throws(WebFileError) in try pager.beginUnifont(byteCount: Int(size)) }
        }

        /// The input's first `length` bytes are the next part of Unifont's text: kept and indexed
        /// as they come. Returns 0, or 1 when no font was begun or the parts go over 16 MiB (the
        /// font is dropped; the answer says why).
        @_expose(wasm, "crownpager_unifont_add")
        func crownpagerUnifontAdd(_ length: Int32) -> Int32 {
            guard let start = input.start, length >= 0, Int(length) <= input.capacity else {
                output.set("the part of the font is not in the input".utf8)
                return 1
            }
            return answer { () throws(WebFileError) in
                try pager.addUnifont(UnsafeBufferPointer(start: start, count: Int(length)))
            }
        }

        /// Ends Unifont's text and draws from it, from now on, the characters the other fonts lack,
        /// as `render` draws them; characters drawn as boxes before it came are redrawn (a font in
        /// place of another starts the pages afresh). Returns the number of glyphs, or -1 for text
        /// that is no .hex file (the font in use, if any, stays; the answer names the line).
        @_expose(wasm, "crownpager_unifont_end")
        func crownpagerUnifontEnd() -> Int32 {
            do throws(WebFileError) {
                let glyphs = try pager.finishUnifont()
                output.set([])
                return Int32(glyphs)
            } catch {
                output.set(error.description.utf8)
                return -1
            }
        }

        /// 0 and an empty answer when `body` succeeds; else 1, the answer saying why.
        private func answer(_ body: () throws(WebFileError) -> Void) -> Int32 {
            do throws(WebFileError) {
                try body()
            } catch {
                output.set(error.description.utf8)
                return 1
            }
            output.set([])
            return 0
        }

        /// The crown turned by `detents` (positive: towards later pages).
        @_expose(wasm, "crownpager_turn")
        func crownpagerTurn(_ detents: Int32) { pager.turn(Int(detents)) }

        /// The crown's button went down (1) or came up (0). Held 800 ms or more, it is a long press.
        @_expose(wasm, "crownpager_press")
        func crownpagerPress(_ down: Int32) { pager.press(down != 0) }

        /// Moves the pager's clock on by `milliseconds` (0 to 60,000); returns 1 when the glass changed.
        @_expose(wasm, "crownpager_advance")
        func crownpagerAdvance(_ milliseconds: Int32) -> Int32 {
            pager.advance(by: .milliseconds(Int64(max(0, min(milliseconds, 60_000))))) ? 1 : 0
        }

        /// The glass's width in pixels.
        @_expose(wasm, "crownpager_glass_width")
        func crownpagerGlassWidth() -> Int32 { Int32(pager.glass.width) }

        /// The glass's height in pixels.
        @_expose(wasm, "crownpager_glass_height")
        func crownpagerGlassHeight() -> Int32 { Int32(pager.glass.height) }

        /// The glass as the answer: width x height bytes, row by row from the top left, 1 lit, 0 dark.
        /// Returns where they start.
        @_expose(wasm, "crownpager_glass")
        func crownpagerGlass() -> UnsafeMutablePointer<UInt8>? {
            let glass = pager.glass
            guard let start = output.reserve(glass.width * glass.height) else { return nil }
            for y in 0..<glass.height {
                for x in 0..<glass.width { start[y * glass.width + x] = glass[x, y] ? 1 : 0 }
            }
            output.count = glass.width * glass.height
            return start
        }

        /// The glass as PNG bytes, as `render` writes it: each pixel `scale` (1 to 16) pixels square,
        /// lit and dark in the colours `0xRRGGBB`. Returns the length of the answer.
        @_expose(wasm, "crownpager_png")
        func crownpagerPNG(_ scale: Int32, _ lit: Int32, _ dark: Int32) -> Int32 {
            output.set(
                FrameFiles.png(
                    pager.glass, scale: Int(max(1, min(scale, 16))),
                    palette: OLEDPalette(lit: color(lit), dark: color(dark))))
            return Int32(output.count)
        }

        /// The palettes `render --palette` knows; the answer is `name #RRGGBB` (the lit colour), one a line.
        @_expose(wasm, "crownpager_palettes")
        func crownpagerPalettes() -> Int32 {
            output.set(OLEDPalette.named.map { $0.name + " " + hex($0.palette.lit) }.joined(separator: "\n").utf8)
            return Int32(OLEDPalette.named.count)
        }

        /// Runs the `length` bytes of input as a crown script (`render --crown`'s steps, or a script's
        /// lines) on the running configuration with `render --frozen`'s readings. The answer is each
        /// frame's PBM file as `render --frozen --out` writes it, one after the other; returns how many,
        /// or -1 for a script that cannot be read (the answer says why).
        @_expose(wasm, "crownpager_render")
        func crownpagerRender(_ length: Int32) -> Int32 {
            guard let script = readScript(length) else { return -1 }
            let frames = pager.render(script)
            var text: [UInt8] = []
            for frame in frames {
                text += FrameFiles.pbm(frame.glass, comment: "\(frame.name) at \(frame.time.milliseconds) ms").utf8
            }
            output.set(text)
            return Int32(frames.count)
        }

        /// Runs the `length` bytes of input as a crown script, as `crownpager_render` does, and answers
        /// its frames as the animated GIF `render --frozen --gif` writes (at their real times, at most
        /// 50 pictures a second, the last held a second): each pixel `scale` (1 to 16) square, colours
        /// `0xRRGGBB`. Returns the GIF's length, or -1 for a script that cannot be read (the answer says why).
        @_expose(wasm, "crownpager_gif")
        func crownpagerGIF(_ length: Int32, _ scale: Int32, _ lit: Int32, _ dark: Int32) -> Int32 {
            guard let script = readScript(length) else { return -1 }
            let panel = pager.running.display.panel
            var recording = GlassRecording(
                width: panel.width, height: panel.height, scale: Int(max(1, min(scale, 16))),
                palette: OLEDPalette(lit: color(lit), dark: color(dark)))
            var bytes: [UInt8] = []
            for frame in pager.render(script) { bytes += recording.add(frame.glass, at: .zero + frame.time) }
            bytes += recording.finish(at: .zero + script.duration)
            output.set(bytes)
            return Int32(output.count)
        }

        /// The crown script in the first `length` bytes of input; nil when it cannot be read, the answer saying why.
        private func readScript(_ length: Int32) -> CrownScript? {
            do throws(CrownScriptError) {
                return try CrownScript(parsing: input.text(length))
            } catch {
                output.set(error.description.utf8)
                return nil
            }
        }

        private func color(_ value: Int32) -> PNG.Color {
            PNG.Color(red: UInt8((value >> 16) & 0xFF), green: UInt8((value >> 8) & 0xFF), blue: UInt8(value & 0xFF))
        }

        private func hex(_ color: PNG.Color) -> String {
            let digits: [Character] = ["0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "A", "B", "C", "D", "E", "F"]
            var text = "#"
            for part in [color.red, color.green, color.blue] {
                text.append(digits[Int(part >> 4)])
                text.append(digits[Int(part & 0xF)])
            }
            return text
        }
    #endif
#endif
