import CrownVocabulary
import PagerCore
import PagerSettings

/// What each page's action (`[[page]] action`) is doing, for the page to show: pure state, the
/// engine's to change.
package struct PageActions: Hashable, Sendable {
    /// Where one page's action stands.
    package enum Phase: Hashable, Sendable {
        /// The first press came: a second before `until` runs it.
        case confirming(until: Timestamp)
        /// Started; its end comes as `EngineInput.actionFinished`.
        case running
        /// Ended: its status (`exit status 0`, `timed out after 30s: killed`) and its output's first line.
        case finished(status: String, firstLine: String)
    }

    /// The pages whose action is not at rest, by index; none until a press.
    package private(set) var phases: [Int: Phase] = [:]

    /// When the first confirmation waiting for its second press lapses; nil when none waits.
    var confirmationDeadline: Timestamp? {
        // Looked at every tick: no list built, and nothing at all while no action was asked for.
        guard !phases.isEmpty else { return nil }
        var earliest: Timestamp?
        for case .confirming(let until) in phases.values { earliest = Timestamp.earliest(earliest, until) }
        return earliest
    }

    subscript(page: Int) -> Phase? {
        get { phases[page] }
        set { phases[page] = newValue }
    }

    /// The pages asking for their second press.
    var confirmingPages: [Int] {
        phases.compactMap { page, phase in
            if case .confirming = phase { return page }
            return nil
        }.sorted()
    }
}

extension DeviceEngine {
    /// Reacts to what the pager did: a page's action asked for, a page change that withdraws a
    /// question. Every other event needs nothing from the engine.
    mutating func act(on events: [PagerEvent], into effects: inout Effects) {
        for event in events {
            switch event {
            case .pageAction(let page, let at): pressed(page, at: at, into: &effects)
            case .pageChanged: withdrawQuestions()
            default: break
            }
        }
    }

    /// A press (or a long press, for `confirm = "hold"`) on an action page: asks, runs, or does
    /// nothing while the action runs (never two at once on a page).
    private mutating func pressed(_ page: Int, at instant: Timestamp, into effects: inout Effects) {
        guard book.specs.indices.contains(page), let action = book.specs[page].action else { return }
        switch actions[page] {
        case .running:
            return
        case .confirming(let until) where instant < until:
            break
        default:
            guard action.confirmation != .press else {
                actions[page] = .confirming(until: instant + PageAction.confirmationWindow)
                refreshPage(page)
                return
            }
        }
        actions[page] = .running
        effects.reads.append(PageRead(page: page, source: .action(action.command)))
        refreshPage(page)
    }

    /// An action ended: the page shows its status and first line until the next run or a reload.
    mutating func actionFinished(_ page: Int, output: String, status: String?) {
        // A result for a page not running one (a reload came between) is not this page's.
        guard actions[page] == .running else { return }
        let firstLine = output.split(separator: "\n", omittingEmptySubsequences: true).first.map(String.init) ?? ""
        actions[page] = .finished(status: status ?? "exit status 0", firstLine: firstLine)
        refreshPage(page)
    }

    /// Questions whose second press did not come in time go, and their pages show as before.
    mutating func expireQuestions() {
        guard let deadline = actions.confirmationDeadline, deadline <= now else { return }
        for page in actions.confirmingPages {
            guard case .confirming(let until) = actions[page], until <= now else { continue }
            actions[page] = nil
            refreshPage(page)
        }
    }

    /// Every question withdrawn: the page it was asked on is no longer in front.
    private mutating func withdrawQuestions() {
        for page in actions.confirmingPages {
            actions[page] = nil
            refreshPage(page)
        }
    }

    /// `page` as its action's phase shows it: the question, `Running…`, or the status and first line under the title.
    func showingAction(_ page: ConfiguredPage, at index: Int) -> ConfiguredPage {
        guard let phase = actions[index], let action = book.specs[index].action else { return page }
        var shown = page
        switch phase {
        case .confirming: shown.body = .text(action.question)
        case .running: shown.body = .text("Running\u{2026}")
        case .finished(let status, let firstLine):
            // The status first: a 32-row panel shows two lines under the title, and it matters most.
            shown.body = .output(lines: [status] + (firstLine.isEmpty ? [] : [firstLine]), status: nil)
        }
        return shown
    }
}
