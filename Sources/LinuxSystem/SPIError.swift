import Glibc

/// Why talking to a spidev device failed: the operation, the device path, the errno, and the fix.
package struct SPIError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What was being done.
    package enum Operation: String, Hashable, Sendable {
        /// Opening the device node.
        case open = "open"
        /// SPI_IOC_WR_MODE: mode 0 (CPOL 0, CPHA 0), as the SSD1306 samples on the rising edge (datasheet 8.1.3).
        case setMode = "set SPI mode 0 on"
        /// SPI_IOC_WR_BITS_PER_WORD: 8.
        case setBitsPerWord = "set 8 bits per word on"
        /// SPI_IOC_WR_MAX_SPEED_HZ.
        case setSpeed = "set the clock of"
        /// SPI_IOC_MESSAGE: a transfer.
        case write = "write to"
    }

    /// What the errno means for the operator.
    package enum Kind: Hashable, Sendable {
        /// The device node does not exist: SPI is not enabled, or the bus or chip select is wrong.
        case deviceMissing
        /// The node exists but this user may not open it.
        case permissionDenied
        /// Anything else.
        case other
    }

    /// What was being done.
    package let operation: Operation
    /// The device node, e.g. `/dev/spidev0.0`.
    package let path: String
    /// The system's error.
    package let errno: Errno

    /// An error, for comparing in tests.
    package init(operation: Operation, path: String, errno: Errno) {
        self.operation = operation
        self.path = path
        self.errno = errno
    }

    /// The meaning of `errno` for this operation.
    package var kind: Kind {
        switch errno.rawValue {
        case ENOENT, ENODEV, ENXIO: return operation == .open ? .deviceMissing : .other
        case EACCES, EPERM: return .permissionDenied
        default: return .other
        }
    }

    /// A sentence for the operator: what failed, the system's reason, and how to fix it.
    package var description: String {
        let reason = "could not \(operation.rawValue) \(path): \(errno.sentence)"
        switch kind {
        case .deviceMissing:
            return reason + ". SPI is not enabled: on a Raspberry Pi add 'dtparam=spi=on' to "
                + "/boot/firmware/config.txt (or run 'sudo raspi-config nonint do_spi 0') and reboot; "
                + "'ls /dev/spidev*' lists the devices this machine has (spidev0.0 is SPI0 with CE0, pin 24)."
        case .permissionDenied:
            return reason + ". Add your user to the spi group ('sudo adduser $USER spi', then log in again)."
        case .other:
            return operation == .write && errno.rawValue == EMSGSIZE
                ? reason + ". The transfer is longer than spidev's buffer (/sys/module/spidev/parameters/bufsiz)."
                : reason
        }
    }
}

/// Why a display on SPI failed: its spidev device, or one of its GPIO lines (D/C#, RES#).
package enum SPIDisplayError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The spidev device could not be opened, set up or written.
    case device(SPIError)
    /// The display's data/command line (D/C#) could not be requested or driven.
    case dataCommandLine(GPIOError)
    /// The display's reset line (RES#) could not be requested or driven.
    case resetLine(GPIOError)

    /// A sentence naming the device or the line, what failed and the fix.
    package var description: String {
        switch self {
        case .device(let error): return error.description
        case .dataCommandLine(let error): return "the display's DC line: \(error)"
        case .resetLine(let error): return "the display's RES line: \(error)"
        }
    }
}
