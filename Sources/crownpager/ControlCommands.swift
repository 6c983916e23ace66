import ArgumentParser
import CrownPagerApp
import CrownVocabulary
import LinuxSystem
import PagerConfig
import PagerControl

/// Where the commands that talk to a running pager connect.
struct ControlOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "The running pager's control socket; unset, /run/crownpager/control.sock (the service's) or "
                + "$XDG_RUNTIME_DIR/crownpager/control.sock (a user's run --mock), whichever exists.",
            valueName: "path"))
    var socket: String?

    /// Sends `request` and returns the pager's `ok` answer; exits 69 when no pager answers, 65 when it refuses.
    func send(_ request: ControlRequest) throws -> ControlResponse {
        let path = socket ?? ControlSocketPath.forClient()
        let response: ControlResponse
        do throws(ControlSocketError) {
            response = try ControlClient.send(request, to: path)
        } catch {
            OperatorLog.error("crownpager: \(error)")
            throw ExitCode(error.meansNoPager ? ExitStatus.unavailable.rawValue : ExitStatus.ioError.rawValue)
        }
        if case .error(let code, let message) = response {
            OperatorLog.error("crownpager: the pager refused (\(code.rawValue)): \(message)")
            throw ExitCode(code == .busy ? ExitStatus.unavailable.rawValue : ExitStatus.dataError.rawValue)
        }
        return response
    }
}

/// The sysexits statuses every control command shares, for its --help.
private let controlStatuses =
    "Exit statuses: 0 done; 65 the pager refused the request (no such page, not a pushed page, "
    + "not a number); 69 no pager is running at the socket; 74 it did not answer."

/// `crownpager notify`: a message on the running pager's panel.
struct NotifyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "notify", abstract: "Show a notification on the running pager.",
        discussion: "The notification comes over the page by its priority: passive waits in the queue, active "
            + "slides in and wakes a dimmed panel, critical also wakes a switched-off one and stays until "
            + "pressed. " + controlStatuses)

    @Argument(help: "What the notification says.")
    var message: String

    @Option(help: "Its first line, in bold.")
    var title: String?

    @Option(help: "passive, active or critical.")
    var priority: String = "active"

    @Option(help: ArgumentHelp("How long it stays: 5s, 1min; unset, the pager's default.", valueName: "duration"))
    var timeout: String?

    @OptionGroup var control: ControlOptions

    func validate() throws {
        guard NotificationPriority(rawValue: priority) != nil else {
            throw ValidationError("unknown priority '\(priority)': choose passive, active or critical")
        }
        if let timeout, parseDuration(timeout).map({ (1...86_400_000).contains($0) }) != true {
            throw ValidationError("--timeout takes a duration up to a day, such as 5s, 500ms or 2min, not '\(timeout)'")
        }
        guard !message.isEmpty else { throw ValidationError("the message is empty: say what to show") }
    }

    func run() throws {
        let notification = ControlNotification(
            message: message, title: title, priority: NotificationPriority(rawValue: priority) ?? .active,
            timeoutMilliseconds: timeout.flatMap(parseDuration))
        _ = try control.send(.notify(notification))
    }
}

/// `crownpager show`: the running pager goes to a page.
struct ShowCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show", abstract: "Go to a page on the running pager, by its title or its number.",
        discussion: "The page slides in as a turn of the crown brings it, and a dimmed or switched-off panel "
            + "wakes. " + controlStatuses)

    @Argument(help: "The page: its title, or its number from 1.")
    var page: String

    @OptionGroup var control: ControlOptions

    func run() throws { _ = try control.send(.control(.show(page: .named(page)))) }
}

/// `crownpager set`: the value of a page whose `source = "push"`.
struct SetCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "set", abstract: "Set the value of a page whose source is \"push\" on the running pager.",
        discussion: "A text page shows VALUE as its text (\\n breaks the line); a gauge takes a number. With "
            + "stale_after, a value not set again in time is marked stale on the panel. " + controlStatuses)

    @Argument(help: "The page: its title, or its number from 1.")
    var page: String

    @Argument(help: "Its value: text, or a number for a gauge.")
    var value: String

    @OptionGroup var control: ControlOptions

    func run() throws { _ = try control.send(.control(.set(page: .named(page), value: value))) }
}

/// `crownpager brightness`: the running pager's brightness in use.
struct BrightnessCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "brightness", abstract: "Set the running pager's brightness, 0 to 100, at once.",
        discussion: "In place of display.brightness until the run ends; dimmed is never brighter. " + controlStatuses)

    @Argument(help: "The brightness, 0 to 100.")
    var percent: Int

    @OptionGroup var control: ControlOptions

    func validate() throws {
        guard (0...100).contains(percent) else { throw ValidationError("the brightness is 0 to 100, not \(percent)") }
    }

    func run() throws { _ = try control.send(.control(.brightness(percent: percent))) }
}

/// `crownpager display`: the running pager's display switched off or on.
struct DisplayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "display", abstract: "Switch the running pager's display off or on.",
        discussion: "Off, the panel stays dark until switched on, or until a turn or press of the crown wakes it "
            + "(that first turn or press turns no page). " + controlStatuses)

    @Argument(help: "on or off.")
    var state: String

    @OptionGroup var control: ControlOptions

    func validate() throws {
        guard state == "on" || state == "off" else { throw ValidationError("say on or off, not '\(state)'") }
    }

    func run() throws { _ = try control.send(.control(.display(on: state == "on"))) }
}

/// `crownpager press`: a remote press of an action page.
struct PressCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "press", abstract: "Run an action page's action on the running pager, without asking.",
        discussion: "Only for a page with remote = true: the press skips the confirmation at the pager. Refused "
            + "(65) for other pages and while the action runs. " + controlStatuses)

    @Argument(help: "The page: its title, or its number from 1.")
    var page: String

    @OptionGroup var control: ControlOptions

    func run() throws { _ = try control.send(.control(.press(page: .named(page)))) }
}

/// `crownpager status`: what the running pager shows.
struct StatusCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status", abstract: "Say what the running pager shows: the page, the screen, what is queued.",
        discussion: controlStatuses)

    @Flag(help: "One JSON object with the page, the page count and titles, the screen, the queue and the stale pages.")
    var json = false

    @OptionGroup var control: ControlOptions

    func run() throws {
        let response = try control.send(.status)
        guard let status = ControlStatus(response) else {
            OperatorLog.error("crownpager: the pager's status is not one this version reads: \(response.line)")
            throw ExitCode(ExitStatus.ioError.rawValue)
        }
        StandardOutput.write(json ? status.json : status.text)
    }
}
