/// A bus that forwards every write to `base` and records the ones `base` accepted.
///
/// Wrap the real bus to capture a trace for `I2CTrace.format`, or wrap an emulator to test a
/// driver byte for byte.
package struct TracingBus<Base: I2CBus>: I2CBus {
    /// The bus the writes go to.
    package var base: Base
    /// The writes so far, oldest first; a write that threw is not recorded.
    package private(set) var transfers: [I2CTransfer] = []

    /// A recording wrapper around `base`.
    package init(_ base: Base) {
        self.base = base
    }

    /// Forwards the write, then records it.
    package mutating func write(_ bytes: [UInt8], to address: I2CAddress) throws(Base.Failure) {
        try base.write(bytes, to: address)
        transfers.append(I2CTransfer(address: address, bytes: bytes))
    }

    /// Returns the recorded transfers and forgets them, so the next call sees only newer ones.
    package mutating func drainTransfers() -> [I2CTransfer] {
        defer { transfers.removeAll() }
        return transfers
    }
}

extension TracingBus: Sendable where Base: Sendable {}

/// Replays transfers onto a bus, e.g. a parsed trace into an emulator.
extension I2CBus {
    /// Writes each transfer in order; stops at the first failure.
    package mutating func replay(_ transfers: [I2CTransfer]) throws(Failure) {
        for transfer in transfers {
            try write(transfer.bytes, to: transfer.address)
        }
    }
}
