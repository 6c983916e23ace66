import CrownVocabulary
import GlassViews
import LinuxSystem
import PagerGraphics
import PagerMirror
import SSD1306

/// `[web]`: the live mirror's I/O. It keeps an emulator of its own fed the records the panel
/// accepted (as `GlassRecorder` does), so it shows a real panel's glass as faithfully as the
/// mock's, and serves it over HTTP on libmicrohttpd: the page, `/glass.png`, the glass's events,
/// and the crown's requests, which it keeps for the run loop to hand the engine.
///
/// What to answer, what each stream is sent and what a crown request means are decided by
/// PagerMirror's `MirrorRouter` and `MirrorFeed`; this class only carries them out.
package final class LiveMirror {
    private var server: HTTPServer?
    private var emulator: SSD1306Emulator
    private var feed = MirrorFeed()
    private let router: MirrorRouter
    private let palette: OLEDPalette
    private let scale: Int
    private let page: [UInt8]
    /// The newest glass as PNG, made when first asked for, and its glass's number.
    private var png: (sequence: Int, bytes: [UInt8])?
    /// The crown's requests since the loop last took them, in order.
    private var crown: [MirrorCrown] = []
    /// Streams were woken and the server has not run since: libmicrohttpd carries out a resume at
    /// its next run, and in its external mode nothing on its descriptor says so.
    private var woken = false
    /// The server's descriptor, to poll for reading.
    package var descriptor: Int32 { server?.descriptor ?? -1 }
    /// The library's version.
    package var libraryVersion: String { server?.libraryVersion ?? "" }

    /// The most connections at once: a few browsers and scripts; more are refused by the library.
    package static let connectionLimit = 128
    /// A connection idle this long is closed (a stream that sleeps is not idle).
    static let idleSeconds = 30
    /// The bytes a request's head may take: a longer one (a 1 MB header) is answered 431.
    static let headBytes = 16 * 1024

    /// A mirror of `panel` listening on `endpoint`, letting `token` turn the crown; its PNGs and
    /// page in `palette`, each pixel `scale` pixels. Throws when libmicrohttpd is missing or the
    /// address is refused.
    package init(
        endpoint: (address: String, port: Int), token: String?, panel: SSD1306Panel, address: I2CAddress,
        palette: OLEDPalette, scale: Int
    ) throws(HTTPServerError) {
        emulator = SSD1306Emulator(panel: panel, address: address)
        router = MirrorRouter(token: token)
        self.palette = palette
        self.scale = scale
        page = Array(MirrorPage.html(lit: palette.lit.hex, dark: palette.dark.hex, scale: scale).utf8)
        server = try HTTPServer(
            address: endpoint.address, port: endpoint.port, connections: Self.connectionLimit,
            idleSeconds: Self.idleSeconds, headBytes: Self.headBytes,
            handler: { [unowned self] in self.answer($0) },
            reader: { [unowned self] stream, capacity in
                guard let bytes = self.feed.read(stream, capacity: capacity) else { return .end }
                return bytes.isEmpty ? .nothing : .bytes(bytes)
            },
            closed: { [unowned self] in self.feed.close($0) })
    }

    deinit { stop() }

    /// Takes the display records the panel accepted; wakes the streams when the glass changed.
    package func take(_ records: DisplayBatch) {
        guard !records.isEmpty, server != nil else { return }
        emulator.send(records)
        guard feed.update(emulator.glass), let server else { return }
        server.wake()
        woken = true
    }

    /// When the server must run without input, from `now`: at once after a wake; nil: only on input.
    package func nextDeadline(after now: Timestamp) -> Timestamp? {
        woken ? now : server?.nextDeadline(after: now)
    }

    /// Serves what is ready; returns the crown's requests that came, for the engine.
    package func serve() -> [MirrorCrown] {
        woken = false
        server?.run()
        defer { crown = [] }
        return crown
    }

    /// Closes every connection and the socket.
    package func stop() {
        server?.stop()
        server = nil
    }

    /// Carries out the router's answer to `request`.
    private func answer(_ request: HTTPRequest) {
        let decided = router.answer(
            MirrorRequest(
                method: request.method, path: request.path, authorization: request.header("Authorization"),
                turn: request.argument("turn"), button: request.argument("button")))
        switch decided {
        case .page:
            request.respond(status: 200, contentType: "text/html; charset=utf-8", body: page)
        case .glassPNG:
            request.respond(status: 200, contentType: "image/png", body: glassPNG())
        case .events:
            let stream = feed.open()
            if !request.stream(stream, contentType: "text/event-stream") { feed.close(stream) }
        case .crown(let asked):
            crown.append(asked)
            request.respond(status: 204, contentType: "text/plain", body: [])
        case .refused(let status, let reason):
            request.respond(
                status: status, contentType: "text/plain; charset=utf-8", body: Array(reason.utf8),
                header: decided.extraHeader)
        }
    }

    /// The newest glass as PNG (the emulator's power-up glass before the first frame).
    private func glassPNG() -> [UInt8] {
        if let png, png.sequence == feed.sequence { return png.bytes }
        let bytes = FrameFiles.png(feed.glass ?? emulator.glass, scale: scale, palette: palette)
        png = (feed.sequence, bytes)
        return bytes
    }
}

extension PNG.Color {
    /// `#RRGGBB`, for the page's canvas.
    var hex: String {
        "#" + [red, green, blue].map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    }
}
