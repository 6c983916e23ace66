import CrownVocabulary
import LinuxSystem
import PagerEngine

/// What `run` tells systemd when it runs as a `Type=notify` service: ready once the panel shows
/// the first page, the page and the panel's state as the status whenever they change, and a
/// watchdog ping from the run loop's own turns, so a loop that hangs stops pinging and systemd
/// restarts it. Outside systemd (no NOTIFY_SOCKET) it does nothing and asks for no wakeup.
struct ServiceNotifier {
    /// Sends one datagram; nil: nobody listens.
    private let send: (([ServiceNotification]) throws(ServiceManagerError) -> Void)?
    /// Says a failure to send once; the service goes on without telling.
    private let warn: (String) -> Void
    /// How often to ping: half the watchdog's timeout, as sd_watchdog_enabled(3) advises; nil without a watchdog.
    let pingInterval: TimeSpan?
    /// When the loop must ping next; nil without a watchdog, so an idle pager sleeps undisturbed.
    private(set) var nextDeadline: Timestamp?
    /// The status last sent.
    private var status: ServiceStatus?
    private var warned = false

    /// A notifier that tells nobody anything.
    init() {
        send = nil
        warn = { _ in }
        pingInterval = nil
    }

    /// A notifier that hands its datagrams to `send` and pings every half of `watchdog`, if given.
    init(
        watchdog: TimeSpan?, warn: @escaping (String) -> Void,
        send: @escaping ([ServiceNotification]) throws(ServiceManagerError) -> Void
    ) {
        self.send = send
        self.warn = warn
        pingInterval = watchdog.map { TimeSpan(nanoseconds: max(1, $0.nanoseconds / 2)) }
    }

    /// The notifier for the environment systemd started this process with: NOTIFY_SOCKET,
    /// WATCHDOG_USEC and WATCHDOG_PID; one that does nothing without NOTIFY_SOCKET.
    static func fromEnvironment() -> ServiceNotifier {
        let warn = { (text: String) in OperatorLog.warning("crownpager: warning: \(text); the service goes on") }
        let socket: ServiceManagerSocket
        do throws(ServiceManagerError) {
            guard let named = try ServiceManagerSocket.fromEnvironment() else { return ServiceNotifier() }
            socket = named
        } catch {
            warn("\(error)")
            return ServiceNotifier()
        }
        return ServiceNotifier(
            watchdog: ServiceManagerSocket.watchdogTimeoutFromEnvironment(), warn: warn,
            send: { (notifications) throws(ServiceManagerError) in try socket.send(notifications) })
    }

    /// Whether anybody listens: else `status` need not even be worked out.
    var isListening: Bool { send != nil }

    /// The panel shows its first page: READY=1 with the status, and the watchdog's first deadline.
    mutating func ready(_ status: ServiceStatus, at now: Timestamp) {
        self.status = status
        tell([.ready, .status(status.text)])
        nextDeadline = pingInterval.map { now + $0 }
    }

    /// A turn of the loop at `now`: the status when it changed, a watchdog ping when one is due.
    mutating func turn(_ status: @autoclosure () -> ServiceStatus, at now: Timestamp) {
        guard isListening else { return }
        let current = status()
        if current != self.status {
            self.status = current
            tell([.status(current.text)])
        }
        if let deadline = nextDeadline, let pingInterval, deadline <= now {
            tell([.watchdog])
            nextDeadline = now + pingInterval
        }
    }

    /// The start failed: the reason as the status, which `systemctl status` shows after the exit.
    mutating func failed(_ reason: String) { tell([.status(reason)]) }

    /// The run ends: STOPPING=1, and no more pings.
    mutating func stopping() {
        tell([.stopping])
        nextDeadline = nil
    }

    private mutating func tell(_ notifications: [ServiceNotification]) {
        guard let send else { return }
        do throws(ServiceManagerError) { try send(notifications) } catch {
            guard !warned else { return }
            warned = true
            warn("\(error)")
        }
    }
}

/// What `systemctl status` shows for a run: the page on the glass and the panel's state.
struct ServiceStatus: Hashable {
    /// The current page, from 0.
    var page: Int
    /// How many pages there are.
    var pageCount: Int
    /// The current page's title.
    var title: String
    /// Bright, dimmed or switched off by the screen saver.
    var screen: ScreenState
    /// The display stopped answering, and the run retries it.
    var displayLost: Bool

    /// The status of `engine` now.
    init(_ engine: DeviceEngine) {
        let snapshot = engine.snapshot
        page = snapshot.page
        pageCount = snapshot.pageCount
        title = snapshot.title
        screen = snapshot.screen
        displayLost = snapshot.displayLost
    }

    /// The status from its parts.
    init(page: Int, pageCount: Int, title: String, screen: ScreenState, displayLost: Bool) {
        self.page = page
        self.pageCount = pageCount
        self.title = title
        self.screen = screen
        self.displayLost = displayLost
    }

    /// One line: "page 2 of 5, Temperature; the panel is dimmed".
    var text: String {
        let panel: String
        switch (displayLost, screen) {
        case (true, _): panel = "the display does not answer, retrying"
        case (false, .bright): panel = "the panel is on"
        case (false, .dimmed): panel = "the panel is dimmed"
        case (false, .off): panel = "the panel is off (idle)"
        }
        let name = title.isEmpty ? "" : ", \(title)"
        return "page \(page + 1) of \(pageCount)\(name); \(panel)"
    }
}
