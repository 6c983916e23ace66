import Glibc
import SSD1306

/// Why talking to an I2C device failed: the operation, the device path, the address, the
/// errno, and what to do about it.
package struct I2CError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What was being done.
    package enum Operation: String, Hashable, Sendable {
        /// Opening the bus's device node.
        case open = "open"
        /// I2C_SLAVE: choosing the address later reads and writes go to.
        case selectAddress = "select the address on"
        /// A write transaction.
        case write = "write to"
        /// A read (the status byte).
        case read = "read from"
    }

    /// What the errno means for the operator (embedded-hal's error kinds, linux-embedded-hal's table).
    package enum Kind: Hashable, Sendable {
        /// The device node does not exist: I2C is not enabled.
        case busMissing
        /// The adapter was there and went away mid-run (a USB or bit-banged adapter unplugged, its driver unloaded).
        case adapterGone
        /// The node exists but this user may not open it.
        case permissionDenied
        /// Nothing acknowledged the address (ENXIO, EREMOTEIO): wiring or address.
        case noAcknowledge
        /// The transfer failed on the wire (EIO, ETIMEDOUT, EAGAIN): noise, a loose wire, clock.
        case bus
        /// The adapter cannot do plain I2C transfers (EOPNOTSUPP on a write): an SMBus-only one,
        /// without I2C_FUNC_I2C, such as i2c-stub or a PC's SMBus controller.
        case plainTransfersUnsupported
        /// Anything else.
        case other
    }

    /// What was being done.
    package let operation: Operation
    /// The device node, e.g. `/dev/i2c-1`.
    package let path: String
    /// The device address, when one was involved.
    package let address: I2CAddress?
    /// The system's error.
    package let errno: Errno
    /// Whether the adapter's node went away after the bus was opened: the bus reopens it on a later write.
    package let adapterVanished: Bool
    /// The messages the adapter executed of those sent, when it reported a NACK as a short count
    /// rather than an errno (i2c-virtio does); nil when the call failed with `errno`.
    package let executedMessages: ExecutedMessages?

    /// A transfer the adapter cut short: the i2c core's transfer call returns the number of
    /// messages executed, and an adapter may report a NACK that way, without an errno.
    package struct ExecutedMessages: Hashable, Sendable {
        /// The messages the adapter executed, fewer than `sent`.
        package let executed: Int
        /// The messages in the transfer.
        package let sent: Int

        /// `executed` of `sent` messages.
        package init(_ executed: Int, of sent: Int) {
            self.executed = executed
            self.sent = sent
        }
    }

    /// An error, for comparing in tests.
    package init(operation: Operation, path: String, address: I2CAddress?, errno: Errno, adapterVanished: Bool = false)
    {
        self.operation = operation
        self.path = path
        self.address = address
        self.errno = errno
        self.adapterVanished = adapterVanished
        self.executedMessages = nil
    }

    /// A NACK on `address` that the adapter reported as a short count: it executed `messages.executed`
    /// of `messages.sent`. Its errno is EREMOTEIO, as adapters that fail a NACK report it, so code
    /// comparing errnos sees a NACK too.
    package init(operation: Operation, path: String, address: I2CAddress, executed messages: ExecutedMessages) {
        self.operation = operation
        self.path = path
        self.address = address
        self.errno = Errno(rawValue: EREMOTEIO)
        self.adapterVanished = false
        self.executedMessages = messages
    }

    /// The meaning of `errno` for this operation.
    package var kind: Kind {
        if adapterVanished { return .adapterGone }
        if executedMessages != nil { return .noAcknowledge }
        switch errno.rawValue {
        case ENOENT, ENODEV: return .busMissing
        case EACCES, EPERM: return .permissionDenied
        case ENXIO, EREMOTEIO: return .noAcknowledge
        case EIO, ETIMEDOUT, EAGAIN: return .bus
        case EOPNOTSUPP where operation == .write: return .plainTransfersUnsupported
        default: return .other
        }
    }

    /// The bus number in `path` (`/dev/i2c-1` is 1), for the commands the hints name.
    package var busNumber: Int? {
        guard let dash = path.lastIndex(of: "-") else { return nil }
        return Int(path[path.index(after: dash)...])
    }

    /// A sentence for the operator: what failed, the system's reason, and how to fix it.
    package var description: String {
        let bus = busNumber.map(String.init) ?? "N"
        let target = address.map { "\($0) on " } ?? ""
        let cause = executedMessages.map {
            "the adapter executed \($0.executed) of \($0.sent) messages (a NACK reported as a short count)"
        }
        let reason = "could not \(operation.rawValue) \(target)\(path): \(cause ?? errno.sentence)"
        switch kind {
        case .adapterGone:
            return "\(path) disappeared (\(reason)): the USB or bit-banged adapter was unplugged or its driver "
                + "unloaded; waiting for it to come back"
        case .busMissing:
            return reason + ". I2C bus \(bus) is not enabled: on a Raspberry Pi add 'dtparam=i2c_arm=on' to "
                + "/boot/firmware/config.txt (or run 'sudo raspi-config nonint do_i2c 0') and reboot; elsewhere "
                + "load the driver with 'sudo modprobe i2c-dev'. 'ls /dev/i2c-*' lists the buses this machine has."
        case .permissionDenied:
            return reason + ". Add your user to the i2c group ('sudo adduser $USER i2c', then log in again), or "
                + "install the udev rule from Hardware/99-crownpager-i2c.rules ('sudo cp Hardware/99-crownpager-i2c.rules "
                + "/etc/udev/rules.d/ && sudo udevadm trigger')."
        case .noAcknowledge:
            return reason + ". No device answered\(address.map { " at \($0)" } ?? ""): check the wiring (SDA to pin 3, "
                + "SCL to pin 5, VCC to 3V3, GND) and the address; most displays answer at 0x3c, some at 0x3d "
                + "(--address 0x3d). 'i2cdetect -y \(bus)' lists the addresses that answer."
        case .bus:
            return reason + ". The transfer failed on the wire: check for a loose wire or missing pull-ups, or "
                + "lower the bus speed (dtparam=i2c_arm_baudrate=100000)."
        case .plainTransfersUnsupported:
            return reason + ". \(path) is an SMBus-only adapter: it lacks plain I2C transfers (I2C_FUNC_I2C; "
                + "'i2cdetect -F \(bus)' says \"I2C no\"), which a frame of the display needs. Put the display on a "
                + "full I2C bus (on a Raspberry Pi /dev/i2c-1, 'dtparam=i2c_arm=on'); 'i2cdetect -l' lists the adapters."
        case .other:
            return reason
        }
    }
}
