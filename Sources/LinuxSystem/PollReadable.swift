import CrownVocabulary
import Glibc

extension FileDescriptor {
    /// Waits up to `timeoutMilliseconds` (negative: forever) until the descriptor can be read,
    /// resuming after signals with what is left of the timeout. Returns false on timeout, and
    /// the `revents` poll(2) reported otherwise through `events`.
    func waitUntilReadable(timeoutMilliseconds: Int, events: inout Int16) throws(Errno) -> Bool {
        var request = pollfd(fd: rawValue, events: Int16(POLLIN), revents: 0)
        let deadline = MonotonicClock.now() + TimeSpan.milliseconds(Int64(max(0, timeoutMilliseconds)))
        var remaining = timeoutMilliseconds
        while true {
            let ready = poll(&request, 1, Int32(clamping: remaining))
            if ready > 0 { break }
            if ready == 0 { return false }
            let error = Errno.current
            guard error == .interrupted else { throw error }
            if timeoutMilliseconds >= 0 { remaining = max(0, Int((deadline - MonotonicClock.now()).milliseconds)) }
        }
        events = request.revents
        return true
    }
}
