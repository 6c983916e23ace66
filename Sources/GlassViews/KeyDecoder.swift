/// Turns the bytes a terminal sends into `TerminalCommand`s, one read at a time.
///
/// A terminal may split an escape sequence across reads (SSH, tmux and slow links do),
/// so the decoder keeps its place between `feed` calls: feeding bytes in any pieces gives
/// the same commands as feeding them at once. A lone ESC cannot be told from the start of
/// a sequence until the next byte arrives; when `hasPendingSequence` stays true for a
/// short while (say 50 ms), call `flush()` to drop it. A lone Escape key does nothing.
///
/// Understood input:
///
///     ESC [ A / ESC O A / k        turn -1      ESC [ B / ESC O B / j        turn +1
///     ESC [ 1 ; m A  (m > 1)       turn -5      ESC [ 1 ; m B                turn +5
///     ESC [ 5 ~  Page Up  / K      turn -5      ESC [ 6 ~  Page Down / J     turn +5
///     ESC [ < 64 ; x ; y M         wheel up     ESC [ < 65 ; x ; y M         wheel down
///     ESC [ M b x y  (b = 96, 97)  X10 wheel    CR, LF, space, ESC O M       press
///     q  Q  Ctrl-C  Ctrl-D         quit         r  R  Ctrl-L                 redraw
///     l  L                         long press (a terminal has no key-up: the key is the whole hold)
///
/// Anything else, including mouse clicks and motion, is skipped without a command.
/// A CR followed by LF is one press, so a terminal that sends CR LF for Enter works.
package struct KeyDecoder: Hashable, Sendable {
    /// Detents for Page Up/Down, `J`/`K` and modified arrows.
    package static let fastDetents = 5
    /// A sequence longer than this is junk: the decoder skips to its final byte.
    package static let maximumSequenceLength = 32

    private enum State: Hashable, Sendable {
        case ground
        /// After ESC.
        case escape
        /// After ESC [, collecting parameter and intermediate bytes.
        case controlSequence
        /// After ESC O (SS3, sent for arrows in application cursor mode).
        case singleShift
        /// Inside a sequence that grew too long: skip to its final byte.
        case skipping
        /// After ESC [ M, collecting the X10 mouse report's three bytes.
        case x10Mouse
    }

    private var state = State.ground
    private var parameters: [UInt8] = []
    private var afterCarriageReturn = false

    /// A decoder at rest.
    package init() {}

    /// True when the bytes so far end inside an escape sequence.
    package var hasPendingSequence: Bool { state != .ground }

    /// The commands in `bytes`, continuing any sequence left open by the previous call.
    package mutating func feed(_ bytes: some Sequence<UInt8>) -> [TerminalCommand] {
        var commands: [TerminalCommand] = []
        for byte in bytes { consume(byte, into: &commands) }
        return commands
    }

    /// Drops an unfinished sequence (a lone ESC, or a sequence cut off), returning what it meant: nothing.
    package mutating func flush() -> [TerminalCommand] {
        state = .ground
        parameters.removeAll()
        return []
    }

    private mutating func consume(_ byte: UInt8, into commands: inout [TerminalCommand]) {
        switch state {
        case .ground:
            ground(byte, into: &commands)
        case .escape:
            switch byte {
            case UInt8(ascii: "["): begin(.controlSequence)
            case UInt8(ascii: "O"): begin(.singleShift)
            case 0x1B: break  // the first ESC was a lone Escape key
            default:
                // Alt+key arrives as ESC then the key: act on the key.
                state = .ground
                ground(byte, into: &commands)
            }
        case .controlSequence:
            if parameters.isEmpty, byte == UInt8(ascii: "M") {
                state = .x10Mouse
            } else {
                collect(byte, into: &commands) { parameters, final in
                    Self.controlSequence(parameters: parameters, final: final)
                }
            }
        case .singleShift:
            collect(byte, into: &commands) { _, final in Self.singleShift(final: final) }
        case .skipping:
            collect(byte, into: &commands) { _, _ in nil }
        case .x10Mouse:
            parameters.append(byte)
            guard parameters.count == 3 else { return }
            // Button byte is the button code + 32; the column and row bytes do not matter.
            let code = Int(parameters[0]) - 32
            state = .ground
            parameters.removeAll()
            if let detents = Self.wheelDetents(buttonCode: code) { commands.append(.turn(detents: detents)) }
        }
    }

    private mutating func begin(_ next: State) {
        state = next
        parameters.removeAll()
    }

    /// One byte of a sequence after its introducer (ECMA-48 section 5.4): parameter and
    /// intermediate bytes 0x20-0x3F are kept, a final byte 0x40-0x7E ends the sequence, and
    /// anything else (a control such as Ctrl-C, ESC, DEL or a non-ASCII byte) abandons it and
    /// is read afresh, so a quit typed while a sequence hangs is never lost.
    private mutating func collect(
        _ byte: UInt8,
        into commands: inout [TerminalCommand],
        finish: ([UInt8], UInt8) -> TerminalCommand?
    ) {
        switch byte {
        case 0x20...0x3F:
            if state == .skipping { return }
            parameters.append(byte)
            if parameters.count > Self.maximumSequenceLength { begin(.skipping) }
        case 0x40...0x7E:
            let command = finish(parameters, byte)
            begin(.ground)
            if let command { commands.append(command) }
        default:
            begin(.ground)
            ground(byte, into: &commands)
        }
    }

    private mutating func ground(_ byte: UInt8, into commands: inout [TerminalCommand]) {
        let followsCarriageReturn = afterCarriageReturn
        afterCarriageReturn = byte == 0x0D
        switch byte {
        case 0x1B: state = .escape
        case 0x03, 0x04, UInt8(ascii: "q"), UInt8(ascii: "Q"): commands.append(.quit)
        case 0x0D, UInt8(ascii: " "): commands.append(.press)
        case 0x0A: if !followsCarriageReturn { commands.append(.press) }
        case UInt8(ascii: "l"), UInt8(ascii: "L"): commands.append(.longPress)
        case UInt8(ascii: "j"): commands.append(.turn(detents: 1))
        case UInt8(ascii: "k"): commands.append(.turn(detents: -1))
        case UInt8(ascii: "J"): commands.append(.turn(detents: Self.fastDetents))
        case UInt8(ascii: "K"): commands.append(.turn(detents: -Self.fastDetents))
        case 0x0C, UInt8(ascii: "r"), UInt8(ascii: "R"): commands.append(.redraw)
        default: break
        }
    }

    /// The meaning of a complete CSI sequence: ESC [ parameters final.
    static func controlSequence(parameters: [UInt8], final: UInt8) -> TerminalCommand? {
        if parameters.first == UInt8(ascii: "<") {
            // SGR mouse (mode 1006): ESC [ < button ; column ; row M (press) or m (release).
            guard final == UInt8(ascii: "M") else { return nil }
            let fields = numbers(parameters.dropFirst())
            guard fields.count == 3, let code = fields[0] else { return nil }
            return wheelDetents(buttonCode: code).map { TerminalCommand.turn(detents: $0) }
        }
        guard let first = parameters.first, !(UInt8(ascii: "=")...UInt8(ascii: "?")).contains(first) else {
            return parameters.isEmpty ? arrow(final: final, modifier: nil) : nil
        }
        let fields = numbers(parameters[...])
        switch final {
        case UInt8(ascii: "A"), UInt8(ascii: "B"):
            // ESC [ 1 ; modifier A: the modifier is 1 + a bit set of Shift, Alt, Ctrl, Meta.
            return arrow(final: final, modifier: fields.count >= 2 ? fields[1] : nil)
        case UInt8(ascii: "~"):
            guard fields.first == 5 || fields.first == 6 else { return nil }
            return .turn(detents: fields.first == 5 ? -fastDetents : fastDetents)
        default:
            return nil
        }
    }

    /// The meaning of ESC O final: arrows and the keypad's Enter in application mode.
    static func singleShift(final: UInt8) -> TerminalCommand? {
        final == UInt8(ascii: "M") ? .press : arrow(final: final, modifier: nil)
    }

    /// Up or down, one detent, or `fastDetents` with any modifier key held.
    static func arrow(final: UInt8, modifier: Int?) -> TerminalCommand? {
        let step = (modifier ?? 1) > 1 ? fastDetents : 1
        switch final {
        case UInt8(ascii: "A"): return .turn(detents: -step)
        case UInt8(ascii: "B"): return .turn(detents: step)
        default: return nil
        }
    }

    /// Wheel detents of an xterm mouse button code: 64 is wheel up, 65 wheel down.
    ///
    /// Bits 2-4 are Shift, Meta and Ctrl (ignored); bit 5 is motion, bit 7 the extra
    /// buttons 8-11, and codes 66 and 67 are the horizontal wheel: none of those turn the crown.
    static func wheelDetents(buttonCode code: Int) -> Int? {
        guard code >= 0, code & 0b1110_0000 == 0b0100_0000 else { return nil }
        switch code & 0b11 {
        case 0: return -1
        case 1: return 1
        default: return nil
        }
    }

    /// The `;`-separated decimal fields; nil for a field that is not a number.
    static func numbers(_ bytes: ArraySlice<UInt8>) -> [Int?] {
        bytes.split(separator: UInt8(ascii: ";"), omittingEmptySubsequences: false).map { field in
            guard !field.isEmpty else { return nil }
            var value = 0
            for byte in field {
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
                // Saturate: a sequence is at most 32 bytes, but 32 digits overflow an Int.
                value = min(value * 10 + Int(byte - UInt8(ascii: "0")), 1_000_000)
            }
            return value
        }
    }
}
