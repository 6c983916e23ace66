import CrownVocabulary
import PagerControl
import PagerCore
import PagerGraphics
import PagerSettings

/// The engine's answer to one `PagerCommand`, for the shell to write back to the client that
/// asked (or, with no client, to log a refusal: MQTT's).
package struct ControlReply: Hashable, Sendable {
    /// Why a request changed nothing.
    package enum Refusal: Hashable, Sendable {
        /// No page has that title or number.
        case unknownPage
        /// The page's value is read, not pushed.
        case notPushed
        /// The value does not suit the page: a gauge takes a number.
        case badValue
        /// The page has no action, or no `remote = true`.
        case notRemote
        /// The page's action is running.
        case busy
    }

    /// The `reply` the request came with; nil when no client waits for the answer (MQTT).
    package var id: Int?
    /// Why the request changed nothing; nil when it was done.
    package var refusal: Refusal?
    /// What went wrong and the fix; empty when done.
    package var message: String = ""
}

/// When each pushed value was set and which have gone stale: the engine's only control state.
struct PushedValues: Hashable, Sendable {
    /// The instant each page's value was last set, by page.
    var setAt: [Int: Timestamp] = [:]
    /// The pages whose value is older than their `stale_after`, marked on the glass.
    var stale: Set<Int> = []
    /// The earliest instant a value goes stale; nil when none will.
    var nextStaleAt: Timestamp?
    /// Each page's value as the state of its Home Assistant entity, by page, for the shells that
    /// publish it (cut or clamped to what the entity announced; the glass shows it whole).
    var states: [Int: EntityState] = [:]
}

extension DeviceEngine {
    /// Carries out `request` and queues its reply (`id`) in `effects`.
    mutating func handle(_ request: PagerCommand, reply id: Int?, into effects: inout Effects) {
        var reply = ControlReply(id: id)
        do throws(Refused) {
            switch request {
            case .show(let reference):
                let page = try page(named: reference)
                // As a turn: the panel wakes, the slide starts now, a new idle spell begins, and
                // an action's question on the page left is withdrawn.
                _ = saver.activity(at: now)
                home.restart(at: now)
                act(on: presenter.navigator.goToPage(page, at: now), into: &effects)
                pacer.invalidate()
            case .set(let reference, let value):
                try push(value, to: try page(named: reference))
            case .brightness(let percent): try setBrightness(percent)
            case .display(let on): switchDisplay(on: on)
            case .press(let reference): try pressRemotely(try page(named: reference), into: &effects)
            }
        } catch {
            reply.refusal = error.reason
            reply.message = error.message
        }
        effects.replies.append(reply)
    }

    /// The page `reference` names: an index, or a person's word (a number from 1, else a title:
    /// exactly, else ignoring case).
    func page(named requested: RequestedPage) throws(Refused) -> Int {
        let titles = book.specs.map { $0.title }
        let reference: String
        switch requested {
        case .index(let index) where titles.indices.contains(index): return index
        case .index(let index): reference = String(index + 1)
        case .named(let word): reference = word
        }
        if let number = Int(reference), titles.indices.contains(number - 1) { return number - 1 }
        let lowercased = reference.lowercased()
        if let index = titles.firstIndex(of: reference) ?? titles.firstIndex(where: { $0.lowercased() == lowercased }) {
            return index
        }
        let range = titles.isEmpty ? "there are no pages" : "use a title or a number from 1 to \(titles.count)"
        throw Refused(reason: .unknownPage, message: "no page \"\(reference)\": \(range)")
    }

    /// Shows `value` on `page` if its `source = "push"`; a gauge takes a number.
    private mutating func push(_ value: String, to page: Int) throws(Refused) {
        let spec = book.specs[page]
        guard spec.push != nil else {
            throw Refused(
                reason: .notPushed,
                message:
                    "page \(page + 1) (\(spec.title)) takes no pushed value: give it source = \"push\" to set it")
        }
        let reading: PageReading
        if case .gauge(let gauge) = spec.kind {
            guard let number = Double(value.trimmingSpaces), number.isFinite else {
                throw Refused(
                    reason: .badValue,
                    message: "page \(page + 1) (\(spec.title)) is a gauge: its value is a number, e.g. 48.3")
            }
            reading = .number(number, text: gaugeText(number, unit: gauge.unit))
            pushedValues.states[page] = .number(number, minimum: gauge.minimum, maximum: gauge.maximum)
        } else {
            let text = TerminalText.read(value)
            reading = .output(text: text, status: nil)
            pushedValues.states[page] = .text(text)
        }
        pushedValues.setAt[page] = now
        pushedValues.stale.remove(page)
        pushedValues.nextStaleAt = nextStaleInstant()
        showReading(reading, on: page)
    }

    /// Marks the values whose `stale_after` has passed: a text page's status line reads
    /// `stale`, a gauge's value is followed by `stale`. Called before each tick.
    mutating func markStalePushedValues() {
        guard let due = pushedValues.nextStaleAt, due <= now else { return }
        for (page, setAt) in pushedValues.setAt where !pushedValues.stale.contains(page) {
            guard book.specs.indices.contains(page), let after = book.specs[page].push?.staleAfter,
                setAt + after <= now
            else { continue }
            pushedValues.stale.insert(page)
            mark(page, with: "stale")
        }
        pushedValues.nextStaleAt = nextStaleInstant()
    }

    /// Pushed page `page`'s value marked with `problem` (`EngineInput.unreadable`); a page that
    /// is gone or takes no pushed value (a reload since) is left as it is.
    mutating func markUnreadable(_ page: Int, with problem: String) {
        guard book.specs.indices.contains(page), book.specs[page].push != nil else { return }
        mark(page, with: problem)
    }

    /// The page's value with `word` after it: a text page's status line, after a gauge's value.
    private mutating func mark(_ page: Int, with word: String) {
        switch book.readings[page] {
        case .output(let text, _): showReading(.output(text: text, status: word), on: page)
        case .number(let number, let text):
            // From the number, not the text shown: a second mark replaces the first.
            let unit = book.specs[page].kind.gaugeUnit
            let plain = number.flatMap { value in unit.map { gaugeText(value, unit: $0) } } ?? text
            showReading(.number(number, text: plain + " " + word), on: page)
        default: if case .text = book.specs[page].kind { showReading(.output(text: "", status: word), on: page) }
        }
    }

    /// `reading` on `page`, on the glass at the next frame if the page is near.
    private mutating func showReading(_ reading: PageReading, on page: Int) {
        book.readings[page] = reading
        refreshPage(page)
    }

    /// The earliest instant a fresh value goes stale.
    private func nextStaleInstant() -> Timestamp? {
        var earliest: Timestamp?
        for (page, setAt) in pushedValues.setAt where !pushedValues.stale.contains(page) {
            guard book.specs.indices.contains(page), let after = book.specs[page].push?.staleAfter else { continue }
            earliest = Timestamp.earliest(earliest, setAt + after)
        }
        return earliest
    }

    /// Every page's title, in order, for `crownpager status`.
    package var pageTitles: [String] { book.specs.map { $0.title } }

    /// Each pushed page's value (`crownpager set`, MQTT, the control socket) as the state of its
    /// Home Assistant entity, by page from 0.
    package var pushedStates: [Int: EntityState] { pushedValues.states }

    /// The pages (from 0) whose pushed value has gone stale, in order.
    package var stalePages: [Int] { pushedValues.stale.sorted() }
}

extension PageKind {
    /// A gauge's unit; nil for other pages.
    fileprivate var gaugeUnit: String? {
        guard case .gauge(let gauge) = self else { return nil }
        return gauge.unit
    }
}

/// A request refused: why, and the sentence for the client.
struct Refused: Error {
    var reason: ControlReply.Refusal
    var message: String
}

extension String {
    /// The text without spaces and tabs around it.
    fileprivate var trimmingSpaces: Substring {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else {
            return ""
        }
        return self[first...last]
    }
}
