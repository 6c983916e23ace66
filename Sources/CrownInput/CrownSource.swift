import CrownVocabulary

/// When a crown source wants to be asked for facts again: as soon as one of `descriptors` is
/// readable, or at `deadline` (a debounced level settling, a script's next step).
package struct CrownWakeup: Hashable, Sendable {
    /// File descriptors to wait on with poll(2); none for a source without any (a script).
    package var descriptors: [Int32]
    /// When to ask again although no descriptor is readable; nil: only when one is.
    package var deadline: Timestamp?

    /// A wakeup on `descriptors` or at `deadline`.
    package init(descriptors: [Int32] = [], deadline: Timestamp? = nil) {
        self.descriptors = descriptors
        self.deadline = deadline
    }
}

/// The one seam for crown facts. GPIO lines, the kernel's input device, the terminal's keys and
/// crown scripts all implement it, and every shell reads them the same way: wait for `wakeup`,
/// then take `facts(at:)`.
package protocol CrownSource {
    /// What reading the source throws.
    associatedtype Failure: Error

    /// What to wait for before asking again.
    var wakeup: CrownWakeup { get }

    /// The facts ready at `now`, oldest first, without blocking; nil once the source has ended
    /// (q on the keyboard, the end of a script that ends the run).
    mutating func facts(at now: Timestamp) throws(Failure) -> [CrownEvent]?
}
