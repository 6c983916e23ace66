import Foundation
import Glibc
import PagerGraphics
import SSD1306
import TestSupport
import Testing

/// glibc's makedev(3), a macro Swift does not import: the major and minor split as Linux encodes them.
func deviceNumber(_ major: UInt64, _ minor: UInt64) -> dev_t {
    let majorBits: UInt64 = (major & 0xfff) << 8 | (major & ~0xfff) << 32
    let minorBits: UInt64 = (minor & 0xff) | (minor & ~0xff) << 12
    return dev_t(majorBits | minorBits)
}

/// A node where an output file would go, to show that no output option replaces it.
///
/// As root (CI) it is a copy of /dev/null made with mknod (1, 3): the node `--trace /dev/null`
/// turned into a regular file for the whole system. Without root, a symbolic link to /dev/null,
/// which a rename would equally have replaced by a file.
struct NullNode {
    let path: String

    init(at path: String) throws {
        self.path = path
        let made = geteuid() == 0 ? mknod(path, S_IFCHR | 0o666, deviceNumber(1, 3)) : symlink("/dev/null", path)
        guard made == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
    }

    /// Whether the node is still what it was made as.
    var isIntact: Bool {
        var status = stat()
        guard lstat(path, &status) == 0 else { return false }
        if geteuid() == 0 { return status.st_mode & S_IFMT == S_IFCHR && status.st_rdev == deviceNumber(1, 3) }
        return status.st_mode & S_IFMT == S_IFLNK
            && (try? FileManager.default.destinationOfSymbolicLink(atPath: path)) == "/dev/null"
    }
}

/// Output paths that are devices, FIFOs, folders or disks (issue: `render --trace /dev/null` as root).
@Suite(.tags(.endToEnd), .serialized) struct OutputPathTests {
    @Test(arguments: [["--trace"], ["--gif"]])
    func renderWritesADeviceInPlace(option: [String]) throws {
        let scratch = try ScratchDirectory()
        let node = try NullNode(at: scratch.path + "/x")
        let render = ["render", "--out", scratch.path + "/r", "--crown", "+1", "--frozen"]
        let run = try runCrownPager(render + option + [node.path])
        #expect(run.status == 0, "\(run.standardError)")
        #expect(node.isIntact, "\(option) replaced the node")
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path).sorted() == ["r", "x"])
    }

    @Test func renderFramesAndReplayGlassGoIntoDevicesInTheFolder() throws {
        let scratch = try ScratchDirectory()
        let out = scratch.path + "/r"
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: false)
        let frame = try NullNode(at: out + "/step-00.pbm")
        let picture = try NullNode(at: out + "/step-00.png")
        let trace = scratch.path + "/t.txt"
        let run = try runCrownPager([
            "render", "--out", out, "--crown", "+1", "--frozen", "--steps-only", "--trace", trace,
        ])
        #expect(run.status == 0, "\(run.standardError)")
        #expect(frame.isIntact && picture.isIntact)
        #expect(FileManager.default.fileExists(atPath: out + "/step-01.pbm"))

        try FileManager.default.createDirectory(atPath: scratch.path + "/g", withIntermediateDirectories: false)
        let glass = try NullNode(at: scratch.path + "/g/glass.pbm")
        let replay = try runCrownPager(["replay", trace, "--out", scratch.path + "/g"])
        #expect(replay.status == 0, "\(replay.standardError)")
        #expect(glass.isIntact)
    }

    @Test func wiringDiagramWritesADeviceInPlace() throws {
        let scratch = try ScratchDirectory()
        let node = try NullNode(at: scratch.path + "/x")
        let run = try runCrownPager(["wiring-diagram", "--out", node.path])
        #expect(run.status == 0, "\(run.standardError)")
        #expect(node.isIntact)
    }

    @Test(arguments: [["--trace"], ["--record"]])
    func runWritesADeviceInPlace(option: [String]) throws {
        let fake = try FakeBusRun()
        let node = try NullNode(at: fake.scratch.path + "/x")
        let (process, _, error) = try fake.start(
            ["run", "--demo", "--i2c-bus", "1"] + option + [node.path], devices: "1:0x3c")
        #expect(try fake.waitForFirstFrame())
        let messages = FakeBusRun.stop(process, error: error)
        #expect(process.terminationStatus == 0, "\(messages)")
        #expect(node.isIntact, "\(option) replaced the node")
    }

    @Test func doctorWritesItsTraceToADeviceInPlace() throws {
        let fake = try FakeBusRun()
        let node = try NullNode(at: fake.scratch.path + "/x")
        let (status, _, error) = try fake.run(
            ["doctor", "display", "--i2c-bus", "1", "--trace", node.path], devices: "1:0x3c")
        #expect(status == 0, "\(error)")
        #expect(node.isIntact)
    }

    @Test func aTraceThroughAFIFOArrivesWholeInOneStream() throws {
        let scratch = try ScratchDirectory()
        let fifo = scratch.path + "/fifo"
        #expect(mkfifo(fifo, 0o600) == 0)
        let file = scratch.path + "/file.txt"
        // The reader opens the FIFO and reads to its end while the render writes it.
        #expect(FileManager.default.createFile(atPath: file + ".from-fifo", contents: nil))
        let reader = Process()
        reader.executableURL = URL(fileURLWithPath: "/bin/cat")
        reader.arguments = [fifo]
        reader.standardOutput = FileHandle(forWritingAtPath: file + ".from-fifo")
        try reader.run()
        let arguments = ["render", "--out", scratch.path + "/r", "--crown", "+1,+1,-1", "--frozen"]
        let throughFIFO = try runCrownPager(arguments + ["--trace", fifo])
        // A FIFO replaced by a file would leave the reader waiting for a writer that never comes.
        _ = waitUntil(every: 0.01) { !reader.isRunning }
        #expect(!reader.isRunning, "the FIFO's reader never saw the end of the trace")
        if reader.isRunning { reader.terminate() }
        let direct = try runCrownPager(arguments + ["--trace", file])
        #expect(throughFIFO.status == 0 && direct.status == 0, "\(throughFIFO.standardError)")
        var status = stat()
        #expect(lstat(fifo, &status) == 0 && status.st_mode & S_IFMT == S_IFIFO)
        let streamed = try String(contentsOfFile: file + ".from-fifo", encoding: .utf8)
        let written = try String(contentsOfFile: file, encoding: .utf8)
        #expect(streamed == written)
        #expect(streamed.split(separator: "\n").count > 10)
    }

    @Test func aTraceToStandardOutputGoesThroughTheOpenDescriptor() throws {
        let scratch = try ScratchDirectory()
        let file = scratch.path + "/t.txt"
        let arguments = ["render", "--out", scratch.path + "/r", "--crown", "+1", "--frozen"]
        let printed = try runCrownPager(arguments + ["--trace", "/dev/stdout"])
        let written = try runCrownPager(arguments + ["--trace", file])
        #expect(printed.status == 0, "\(printed.standardError)")
        let trace = try String(contentsOfFile: file, encoding: .utf8)
        #expect(printed.standardOutput.hasPrefix(trace), "\(printed.standardOutput.prefix(200))")
        #expect(written.status == 0)
    }

    @Test func aFolderOrALinkToNothingIsRefusedWithExitStatus73() throws {
        let scratch = try ScratchDirectory()
        let folder = scratch.path + "/d"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        try FileManager.default.createSymbolicLink(atPath: scratch.path + "/dangling", withDestinationPath: "nowhere")
        for (target, kind) in [(folder, "a folder"), (scratch.path + "/dangling", "a symbolic link to nothing")] {
            let run = try runCrownPager(["render", "--out", scratch.path + "/r", "--frozen", "--trace", target])
            #expect(run.status == 73, "\(run.standardError)")
            #expect(run.standardError.contains("\(target) is \(kind), which cannot be written"), "\(run.standardError)")
        }
        var status = stat()
        #expect(lstat(folder, &status) == 0 && status.st_mode & S_IFMT == S_IFDIR)
        #expect(!FileManager.default.fileExists(atPath: scratch.path + "/nowhere"))
    }

    /// A block device is never written: the node below names no disk, so even a wrong open could not write one.
    @Test(.enabled(if: geteuid() == 0, "mknod of a block device needs root"))
    func aBlockDeviceIsRefusedForEveryOutput() throws {
        let scratch = try ScratchDirectory()
        let disk = scratch.path + "/disk"
        #expect(mknod(disk, S_IFBLK | 0o600, deviceNumber(259, 999_999)) == 0)
        for option in ["--trace", "--gif"] {
            let run = try runCrownPager(["render", "--out", scratch.path + "/r", "--frozen", option, disk])
            #expect(run.status == 73, "\(option): \(run.standardError)")
            #expect(run.standardError.contains("\(disk) is a block device: writing there would overwrite a disk"))
        }
        let diagram = try runCrownPager(["wiring-diagram", "--out", disk])
        #expect(diagram.status == 73, "\(diagram.standardError)")
        var status = stat()
        #expect(lstat(disk, &status) == 0 && status.st_mode & S_IFMT == S_IFBLK)
    }

    @Test func aLinkToAFileKeepsTheLinkAndReplacesTheFile() throws {
        let scratch = try ScratchDirectory()
        let real = scratch.path + "/real.txt"
        try "old\n".write(toFile: real, atomically: false, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: scratch.path + "/link", withDestinationPath: "real.txt")
        let run = try runCrownPager(["wiring-diagram", "--out", scratch.path + "/link"])
        #expect(run.status == 0, "\(run.standardError)")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: scratch.path + "/link") == "real.txt")
        let png = try Data(contentsOf: URL(fileURLWithPath: real))
        #expect(Array(png.prefix(4)) == [0x89, 0x50, 0x4E, 0x47])
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path).sorted() == ["link", "real.txt"])
    }
}
