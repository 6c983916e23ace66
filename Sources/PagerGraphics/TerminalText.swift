/// Text as a terminal shows it: what a command or a log writes, read the way a terminal would
/// read it before it reaches the glass.
///
/// - Escape sequences draw nothing: CSI (`ESC [` or U+009B, parameters, a final byte in
///   0x40–0x7E: colours, cursor keys), OSC, DCS, SOS, PM and APC strings (ended by BEL or
///   ST, `ESC \` or U+009C: window titles, hyperlinks), and two-byte escapes (`ESC (B`, `ESC 7`).
///   CAN and SUB abandon a sequence (ECMA-48 section 8.3).
/// - CR returns to the line's first column and BS moves back one; what is written next
///   overwrites what was there (`sync 10%\rsync 100%` shows `sync 100%`). Of the cursor
///   sequences, EL (`ESC [ K`, erase in line), CHA (`G`), CUF (`C`) and CUB (`D`) are applied,
///   as progress bars use them; the rest draw nothing.
/// - TAB moves to the next stop of every 8 columns, filling the line with spaces to it.
/// - LF, VT, FF and NEL end a line; other controls draw nothing.
/// - Bytes that are not UTF-8 read as U+FFFD REPLACEMENT CHARACTER, one for each maximal
///   invalid subpart (Unicode 15, section 3.9), never dropped.
///
/// A column holds one grapheme cluster (combining marks stay with their letter; a
/// default-ignorable scalar that starts no cluster takes no column), so text without controls
/// reads as it is. Wide characters count as
/// one column, as the pages draw them at their own advance.
///
/// Time and memory are linear in the input: cursor moves are clamped to `maximumColumn`.
public struct TerminalText: Sendable {
    /// The furthest column a cursor sequence moves to (0-based), so that `ESC [ 999999999 C`
    /// costs what a long line does, not gigabytes of spaces.
    public static let maximumColumn = 1024

    /// One column of the current line: a cluster, most often one scalar.
    private enum Cell: Sendable {
        case scalar(Unicode.Scalar)
        case cluster([Unicode.Scalar])

        var last: Unicode.Scalar {
            switch self {
            case .scalar(let scalar): return scalar
            case .cluster(let scalars): return scalars.last ?? " "
            }
        }
    }

    private enum State: Sendable {
        case ground
        /// After ESC.
        case escape
        /// After ESC and intermediate bytes (0x20–0x2F).
        case escapeIntermediate
        /// In a control sequence: the first parameter so far (nil before a digit), and whether a
        /// second parameter has begun (then the first is complete).
        case csi(first: Int?, more: Bool)
        /// In a control string (OSC, DCS, SOS, PM, APC), until BEL or ST.
        case string
        /// After ESC in a control string: `\` ends it.
        case stringEscape
    }

    private var state = State.ground
    private var cells: [Cell] = []
    /// Zero-width scalars before the line's first column (a byte order mark, a joiner): kept, in no column.
    private var lead: [Unicode.Scalar] = []
    private var cursor = 0
    /// The UTF-8 sequence being decoded: bytes still to come, the bits so far, and the range
    /// the next byte must fall in (Unicode 15, table 3-7, well-formed UTF-8 byte sequences).
    private var pending = (count: 0, bits: UInt32(0), low: UInt8(0x80), high: UInt8(0xBF))
    /// The text read so far, lines ended.
    /// The lines ended so far, UTF-8: appending to a `String.UnicodeScalarView` a scalar at a
    /// time copied the whole view now and then, which made reading quadratic in the output.
    private var finished: [UInt8] = []

    /// A reader at the start of a blank line.
    public init() {}

    /// `bytes` as a terminal shows them, lines separated by "\n" (a line end at the end stays).
    public static func read<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> String {
        var reader = TerminalText()
        reader.feed(bytes)
        return reader.text
    }

    /// `text` as a terminal shows it; text without controls or tabs comes back as it is.
    public static func read(_ text: String) -> String {
        // Most values are plain: no controls, nothing to do, nothing to allocate.
        if !text.unicodeScalars.contains(where: BitmapFont.isControl) { return text }
        return read(text.utf8)
    }

    /// Reads more bytes; a sequence or a character cut between two calls continues in the next.
    public mutating func feed<Bytes: Sequence<UInt8>>(_ bytes: Bytes) {
        for byte in bytes { decode(byte) }
    }

    /// One byte of UTF-8: a scalar when it ends one, U+FFFD for each maximal invalid subpart.
    private mutating func decode(_ byte: UInt8) {
        if pending.count > 0 {
            if byte >= pending.low && byte <= pending.high {
                pending.bits = pending.bits << 6 | UInt32(byte & 0x3F)
                pending.count -= 1
                (pending.low, pending.high) = (0x80, 0xBF)
                if pending.count == 0 { take(Unicode.Scalar(pending.bits) ?? "\u{FFFD}") }
                return
            }
            // The sequence broke off: it reads as one U+FFFD, and this byte starts afresh.
            pending.count = 0
            take("\u{FFFD}")
        }
        switch byte {
        case 0..<0x80: take(Unicode.Scalar(byte))
        case 0xC2...0xDF: pending = (1, UInt32(byte & 0x1F), 0x80, 0xBF)
        case 0xE0: pending = (2, 0, 0xA0, 0xBF)
        case 0xED: pending = (2, 0x0D, 0x80, 0x9F)
        case 0xE1...0xEF: pending = (2, UInt32(byte & 0x0F), 0x80, 0xBF)
        case 0xF0: pending = (3, 0, 0x90, 0xBF)
        case 0xF1...0xF3: pending = (3, UInt32(byte & 0x07), 0x80, 0xBF)
        case 0xF4: pending = (3, 4, 0x80, 0x8F)
        default: take("\u{FFFD}")
        }
    }

    /// What the reader shows: the lines ended so far and the current line.
    public var text: String {
        if pending.count > 0 {
            // A sequence cut off at the end reads as U+FFFD, as more bytes would show it.
            var ended = self
            ended.pending.count = 0
            ended.take("\u{FFFD}")
            return ended.text
        }
        var all = finished
        Self.append(lead, cells, to: &all)
        return String(decoding: all, as: UTF8.self)
    }

    private mutating func take(_ scalar: Unicode.Scalar) {
        let value = scalar.value
        // CAN and SUB abandon any sequence; ESC starts one anywhere but in a string.
        if value == 0x18 || value == 0x1A {
            state = .ground
            return
        }
        switch state {
        case .ground:
            ground(scalar)
        case .escape:
            escape(scalar)
        case .escapeIntermediate:
            if (0x20...0x2F).contains(value) { return }
            state = .ground
            if !(0x30...0x7E).contains(value) { ground(scalar) }
        case .csi(let first, let more):
            controlSequence(scalar, first: first, more: more)
        case .string:
            if value == 0x07 || value == 0x9C {
                state = .ground
            } else if value == 0x1B {
                state = .stringEscape
            }
        case .stringEscape:
            if scalar == "\\" {
                state = .ground
            } else {
                // Any other ESC ends the string and starts a sequence of its own.
                state = .escape
                escape(scalar)
            }
        }
    }

    private mutating func ground(_ scalar: Unicode.Scalar) {
        switch scalar.value {
        case 0x1B: state = .escape
        case 0x9B: state = .csi(first: nil, more: false)
        case 0x90, 0x98, 0x9D, 0x9E, 0x9F: state = .string
        case 0x0A, 0x0B, 0x0C, 0x85: endLine()
        case 0x0D: cursor = 0
        case 0x08: cursor = max(0, cursor - 1)
        case 0x09: tab()
        case 0..<0x20, 0x7F...0x9F: break
        default: write(scalar)
        }
    }

    private mutating func escape(_ scalar: Unicode.Scalar) {
        switch scalar.value {
        case 0x5B: state = .csi(first: nil, more: false)  // [
        case 0x5D, 0x50, 0x58, 0x5E, 0x5F: state = .string  // ] P X ^ _
        case 0x1B: state = .escape
        case 0x20...0x2F: state = .escapeIntermediate
        case 0x30...0x7E: state = .ground
        case 0..<0x20:
            // A control inside a sequence is carried out, as terminals do.
            ground(scalar)
        default:
            state = .ground
            ground(scalar)
        }
    }

    private mutating func controlSequence(_ scalar: Unicode.Scalar, first: Int?, more: Bool) {
        let value = scalar.value
        switch value {
        case 0x30...0x39 where !more:
            state = .csi(first: min(99_999, (first ?? 0) * 10 + Int(value - 0x30)), more: false)
        case 0x3A, 0x3B:
            state = .csi(first: first, more: true)
        case 0x20...0x3F:
            break
        case 0x40...0x7E:
            state = .ground
            finish(final: scalar, parameter: first)
        case 0x1B:
            state = .escape
        case 0..<0x20:
            ground(scalar)
        default:
            // Not part of any sequence: the sequence is abandoned and this is text.
            state = .ground
            ground(scalar)
        }
    }

    /// Carries out the cursor and erase sequences pages meet; the rest (SGR...) draw nothing.
    private mutating func finish(final: Unicode.Scalar, parameter: Int?) {
        let count = max(1, parameter ?? 1)
        switch final {
        case "K":
            switch parameter ?? 0 {
            case 0: if cursor < cells.count { cells.removeSubrange(cursor...) }
            case 1:
                for column in 0..<min(cells.count, cursor + 1) { cells[column] = .scalar(" ") }
            case 2:
                cells.removeAll(keepingCapacity: true)
                lead.removeAll(keepingCapacity: true)
            default: break
            }
        case "G": cursor = min(Self.maximumColumn, count - 1)
        case "C": cursor = min(Self.maximumColumn, max(cursor, cursor + count))
        case "D": cursor = max(0, cursor - count)
        default: break
        }
    }

    private mutating func tab() {
        let stop = (cursor / 8 + 1) * 8
        padCells(to: stop)
        cursor = stop
    }

    private mutating func padCells(to column: Int) {
        while cells.count < column { cells.append(.scalar(" ")) }
    }

    /// Writes `scalar` at the cursor: with the cluster before it when it continues it, else
    /// into the cursor's column, over what was there.
    private mutating func write(_ scalar: Unicode.Scalar) {
        let previous = cursor - 1
        if previous >= 0, cursor <= cells.count,
            Self.continues(cells[previous], with: scalar) || BitmapFont.drawsNothing(scalar)
        {
            // A zero-width scalar that joins nothing takes no column either: it goes with the cell before it.
            switch cells[previous] {
            case .scalar(let first): cells[previous] = .cluster([first, scalar])
            case .cluster(let scalars): cells[previous] = .cluster(scalars + [scalar])
            }
            return
        }
        // At a line's start, a zero-width scalar has no cell to go with: before the first column.
        if BitmapFont.drawsNothing(scalar) {
            if cursor == 0 { lead.append(scalar) }
            return
        }
        padCells(to: cursor)
        if cursor < cells.count {
            cells[cursor] = .scalar(scalar)
        } else {
            cells.append(.scalar(scalar))
        }
        cursor += 1
    }

    /// Whether `scalar` continues the grapheme cluster `cell` (Unicode Standard Annex #29).
    private static func continues(_ cell: Cell, with scalar: Unicode.Scalar) -> Bool {
        // Below U+0300 two scalars always break (what the standard library's fast path knows too).
        if scalar.value < 0x300 && cell.last.value < 0x300 { return false }
        var text = String.UnicodeScalarView()
        switch cell {
        case .scalar(let first): text.append(first)
        case .cluster(let scalars): text.append(contentsOf: scalars)
        }
        text.append(scalar)
        return String(text).count == 1
    }

    private mutating func endLine() {
        Self.append(lead, cells, to: &finished)
        finished.append(0x0A)
        cells.removeAll(keepingCapacity: true)
        lead.removeAll(keepingCapacity: true)
        cursor = 0
    }

    /// Appends a line's zero-width lead and its cells to `text`.
    private static func append(_ lead: [Unicode.Scalar], _ cells: [Cell], to text: inout [UInt8]) {
        func encode(_ scalar: Unicode.Scalar) {
            if scalar.isASCII {
                text.append(UInt8(truncatingIfNeeded: scalar.value))
            } else {
                UTF8.encode(scalar) { text.append($0) }
            }
        }
        for scalar in lead { encode(scalar) }
        for cell in cells {
            switch cell {
            case .scalar(let scalar): encode(scalar)
            case .cluster(let scalars): for scalar in scalars { encode(scalar) }
            }
        }
    }
}
