import CrownVocabulary
import LinuxSystem
import PagerControl
import PagerEngine

extension LinuxShell {
    /// Listens on `controlSocketPath`, if one is given; a socket that cannot be made is a warning:
    /// the pages are the run's work, the socket an addition to it.
    func openControl() {
        guard let path = controlSocketPath, control == nil else { return }
        do throws(ControlSocketError) {
            let listener = try ControlListener(path: path)
            if let warning = listener.groupWarning { OperatorLog.warning("crownpager: warning: \(warning)") }
            control = ControlServer(listener: listener)
        } catch {
            OperatorLog.warning("crownpager: warning: no control socket: \(error)")
        }
    }

    /// Carries out the requests of the control connections `ready` marks, and closes stalled ones.
    func serveControl(
        _ ready: Set<Int32>, _ engine: inout DeviceEngine, _ loop: inout LinuxShellState, at now: Timestamp
    ) throws(CrownPagerError) -> Bool {
        guard let control else { return false }
        var drew = false
        for request in control.serve(ready: ready, at: now) {
            switch request.request {
            case .failure(let error):
                control.answer(error.response, to: request.client)
            case .success(.notify(let notification)):
                drew =
                    try perform(
                        engine.handle(.notify(PagerNotification(notification)), at: now), &engine, &loop, at: now)
                    || drew
                control.answer(.done, to: request.client)
            case .success(.status):
                var status = Self.status(of: engine)
                status.mqtt = mqtt?.client.state.description ?? ""
                control.answer(.ok(status.fields), to: request.client)
            case .success(.control(let command)):
                // The engine decides, and answers with the client's reply id.
                drew =
                    try perform(
                        engine.handle(.control(command, reply: request.client), at: now), &engine, &loop, at: now)
                    || drew
            }
        }
        control.expire(at: now)
        return drew
    }

    /// What `crownpager status` tells of `engine`.
    static func status(of engine: DeviceEngine) -> ControlStatus {
        let snapshot = engine.snapshot
        return ControlStatus(
            page: snapshot.page + 1, pageCount: snapshot.pageCount, title: snapshot.title,
            screen: "\(snapshot.screen)", displayLost: snapshot.displayLost,
            notification: snapshot.notification.map { $0.title ?? $0.message } ?? "",
            queuedNotifications: snapshot.notificationsQueued, titles: engine.pageTitles,
            stalePages: engine.stalePages.map { $0 + 1 })
    }
}

extension PagerNotification {
    /// The notification a `notify` request asks for.
    init(_ request: ControlNotification) {
        self.init(
            message: request.message, title: request.title, priority: request.priority,
            timeout: request.timeoutMilliseconds.map { .milliseconds($0) })
    }
}

extension ControlResponse {
    /// The line that answers the engine's `reply`.
    init(_ reply: ControlReply) {
        switch reply.refusal {
        case nil: self = .done
        case .unknownPage: self = .error(.unknownPage, reply.message)
        case .notPushed: self = .error(.notPushed, reply.message)
        case .badValue: self = .error(.badValue, reply.message)
        case .notRemote: self = .error(.notRemote, reply.message)
        case .busy: self = .error(.running, reply.message)
        }
    }
}
