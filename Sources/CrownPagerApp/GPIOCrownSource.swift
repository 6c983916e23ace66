import CrownInput
import CrownVocabulary
import LinuxSystem
import PagerCore
import PagerEngine
import PagerSettings

/// The knob read through libgpiod: the A, B and button lines' edges, decoded by `CrownDecoder`.
///
/// The lines are inputs with pull-ups, with events on both edges stamped by the kernel. With
/// libgpiod 2.x the kernel debounces the button (and, for quarter stepping, A and B); with 1.x
/// the decoder's own debouncers do it.
package final class GPIOCrownSource: DescribedCrownSource {
    /// The chip and lines read.
    package let wiring: GPIOCrownWiring
    /// The decoder's settings, as asked for (to open the knob again the same way).
    package let configuration: CrownDecoderConfiguration
    private let lines: GPIOLines
    private var decoder: CrownDecoder

    /// Requests the three lines; the error names the chip and the line, and says what to do.
    package init(
        wiring: GPIOCrownWiring = GPIOCrownWiring(),
        configuration: CrownDecoderConfiguration = CrownDecoderConfiguration()
    ) throws(GPIOError) {
        self.wiring = wiring
        self.configuration = configuration
        lines = try GPIOLines(
            chipPath: wiring.chipPath, offsets: [wiring.lineA, wiring.lineB, wiring.button],
            debounce: [configuration.lineDebounce, configuration.lineDebounce, configuration.buttonDebounce])
        let levels = try lines.levels()
        var settings = configuration
        // The kernel already debounced what was given a period: debouncing again would only add delay.
        if lines.kernelDebounces {
            settings.lineDebounce = .zero
            settings.buttonDebounce = .zero
        }
        decoder = CrownDecoder(
            configuration: settings, state: QuadratureState(a: levels[0], b: levels[1]), buttonLevel: levels[2])
    }

    /// Releases the lines.
    package func close() { lines.close() }

    package var sourceDescription: String {
        let debounce = lines.kernelDebounces ? "debounced by the kernel" : "debounced here"
        return "\(wiring) (libgpiod \(GPIOLines.libraryVersion), \(debounce))"
    }

    package var glitchesFiltered: Int { decoder.glitchesFiltered }
    /// The lines' descriptors, and when a debounced level settles.
    package var wakeup: CrownWakeup { CrownWakeup(descriptors: lines.descriptors, deadline: decoder.nextDeadline) }

    /// The edges waiting, and the levels the debouncers settle by `now`, as facts, oldest first.
    package func facts(at now: Timestamp) throws(GPIOError) -> [CrownEvent]? {
        facts(from: try lines.waitForEdges(timeoutMilliseconds: 0), now: now)
    }

    /// The facts `edges` complete, and those the debouncers settle by `now`, oldest first.
    func facts(from edges: [GPIOEdge], now: Timestamp) -> [CrownEvent] {
        var events: [CrownEvent] = []
        for edge in edges {
            let line: CrownLine
            switch edge.offset {
            case wiring.lineA: line = .a
            case wiring.lineB: line = .b
            default: line = .button
            }
            events += decoder.feed(LineEdge(line: line, level: edge.rising, at: edge.timestamp))
        }
        return events + decoder.advance(to: now)
    }
}
