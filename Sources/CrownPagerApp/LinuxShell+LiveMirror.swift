import CrownVocabulary
import LinuxSystem
import PagerEngine
import PagerSettings

extension LinuxShell {
    /// Listens for browsers when `[web] listen` is set. A mirror that cannot start (libmicrohttpd
    /// missing, the port taken) is a warning naming the fix: the pages are the run's work, the
    /// mirror an addition to it, as the control socket is.
    func openLiveMirror() {
        guard liveMirror == nil, let endpoint = configuration.web.endpoint else { return }
        for warning in configuration.warnings { OperatorLog.warning("crownpager: warning: \(warning)") }
        let display = configuration.display
        do throws(HTTPServerError) {
            let mirror = try LiveMirror(
                endpoint: (endpoint.address, endpoint.port), token: configuration.web.token, panel: display.panel,
                address: display.address, palette: mirrorPalette, scale: mirrorScale)
            liveMirror = mirror
            OperatorLog.info(
                "crownpager: live mirror on http://\(endpoint.description)/ (libmicrohttpd \(mirror.libraryVersion)); "
                    + (configuration.web.token == nil
                        ? "it shows the glass, no token: the crown is not turned from browsers"
                        : "the crown turns from browsers that give the token"))
        } catch {
            OperatorLog.warning("crownpager: warning: no live mirror: \(error)")
        }
    }

    /// The mirror's descriptor, for poll(2), while it listens.
    var liveMirrorDescriptors: [Int32] { liveMirror.map { [$0.descriptor] } ?? [] }

    /// Serves the browsers when `ready` marks the mirror's descriptor or its timeout came, and
    /// hands the crown's requests to the engine as the knob's facts.
    func serveLiveMirror(
        _ ready: Set<Int32>, _ engine: inout DeviceEngine, _ loop: inout LinuxShellState, at now: Timestamp
    ) throws(CrownPagerError) {
        guard let liveMirror else { return }
        let due = liveMirror.nextDeadline(after: now).map { $0 <= now } ?? false
        guard ready.contains(liveMirror.descriptor) || due else { return }
        for asked in liveMirror.serve() {
            for fact in asked.facts(at: now) { try feedCrown(fact, &engine, &loop, at: now) }
        }
    }

    /// Says that a reloaded `[web]` waits for a restart: the server is made once, at start.
    func noteLiveMirrorReload(_ fresh: Configuration) {
        guard fresh.web != configuration.web else { return }
        OperatorLog.warning("crownpager: warning: [web] changed: the live mirror keeps its settings until a restart")
    }

    /// Ends the browsers' connections and closes the socket.
    func closeLiveMirror() {
        liveMirror?.stop()
        liveMirror = nil
    }
}
