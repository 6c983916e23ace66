import CrownVocabulary
import PagerCore

/// Why a crown script could not be read.
package struct CrownScriptError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The 1-based line of the script (1 for an inline `--crown` list).
    package var line: Int
    /// The word that could not be understood.
    package var token: String
    /// What was expected instead.
    package var expected: String

    /// A sentence for the operator.
    package var description: String {
        "crown script line \(line): cannot read '\(token)': expected \(expected)"
    }
}

/// A scripted crown: turns and presses at given times, for headless renders and tests
/// (in the spirit of XCUIDevice's `rotateDigitalCrown(delta:velocity:)`).
///
/// Steps are separated by commas or new lines; `#` starts a comment:
///
///     +1            turn one detent clockwise (next page); -2 turns two back
///     press         a short press (button up 80 ms later)
///     long-press    a long press (held 800 ms); `hold 1.2s` holds for a given time
///     wait 500ms    let more time pass before the next step
///     @1.5s +1      do a step at an absolute time from the start
///
/// A step without a time comes `spacing` after the previous one, long enough for a slide to settle.
package struct CrownScript: Hashable, Sendable {
    /// One thing the crown does.
    package enum Action: Hashable, Sendable {
        /// Turn by whole detents.
        case turn(Int)
        /// Hold the button down for a time, then release it.
        case hold(TimeSpan)
        /// Let time pass without touching the crown.
        case wait(TimeSpan)
    }

    /// An action and when it starts, from the start of the script.
    package struct Step: Hashable, Sendable {
        package var at: TimeSpan
        package var action: Action
    }

    /// The steps in time order.
    package var steps: [Step]
    /// How long the script runs: past its last step by the spacing, plus any trailing waits.
    package var duration: TimeSpan

    /// Time between untimed steps.
    package static let defaultSpacing = TimeSpan.milliseconds(400)
    /// How long `press` holds the button.
    package static let shortPressHold = TimeSpan.milliseconds(80)
    /// How long `long-press` holds the button.
    package static let longPressHold = TimeSpan.milliseconds(800)

    /// Reads a script from text (a file, or an inline list like `+1,+1,-1`).
    package init(parsing text: String, spacing: TimeSpan = CrownScript.defaultSpacing) throws(CrownScriptError) {
        var steps: [Step] = []
        // The cursor is when the next untimed step happens.
        var cursor = TimeSpan.zero
        // "\r\n" is one Character in Swift, so CRLF line ends need their own test: a script saved on
        // Windows reads as the same script with LF ends.
        let lines = text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" })
        for (index, rawLine) in lines.enumerated() {
            let content = rawLine.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            for item in content.split(separator: ",") {
                var words = item.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" }).map(String.init)
                guard !words.isEmpty else { continue }
                let line = index + 1
                if let head = words.first, head.hasPrefix("@") {
                    let time = try Self.duration(String(head.dropFirst()), line: line)
                    words.removeFirst()
                    guard !words.isEmpty else {
                        throw CrownScriptError(line: line, token: head, expected: "an action after the time")
                    }
                    if let last = steps.last, time < last.at {
                        throw CrownScriptError(
                            line: line, token: head, expected: "a time no earlier than the step before")
                    }
                    cursor = time
                }
                let action = try Self.action(words, line: line)
                switch action {
                case .wait(let span):
                    cursor = cursor + span
                case .hold(let span):
                    steps.append(Step(at: cursor, action: action))
                    cursor = cursor + span + spacing
                case .turn:
                    steps.append(Step(at: cursor, action: action))
                    cursor = cursor + spacing
                }
            }
        }
        self.steps = steps
        self.duration = cursor
    }

    /// The crown events the script produces, with timestamps counted from `start`.
    package func events(startingAt start: Timestamp) -> [CrownEvent] {
        var events: [CrownEvent] = []
        for step in steps {
            let at = start + step.at
            switch step.action {
            case .turn(let detents): events.append(.rotated(detents: detents, at: at))
            case .hold(let span): events += [.pressed(at: at), .released(at: at + span)]
            case .wait: break
            }
        }
        return events
    }

    static func action(_ words: [String], line: Int) throws(CrownScriptError) -> Action {
        let word = words[0].lowercased()
        switch word {
        case "press", "click":
            return .hold(shortPressHold)
        case "long-press", "longpress":
            return .hold(longPressHold)
        case "hold":
            guard words.count == 2 else {
                throw CrownScriptError(line: line, token: word, expected: "hold <duration>, e.g. hold 1s")
            }
            return .hold(try duration(words[1], line: line))
        case "wait":
            guard words.count == 2 else {
                throw CrownScriptError(line: line, token: word, expected: "wait <duration>, e.g. wait 500ms")
            }
            return .wait(try duration(words[1], line: line))
        default:
            guard words.count == 1, let first = word.first, first == "+" || first == "-",
                let detents = Int(word), detents.magnitude <= 10_000
            else {
                throw CrownScriptError(
                    line: line, token: words.joined(separator: " "),
                    expected: "+N or -N detents, press, long-press, hold <time>, wait <time> or @<time> <step>")
            }
            return .turn(detents)
        }
    }

    /// Reads `250ms`, `1.5s` or a bare number of milliseconds.
    static func duration(_ text: String, line: Int) throws(CrownScriptError) -> TimeSpan {
        let lowered = text.lowercased()
        var number = lowered
        var scale = 1_000_000.0
        if lowered.hasSuffix("ms") {
            number = String(lowered.dropLast(2))
        } else if lowered.hasSuffix("s") {
            number = String(lowered.dropLast())
            scale = 1_000_000_000
        }
        guard let value = Double(number), value >= 0, value <= 86_400 * 1000 else {
            throw CrownScriptError(line: line, token: text, expected: "a duration such as 250ms or 1.5s")
        }
        return TimeSpan(nanoseconds: Int64((value * scale).rounded()))
    }
}
