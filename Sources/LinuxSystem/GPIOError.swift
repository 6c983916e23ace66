import CrownPagerGPIO
import Glibc

/// Why GPIO lines could not be requested or read: the chip, the line, the operation, the errno, and the fix.
///
/// Also why libgpiod itself could not be loaded (`.loadLibrary`): the program dlopens it at run
/// time, so a missing library is an error a request reports, not a crash at start.
package struct GPIOError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What was being done.
    package enum Operation: String, Hashable, Sendable {
        /// Opening the chip's character device.
        case openChip = "open"
        /// Finding a line on the chip.
        case findLine = "find"
        /// Requesting lines for edge events.
        case request = "request"
        /// Reading levels or edge events.
        case read = "read"
        /// Requesting lines as outputs (a display's D/C# and RES#).
        case requestOutput = "request as output"
        /// Driving an output line.
        case setValue = "set"
        /// Loading libgpiod (libgpiod.so.3 or libgpiod.so.2, or `CROWNPAGER_LIBGPIOD`'s library).
        case loadLibrary = "load"
    }

    /// What the failure means for the operator.
    package enum Kind: Hashable, Sendable {
        /// No such chip (ENOENT), or the node is no GPIO chip (ENOTTY, ENODEV); the machine has others, or was not asked.
        case chipMissing
        /// The chip is missing because this machine has no GPIO chip at all (no `/dev/gpiochip*`).
        case noChipsOnMachine
        /// The user may not open the chip (EACCES, EPERM).
        case permissionDenied
        /// The offset is past the chip's last line (EINVAL).
        case noSuchLine
        /// Another program, a driver or an overlay holds the line (EBUSY).
        case lineBusy
        /// No libgpiod could be loaded: neither soname is installed, or `CROWNPAGER_LIBGPIOD` is wrong.
        case libraryMissing
        /// Anything else.
        case other
    }

    /// What was being done.
    package let operation: Operation
    /// The chip, e.g. `/dev/gpiochip0`.
    package let chipPath: String
    /// The line concerned, when one is known.
    package let offset: UInt32?
    /// The chip's line count, when known (0 if not).
    package let chipLines: UInt32
    /// The system's error.
    package let errno: Errno
    /// The GPIO chips this machine has (`GPIOChips.present()`), when they were looked up: after
    /// a missing chip, to tell a wrong chip from a machine without GPIO. Nil when not looked up.
    package let chipsOnMachine: [String]?
    /// What the dynamic loader said (dlerror()) for each library tried, for `.loadLibrary`; empty otherwise.
    package let loaderMessage: String
    /// The `CROWNPAGER_LIBGPIOD` value tried instead of the two sonames, when it was set.
    package let libraryOverride: String?

    /// An error, for comparing in tests.
    package init(
        operation: Operation, chipPath: String, offset: UInt32?, chipLines: UInt32 = 0, errno: Errno,
        chipsOnMachine: [String]? = nil, loaderMessage: String = "", libraryOverride: String? = nil
    ) {
        self.operation = operation
        self.chipPath = chipPath
        self.offset = offset
        self.chipLines = chipLines
        self.errno = errno
        self.chipsOnMachine = chipsOnMachine
        self.loaderMessage = loaderMessage
        self.libraryOverride = libraryOverride
    }

    /// Whether reading failed because the chip went away mid-run: ENODEV, as gpiolib answers once its driver is gone.
    package var chipGone: Bool { operation == .read && errno.rawValue == ENODEV }

    /// The meaning of `errno` for this operation.
    package var kind: Kind {
        if operation == .loadLibrary { return .libraryMissing }
        switch errno.rawValue {
        case ENOENT, ENOTTY, ENODEV:
            guard operation == .openChip else { return .other }
            return chipsOnMachine?.isEmpty == true ? .noChipsOnMachine : .chipMissing
        case EACCES, EPERM: return .permissionDenied
        case EINVAL:
            return operation == .findLine || operation == .request || operation == .requestOutput ? .noSuchLine : .other
        case EBUSY: return .lineBusy
        default: return .other
        }
    }

    /// A sentence naming the chip and the line, what went wrong, and what to do.
    package var description: String {
        let line = offset.map { " line \($0)" } ?? ""
        let what: String
        switch operation {
        case .openChip: what = "could not open \(chipPath)"
        case .findLine: what = "could not find\(line) on \(chipPath)"
        case .request: what = "could not request\(line.isEmpty ? " the lines" : line) on \(chipPath)"
        case .read: what = "could not read\(line.isEmpty ? " the lines" : line) of \(chipPath)"
        case .requestOutput: what = "could not request\(line.isEmpty ? " the lines" : line) of \(chipPath) as an output"
        case .setValue: what = "could not set\(line.isEmpty ? " the lines" : line) of \(chipPath)"
        case .loadLibrary:
            // dlerror()'s text names each library tried and says more than ELIBACC's sentence would.
            let (v2, v1) = (CROWNPAGER_GPIO_LIBRARY_V2, CROWNPAGER_GPIO_LIBRARY_V1)
            let which =
                libraryOverride.map { "from \(Self.libraryVariable)=\($0) (instead of \(v2) or \(v1))" }
                ?? "(neither \(v2), the 2.x API, nor \(v1), the 1.x API)"
            return "could not load libgpiod \(which) for \(chipPath): \(loaderMessage); \(fix)"
        }
        return "\(what): \(errno.sentence); \(fix)"
    }

    /// What to do about it.
    package var fix: String {
        let chip = chipPath.split(separator: "/").last.map(String.init) ?? chipPath
        switch kind {
        case .chipMissing:
            let chips = chipsOnMachine.map { " (this machine has \($0.joined(separator: ", ")))" } ?? ""
            return
                "list the chips with `gpiodetect` (package gpiod)\(chips) and pass the right one with --chip; on a Raspberry Pi "
                + "the header's lines are on /dev/gpiochip0 (on a Pi 5 with an old kernel, /dev/gpiochip4)"
        case .noChipsOnMachine:
            return
                "this machine has no GPIO chip (no /dev/gpiochip*): a knob on GPIO lines needs a Raspberry Pi or a board "
                + "like it; to try the pages here, run them in this terminal with --mock, or with bus = \"mock\" under "
                + "[display] in the configuration file, and without --chip: the keys turn the crown"
        case .permissionDenied:
            return "add your user to the `gpio` group (`sudo usermod -aG gpio $USER`, then log in again), or install "
                + "Hardware/99-crownpager-gpio.rules into /etc/udev/rules.d/; root is not needed"
        case .noSuchLine:
            let range = chipLines > 0 ? " (it has \(chipLines) lines, 0 to \(chipLines - 1))" : ""
            return
                "the offset is past the last line of \(chipPath)\(range): the offsets are GPIO numbers (BCM), not pin "
                + "numbers; `gpioinfo \(chip)` lists the lines"
        case .lineBusy where operation == .requestOutput:
            return
                "line \(offset.map(String.init) ?? "?") is used by another program or driver: `gpioinfo \(chip)` shows its "
                + "consumer; stop that program, or wire the display's DC or RES to a free line and name it "
                + "(--dc-line, --reset-line)"
        case .lineBusy:
            return
                "another program or a kernel driver holds the line: `gpioinfo \(chip)` shows its consumer; stop that "
                + "program, or remove the overlay that claims it (e.g. dtoverlay=rotary-encoder or gpio-key in "
                + "/boot/firmware/config.txt, which the --evdev way uses instead)"
        case .libraryMissing:
            let install = "install libgpiod: sudo apt install libgpiod3 (Debian 13) or libgpiod2 (Debian 12)"
            guard libraryOverride != nil else { return install }
            return install + ", or unset \(Self.libraryVariable) or point it at a libgpiod"
        case .other:
            return "check the wiring and `gpioinfo \(chip)`"
        }
    }

    /// The environment variable that names a libgpiod to load instead of the sonames.
    package static let libraryVariable = CROWNPAGER_GPIO_LIBRARY_VARIABLE
}
