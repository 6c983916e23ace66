import LinuxSystem
import PagerGraphics
import VhostUserI2C

/// Why the tool stopped early; each maps to a sysexits status.
enum VhostToolError: Error, CustomStringConvertible {
    case socket(UnixSocketError)
    case system(EventLoopError)
    case glass(FileSystemError)
    case protocolFraming(VhostUserError)

    var description: String {
        switch self {
        case .socket(let error): return error.description
        case .system(let error): return error.description
        case .glass(let error): return "cannot write the glass: \(error)"
        case .protocolFraming(let error): return "\(error); closing the connection"
        }
    }
}

extension Error {
    /// EX_CANTCREAT for the socket (making it, or accepting on it), EX_IOERR for the glass,
    /// EX_PROTOCOL for a broken stream, EX_OSERR for the rest (signalfd, poll).
    var exitStatus: Int32 {
        switch self as? VhostToolError {
        case .socket: return 73
        case .glass: return 74
        case .protocolFraming: return 76
        default:
            if self is UnixSocketError { return 73 }
            return 71
        }
    }
}

/// One QEMU connection served to its end: messages in, replies out, kicks turned into answered requests.
struct VhostI2CServer {
    var backend: VhostUserI2CBackend
    let glassPath: String
    let isVerbose: Bool
    private var memory = MappedGuestMemory()
    private var kick: EventCounter?
    private var call: EventCounter?
    /// Whether a broken ring was reported already: one line, not one per kick.
    private var reportedRing = false

    init(backend: VhostUserI2CBackend, glassPath: String, isVerbose: Bool) {
        self.backend = backend
        self.glassPath = glassPath
        self.isVerbose = isVerbose
    }

    /// Waits for QEMU, serves it until it disconnects (or a SIGINT or SIGTERM), then writes the glass.
    mutating func run(listener: UnixListener, signals: TerminationSignals) throws(VhostToolError) {
        while true {
            let ready = try wait([listener.descriptor.rawValue, signals.descriptor])
            if ready[1], try !takeSignals(signals) { return try writeGlass(ending: "stopped by a signal") }
            if ready[0] { break }
        }
        let connection: UnixSocket
        do { connection = try listener.accept() } catch { throw .socket(error) }
        defer {
            kick?.close()
            call?.close()
        }
        while true {
            let kickDescriptor = kick?.descriptor.rawValue ?? -1
            let ready = try wait([connection.descriptor.rawValue, signals.descriptor, kickDescriptor])
            if ready[1], try !takeSignals(signals) { return try writeGlass(ending: "stopped by a signal") }
            if ready[2], let kick {
                _ = kick.take()
                serveQueue()
            }
            guard ready[0] else { continue }
            let isConnected: Bool
            do { isConnected = try receiveMessage(connection) } catch {
                // The glass so far is still worth having when the stream broke.
                if case .protocolFraming = error { try writeGlass(ending: "the vhost-user stream broke") }
                throw error
            }
            if !isConnected { return try writeGlass(ending: "QEMU disconnected") }
        }
    }

    private func wait(_ descriptors: [Int32]) throws(VhostToolError) -> [Bool] {
        do { return try Readiness.wait(for: descriptors, timeoutMilliseconds: -1) } catch { throw .system(error) }
    }

    /// Acts on pending signals; false when one asks the tool to stop.
    private mutating func takeSignals(_ signals: TerminationSignals) throws(VhostToolError) -> Bool {
        while let signal = signals.next() {
            switch signal {
            case .user1:
                backend.isAbsent.toggle()
                StandardError.writeLine(
                    "crownpager-vhost-i2c: "
                        + (backend.isAbsent ? "panel absent: every message is NACKed" : "panel present again"))
            case .user2: try writeGlass(ending: nil)
            default: return false
            }
        }
        return true
    }

    /// Reads and handles one message; false when the front-end has gone.
    private mutating func receiveMessage(_ connection: UnixSocket) throws(VhostToolError) -> Bool {
        let message: VhostUserMessage
        var files: [FileDescriptor] = []
        defer { for file in files { _ = try? file.close() } }
        do {
            guard let head = try connection.receive(VhostUserHeader.size, maximumDescriptors: 8) else { return false }
            files = head.descriptors
            let header: VhostUserHeader
            do { header = try VhostUserHeader(decoding: head.bytes) } catch {
                throw VhostToolError.protocolFraming(error)
            }
            var payload: [UInt8] = []
            if header.payloadSize > 0 {
                guard let body = try connection.receive(Int(header.payloadSize)) else { return false }
                payload = body.bytes
            }
            message = VhostUserMessage(header: header, payload: payload, fileDescriptorCount: files.count)
        } catch let error as VhostToolError {
            throw error
        } catch {
            // A read that fails midway is QEMU gone (killed mid-message): the run ends as on a close.
            StandardError.writeLine("crownpager-vhost-i2c: \(error)")
            return false
        }
        let command: VhostUserCommand
        do { command = try message.command() } catch {
            StandardError.writeLine("crownpager-vhost-i2c: \(error)")
            return true
        }
        if isVerbose {
            StandardError.writeLine("crownpager-vhost-i2c: \(command) with \(files.count) file descriptors")
        }
        switch command {
        case .setMemoryTable(let regions):
            do { memory = try MappedGuestMemory(regions: regions, files: files) } catch {
                StandardError.writeLine("crownpager-vhost-i2c: cannot map the guest's memory: \(error.sentence)")
                return true
            }
            reportedRing = false
        case .setVringKick(let hasFile):
            kick?.close()
            kick = hasFile ? files.first.map(EventCounter.init) : nil
            if hasFile { files.removeFirst() }
        case .setVringCall(let hasFile):
            call?.close()
            call = hasFile ? files.first.map(EventCounter.init) : nil
            if hasFile { files.removeFirst() }
        case .getVringBase:
            kick?.close()
            kick = nil
        default: break
        }
        if let reply = backend.respond(to: command) {
            do { try connection.send(reply) } catch {
                StandardError.writeLine("crownpager-vhost-i2c: \(error)")
                return false
            }
        }
        // Buffers made available before the ring started are served as soon as it runs.
        switch command {
        case .setVringKick, .setVringEnable(true): serveQueue()
        default: break
        }
        return true
    }

    /// Answers what the guest has queued and interrupts it when anything was used.
    private mutating func serveQueue() {
        do {
            let used = try backend.processQueue(memory)
            if isVerbose, used > 0 { StandardError.writeLine("crownpager-vhost-i2c: kick: \(used) served") }
            if used > 0, backend.wantsInterrupt(memory) { try? call?.signal() }
        } catch {
            if !reportedRing { StandardError.writeLine("crownpager-vhost-i2c: virtqueue: \(error)") }
            reportedRing = true
        }
    }

    /// Writes the glass as PBM; with `ending`, says why the run ends and what it served.
    private func writeGlass(ending: String?) throws(VhostToolError) {
        let text = PBM.plain(backend.emulator.glass, comment: "crownpager-vhost-i2c \(backend.emulator.panel.name)")
        do { try FileSystem.writeAtomically(text, toPath: glassPath) } catch { throw .glass(error) }
        let served = "\(backend.answered) messages answered, \(backend.failed) failed"
        StandardError.writeLine(
            "crownpager-vhost-i2c: " + (ending.map { "\($0) after \(served); " } ?? "")
                + "glass written to \(glassPath)")
    }
}
