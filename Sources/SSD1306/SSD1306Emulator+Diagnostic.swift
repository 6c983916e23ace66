extension SSD1306Emulator {
    /// Something the controller received that a real one would ignore or mishandle.
    public struct Diagnostic: Hashable, Sendable {
        /// The transaction it happened in, counting from 0 since the emulator was made.
        public let transaction: Int
        /// The offset of the offending byte in that transaction.
        public let offset: Int
        /// What went wrong.
        public let problem: Problem

        /// A diagnostic, for comparing in tests.
        public init(transaction: Int, offset: Int, problem: Problem) {
            self.transaction = transaction
            self.offset = offset
            self.problem = problem
        }

        /// What went wrong.
        public enum Problem: Hashable, Sendable {
            /// An opcode the SSD1306 does not have; skipped.
            case unknownCommand(UInt8)
            /// An argument the command does not accept; the command is ignored.
            case invalidArgument(command: UInt8, argument: UInt8)
            /// Display data arrived while `command` still waited for `missing` argument bytes; the command is dropped.
            case incompleteCommand(command: UInt8, missing: Int)
            /// A control byte with bits 5-0 set, which the datasheet requires to be 0.
            case reservedControlBits(UInt8)
            /// A transaction to another address; no device acknowledges it.
            case noDevice(I2CAddress)
            /// Display RAM written while a scroll runs, which the datasheet prohibits (2Fh).
            case ramWriteWhileScrolling
            /// A scroll set up while a scroll runs, which the datasheet prohibits (2Fh).
            case scrollSetupWhileScrolling(command: UInt8)
            /// A command to an SSD1309 locked by FDh 16h; ignored until FDh 12h.
            case commandWhileLocked(UInt8)
        }
    }
}

extension SSD1306Emulator.Diagnostic: CustomStringConvertible {
    /// A sentence for the operator, e.g. `transaction 3, byte 2: unknown command 0xff (skipped)`.
    public var description: String {
        "transaction \(transaction), byte \(offset): " + explanation
    }

    private var explanation: String {
        switch problem {
        case .unknownCommand(let byte): return "unknown command \(I2CTrace.hex(byte)) (skipped)"
        case .invalidArgument(let command, let argument):
            return "invalid argument \(I2CTrace.hex(argument)) for command \(I2CTrace.hex(command)) (ignored)"
        case .incompleteCommand(let command, let missing):
            return
                "display data arrived while command \(I2CTrace.hex(command)) waited for \(missing) more argument byte(s) (dropped)"
        case .reservedControlBits(let control):
            return "control byte \(I2CTrace.hex(control)) has reserved bits 5-0 set; expected 0x00, 0x40, 0x80 or 0xc0"
        case .noDevice(let address): return "no device answers at \(address); the display is at another address"
        case .ramWriteWhileScrolling: return "display RAM written while scrolling; send Deactivate Scroll (2Eh) first"
        case .scrollSetupWhileScrolling(let command):
            return "scroll setup \(I2CTrace.hex(command)) while scrolling; send Deactivate Scroll (2Eh) first"
        case .commandWhileLocked(let command):
            return "command \(I2CTrace.hex(command)) ignored: the SSD1309's commands are locked; send FDh 12h to unlock"
        }
    }
}

extension SSD1306Emulator {
    /// What an SMBus read byte returns from this controller: bit 6 set while the display is
    /// off; the low nibble as modules in the field return it (06h SSD1306, 08h SH1106), see `ControllerStatus`.
    public var statusByte: UInt8 {
        (registers.isDisplayOn ? 0 : 0x40) | (controller == .sh1106 ? 0x08 : 0x06)
    }
}
