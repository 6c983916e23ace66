import CrownVocabulary

/// One `struct input_event` from `/dev/input/eventN`, its time already a `Timestamp`.
package struct InputEventRecord: Hashable, Sendable {
    /// When the kernel stamped the event (CLOCK_MONOTONIC once the reader has asked for it).
    package var timestamp: Timestamp
    /// The event type: `EV_SYN`, `EV_KEY`, `EV_REL`, `EV_ABS`...
    package var type: UInt16
    /// The code within the type: `REL_X`, `KEY_ENTER`, `SYN_REPORT`...
    package var code: UInt16
    /// The value: a relative movement, an absolute position, or 0/1/2 for key up, down and repeat.
    package var value: Int32

    /// A record with these fields.
    package init(timestamp: Timestamp, type: UInt16, code: UInt16, value: Int32) {
        self.timestamp = timestamp
        self.type = type
        self.code = code
        self.value = value
    }
}

/// The input-event codes the crown uses, as `<linux/input-event-codes.h>` numbers them.
package enum InputEventCode {
    /// Event type: a synchronisation marker.
    package static let EV_SYN: UInt16 = 0x00
    /// Event type: a key or button.
    package static let EV_KEY: UInt16 = 0x01
    /// Event type: a relative axis.
    package static let EV_REL: UInt16 = 0x02
    /// Event type: an absolute axis.
    package static let EV_ABS: UInt16 = 0x03
    /// `EV_SYN` code: the end of one packet of events that belong together.
    package static let SYN_REPORT: UInt16 = 0
    /// `EV_SYN` code: the kernel's buffer overran and events were dropped.
    package static let SYN_DROPPED: UInt16 = 3
    /// Axis 0 (`REL_X` / `ABS_X`): the `rotary-encoder` overlay's default `linux_axis`.
    package static let REL_X: UInt16 = 0x00
    /// Axis 1 (`REL_Y` / `ABS_Y`).
    package static let REL_Y: UInt16 = 0x01
    /// A dial.
    package static let REL_DIAL: UInt16 = 0x07
    /// A mouse wheel.
    package static let REL_WHEEL: UInt16 = 0x08
    /// The Enter key: 28, the usual `keycode` for the `gpio-key` overlay.
    package static let KEY_ENTER: UInt16 = 28
    /// Key values: up, down, autorepeat.
    package static let keyReleased: Int32 = 0, keyPressed: Int32 = 1, keyRepeated: Int32 = 2
}

/// Which input events are the crown.
package struct InputEventConfiguration: Hashable, Sendable {
    /// The rotary axis code (`linux_axis` of the overlay): `REL_X` by default.
    package var axis: UInt16
    /// The key codes that are the crown's button (`keycode` of the `gpio-key` overlay).
    package var keys: [UInt16]
    /// Report clockwise as negative, for a knob whose kernel axis runs the other way.
    package var inverted: Bool
    /// For an absolute axis (no `relative_axis`): the overlay's `steps` when `rollover` is on, so a wrap is one detent.
    package var absoluteSteps: Int?

    /// A configuration for the overlays' defaults: `REL_X` and `KEY_ENTER`.
    package init(
        axis: UInt16 = InputEventCode.REL_X, keys: [UInt16] = [InputEventCode.KEY_ENTER], inverted: Bool = false,
        absoluteSteps: Int? = nil
    ) {
        self.axis = axis
        self.keys = keys
        self.inverted = inverted
        self.absoluteSteps = absoluteSteps
    }
}

/// What the translator has seen.
package struct InputEventStatistics: Hashable, Sendable {
    /// Records read.
    package var records = 0
    /// Packets completed by `SYN_REPORT`.
    package var packets = 0
    /// `SYN_DROPPED` markers: the kernel lost events because they were not read fast enough.
    package var droppedPackets = 0
    /// Key autorepeats (value 2), which are not presses.
    package var repeats = 0
    /// Records of other types or codes, and key edges that repeated the button's state.
    package var ignored = 0

    /// All counts at zero.
    package init() {}
}

/// The kernel's input events (from the `rotary-encoder` and `gpio-keys` drivers) to `CrownEvent`s.
///
/// The kernel sends events in packets closed by `EV_SYN`/`SYN_REPORT`; the translator holds
/// a packet's facts until its report, as the evdev protocol asks. After `SYN_DROPPED` it
/// drops everything up to and including the next `SYN_REPORT`: those packets are incomplete.
/// A press while already pressed, or a release while up (possible after a drop), is ignored.
package struct InputEventTranslator: Sendable {
    /// Which events are the crown.
    package let configuration: InputEventConfiguration
    /// What has been seen.
    package private(set) var statistics = InputEventStatistics()
    /// Whether the button is down, as far as the events tell.
    package private(set) var isPressed = false
    private var pending: [CrownEvent] = []
    private var pendingPressed = false
    private var dropping = false
    private var lastAbsolute: Int32?

    /// A translator for `configuration`.
    package init(configuration: InputEventConfiguration = InputEventConfiguration()) {
        self.configuration = configuration
    }

    /// Feeds one record; returns the facts of the packet it completes, if it completes one.
    package mutating func translate(_ record: InputEventRecord) -> [CrownEvent] {
        statistics.records += 1
        switch record.type {
        case InputEventCode.EV_SYN:
            return synchronize(record)
        case _ where dropping:
            return []
        case InputEventCode.EV_REL where record.code == configuration.axis:
            rotate(by: Int(record.value), at: record.timestamp)
        case InputEventCode.EV_ABS where record.code == configuration.axis:
            if let last = lastAbsolute { rotate(by: absoluteDelta(from: last, to: record.value), at: record.timestamp) }
            lastAbsolute = record.value
        case InputEventCode.EV_KEY where configuration.keys.contains(record.code):
            key(record.value, at: record.timestamp)
        default:
            statistics.ignored += 1
        }
        return []
    }

    /// Feeds many records in order; returns every fact they complete.
    package mutating func translate(_ records: [InputEventRecord]) -> [CrownEvent] {
        var events: [CrownEvent] = []
        for record in records { events += translate(record) }
        return events
    }

    private mutating func synchronize(_ record: InputEventRecord) -> [CrownEvent] {
        switch record.code {
        case InputEventCode.SYN_REPORT:
            statistics.packets += 1
            if dropping {
                dropping = false
                return []
            }
            isPressed = pendingPressed
            defer { pending.removeAll() }
            return pending
        case InputEventCode.SYN_DROPPED:
            statistics.droppedPackets += 1
            dropping = true
            pending.removeAll()
            pendingPressed = isPressed
            return []
        default:
            statistics.ignored += 1
            return []
        }
    }

    private mutating func rotate(by detents: Int, at instant: Timestamp) {
        guard detents != 0 else { return }
        pending.append(.rotated(detents: configuration.inverted ? saturatingNegation(detents) : detents, at: instant))
    }

    private mutating func key(_ value: Int32, at instant: Timestamp) {
        switch value {
        case InputEventCode.keyPressed where !pendingPressed:
            pendingPressed = true
            pending.append(.pressed(at: instant))
        case InputEventCode.keyReleased where pendingPressed:
            pendingPressed = false
            pending.append(.released(at: instant))
        case InputEventCode.keyRepeated:
            statistics.repeats += 1
        default:
            statistics.ignored += 1
        }
    }

    /// The detents between two absolute positions; with `absoluteSteps`, the shorter way round a rollover.
    private func absoluteDelta(from last: Int32, to value: Int32) -> Int {
        // In Int64: on a 32-bit microcontroller the difference of two Int32 values overflows Int.
        var delta = Int(clamping: Int64(value) - Int64(last))
        if let steps = configuration.absoluteSteps, steps > 0 {
            delta %= steps
            if delta > steps / 2 { delta -= steps } else if delta < -(steps / 2) { delta += steps }
        }
        return delta
    }
}
