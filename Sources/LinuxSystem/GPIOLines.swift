import CrownPagerGPIO
import CrownVocabulary
import Glibc

/// One edge of a GPIO line: its offset, rising or falling, and the kernel's timestamp.
package struct GPIOEdge: Hashable, Sendable {
    /// The line's offset on its chip.
    package var offset: UInt32
    /// True for low to high.
    package var rising: Bool
    /// The kernel's CLOCK_MONOTONIC timestamp, the clock `MonotonicClock` reads.
    package var timestamp: Timestamp

    /// An edge of `offset` at `timestamp`.
    package init(offset: UInt32, rising: Bool, timestamp: Timestamp) {
        self.offset = offset
        self.rising = rising
        self.timestamp = timestamp
    }
}

/// Input lines of one GPIO chip, requested through libgpiod for edge events on both edges, with pull-ups.
///
/// The same binary runs on libgpiod 1.6 (Debian 12) and 2.x (Debian 13, current Raspberry Pi OS):
/// the C shim `CrownPagerGPIO` loads whichever is installed, at run time (`CROWNPAGER_LIBGPIOD`
/// names another), and speaks its API; with neither, a request throws `.loadLibrary`. With 2.x
/// the kernel debounces the lines given a period; with 1.x it cannot, and `kernelDebounces` is
/// false. With 1.x each line has its own event queue, and the shim merges them by the kernel's
/// timestamps.
package final class GPIOLines {
    /// The chip, e.g. `/dev/gpiochip0`.
    package let chipPath: String
    /// The requested offsets, in order.
    package let offsets: [UInt32]
    /// Whether the kernel debounces the lines that were given a period (libgpiod 2.x).
    package let kernelDebounces: Bool
    private var handle: OpaquePointer?

    /// The API major of the libgpiod loaded: 1 or 2, or 0 when none could be loaded.
    package static var apiMajor: Int { Int(crownpager_gpio_api_major()) }
    /// The loaded libgpiod's version, e.g. `1.6.3` or `2.1.3`; `unknown` when none could be loaded.
    package static var libraryVersion: String {
        crownpager_gpio_library_version().map { String(cString: $0) } ?? "unknown"
    }

    /// Requests `offsets` on `chipPath`; `debounce[i]` asks the kernel to debounce line i where it can.
    package init(
        chipPath: String, offsets: [UInt32], debounce: [TimeSpan] = [], consumer: String = "crownpager"
    ) throws(GPIOError) {
        self.chipPath = chipPath
        self.offsets = offsets
        guard !offsets.isEmpty, offsets.count <= Int(CROWNPAGER_GPIO_MAX_LINES), Set(offsets).count == offsets.count
        else {
            throw GPIOError(operation: .request, chipPath: chipPath, offset: nil, errno: .invalidArgument)
        }
        let periods = offsets.indices.map { index -> UInt32 in
            guard index < debounce.count, debounce[index] > .zero else { return 0 }
            return UInt32(clamping: (debounce[index].nanoseconds + 999) / 1000)
        }
        var failure = crownpager_gpio_failure()
        let handle = offsets.map { CUnsignedInt($0) }.withUnsafeBufferPointer { lines in
            periods.withUnsafeBufferPointer { periods in
                crownpager_gpio_request(
                    chipPath, consumer, lines.baseAddress, periods.baseAddress, lines.count, &failure)
            }
        }
        guard let handle else { throw GPIOError(failure: failure, chipPath: chipPath, request: .request) }
        self.handle = handle
        kernelDebounces = crownpager_gpio_kernel_debounces(handle) != 0
    }

    deinit { close() }

    /// Releases the lines; reading afterwards fails with EBADF.
    package func close() {
        guard let handle else { return }
        crownpager_gpio_release(handle)
        self.handle = nil
    }

    /// The descriptors to poll for edges: one per line with libgpiod 1.x, one in all with 2.x.
    package var descriptors: [Int32] {
        guard let handle else { return [] }
        var descriptors = [Int32](repeating: -1, count: Int(CROWNPAGER_GPIO_MAX_LINES))
        let count = crownpager_gpio_descriptors(handle, &descriptors, descriptors.count)
        return Array(descriptors.prefix(count))
    }

    /// The lines' levels now, in request order: true is high.
    package func levels() throws(GPIOError) -> [Bool] {
        guard let handle else { throw readError(.badFileDescriptor) }
        var values = [Int32](repeating: 0, count: offsets.count)
        guard crownpager_gpio_values(handle, &values) == 0 else { throw readError(.current) }
        return values.map { $0 != 0 }
    }

    /// The edges pending now, oldest first, without waiting; [] when there are none.
    package func readEdges() throws(GPIOError) -> [GPIOEdge] {
        guard let handle else { throw readError(.badFileDescriptor) }
        var edges: [GPIOEdge] = []
        var buffer = [crownpager_gpio_edge](repeating: crownpager_gpio_edge(), count: 64)
        while true {
            let count = crownpager_gpio_read_edges(handle, &buffer, buffer.count)
            guard count >= 0 else { throw readError(.current) }
            for edge in buffer.prefix(Int(count)) {
                edges.append(
                    GPIOEdge(
                        offset: edge.offset, rising: edge.rising != 0,
                        timestamp: Timestamp(nanoseconds: Int64(clamping: edge.timestamp_ns))))
            }
            guard Int(count) == buffer.count else { break }
        }
        // With libgpiod 1.x every line has its own queue and one call merges only what fits in
        // its buffer: a bouncing A fills it with A's edges while B's lag, so the calls' batches
        // overlap in time. Merge them all by the kernel's stamps (stably: equal stamps keep
        // their reading order), or the quadrature sequence is scrambled and detents are lost.
        return edges.enumerated().sorted { ($0.element.timestamp, $0.offset) < ($1.element.timestamp, $1.offset) }
            .map(\.element)
    }

    /// Waits up to `timeoutMilliseconds` for edges and returns them; [] on timeout or a signal.
    package func waitForEdges(timeoutMilliseconds: Int) throws(GPIOError) -> [GPIOEdge] {
        let ready: [Bool]
        do throws(EventLoopError) {
            ready = try Readiness.wait(for: descriptors, timeoutMilliseconds: timeoutMilliseconds)
        } catch {
            switch error {
            case .system(_, let errno): throw readError(errno)
            }
        }
        return ready.contains(true) ? try readEdges() : []
    }

    private func readError(_ errno: Errno) -> GPIOError {
        GPIOError(operation: .read, chipPath: chipPath, offset: nil, errno: errno)
    }
}

extension GPIOError {
    /// The error the shim's `failure` describes, for a request of kind `request` on `chipPath`.
    init(failure: crownpager_gpio_failure, chipPath: String, request: Operation) {
        if Int(failure.stage) == Int(CROWNPAGER_GPIO_STAGE_LOAD_LIBRARY.rawValue) {
            self.init(
                operation: .loadLibrary, chipPath: chipPath, offset: nil, errno: Errno(rawValue: failure.error),
                loaderMessage: crownpager_gpio_load_error().map { String(cString: $0) } ?? "",
                libraryOverride: crownpager_gpio_library_override().map { String(cString: $0) })
            return
        }
        let operation: GPIOError.Operation
        switch Int(failure.stage) {
        case Int(CROWNPAGER_GPIO_STAGE_OPEN_CHIP.rawValue): operation = .openChip
        case Int(CROWNPAGER_GPIO_STAGE_FIND_LINE.rawValue): operation = .findLine
        default: operation = request
        }
        let errno = Errno(rawValue: failure.error)
        // Only a missing chip needs the machine's chips: they tell a wrong path from no GPIO at all.
        let missing =
            GPIOError(operation: operation, chipPath: chipPath, offset: nil, errno: errno).kind == .chipMissing
        self.init(
            operation: operation, chipPath: chipPath, offset: failure.has_offset != 0 ? failure.offset : nil,
            chipLines: failure.chip_lines, errno: errno, chipsOnMachine: missing ? GPIOChips.present() : nil)
    }
}
