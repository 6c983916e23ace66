import CrownVocabulary
import PagerConfig

/// What a press of the crown runs on a page (`[[page]] action`): a command, run as a command
/// page's is (own process group, timeout, capped output, minimal environment, no shell unless named).
package struct PageAction: Hashable, Sendable {
    /// How the action is asked for (`confirm`).
    package enum Confirmation: String, CaseIterable, Hashable, Sendable {
        /// A press asks "Press again to …"; a second press within `confirmationWindow` runs it.
        case press
        /// A long press runs it; on this page a long press opens no title list.
        case hold
        /// A press runs it.
        case none
    }

    /// The program, its arguments, its timeout and output cap; `refresh` is unused.
    package var command: CommandSpec
    /// How it is asked for.
    package var confirmation: Confirmation
    /// What the confirmation names: the page's own title, else the command as written.
    package var label: String
    /// Whether Home Assistant's button or `crownpager press` may run it, without the on-device
    /// confirmation (`remote`): opt-in, as nobody stands at the pager to see the question.
    package var isRemote = false

    /// How long the confirmation waits for the second press.
    package static let confirmationWindow = TimeSpan.milliseconds(5000)

    /// An action running `command`, asked for by `confirmation`, named `label`.
    package init(command: CommandSpec, confirmation: Confirmation = .press, label: String) {
        self.command = command
        self.confirmation = confirmation
        self.label = label
    }

    /// The question the page asks after the first press: `Press again to restart foo`.
    package var question: String {
        // "Restart foo" reads as a verb within the sentence; "NTP sync" keeps its capitals.
        let scalars = Array(label.unicodeScalars.prefix(2))
        let lowered =
            scalars.count == 2 && scalars[0].properties.isUppercase && scalars[1].properties.isLowercase
            ? label.prefix(1).lowercased() + label.dropFirst() : label
        return "Press again to " + lowered
    }
}

extension PageSpec {
    /// Reads `action`, `confirm`, `action_timeout`, `remote` and `stay` of a `[[page]]`; `title` is its own title, if any.
    static func action(_ table: inout ConfigTable, title: String?) throws(ConfigError) -> (PageAction?, Bool) {
        typealias Setting = ConfigurationSetting
        let stay = try table.boolean(Setting.pageStay) ?? false
        let argv = try table.strings(Setting.pageAction)
        let confirmation = try table.string(Setting.pageConfirm).flatMap(PageAction.Confirmation.init(rawValue:))
        let timeout = try table.duration(Setting.pageActionTimeout) ?? nil
        let remote = try table.boolean(Setting.pageRemote) ?? false
        guard let argv else {
            let unused = [Setting.pageConfirm, Setting.pageActionTimeout].filter { table.has($0.name) }
            for setting in unused where !table.isInvalid(Setting.pageAction.name) {
                try table.report(
                    table.error(
                        setting,
                        "there is no action to confirm or time: add action = [\"program\", \"argument\"] or remove it"))
            }
            if table.has(Setting.pageRemote.name), !table.isInvalid(Setting.pageAction.name) {
                try table.report(
                    table.error(
                        Setting.pageRemote,
                        "remote runs the page's action from Home Assistant: add action = [\"program\", \"argument\"] or remove it"
                    ))
            }
            return (nil, stay)
        }
        guard !argv[0].isEmpty else { throw table.error(Setting.pageAction, "the program's name is empty") }
        let command = CommandSpec(
            argv: argv, refresh: .zero,
            timeout: timeout ?? .milliseconds(Setting.pageActionTimeout.defaultMilliseconds(30_000)))
        var action = PageAction(
            command: command, confirmation: confirmation ?? .press, label: title ?? argv.joined(separator: " "))
        action.isRemote = remote
        return (action, stay)
    }
}
