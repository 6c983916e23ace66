import Foundation

/// The result of running the built `crownpager`.
public struct ProgramRun: Sendable {
    public var status: Int32
    public var standardOutput: String
    public var standardError: String
}

/// Runs the `crownpager` built beside the test bundle with `arguments`, standard input from /dev/null;
/// with `addressSpaceKiB`, under that limit of its address space (`ulimit -v`), so allocating more fails.
public func runCrownPager(_ arguments: [String], environment: [String: String] = [:], addressSpaceKiB: Int? = nil)
    throws -> ProgramRun
{
    let process = Process()
    if let addressSpaceKiB {
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments =
            ["-c", "ulimit -v \(addressSpaceKiB) && exec \"$0\" \"$@\"", crownPagerExecutable().path] + arguments
    } else {
        process.executableURL = crownPagerExecutable()
        process.arguments = arguments
    }
    var merged = ProcessInfo.processInfo.environment
    for (key, value) in environment { merged[key] = value }
    process.environment = merged
    let output = Pipe()
    let error = Pipe()
    process.standardOutput = output
    process.standardError = error
    process.standardInput = FileHandle.nullDevice
    try process.run()
    // Read both pipes before waiting, so a chatty program cannot fill a pipe and stall.
    let outData = output.fileHandleForReading.readDataToEndOfFile()
    let errData = error.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return ProgramRun(
        status: process.terminationStatus, standardOutput: String(decoding: outData, as: UTF8.self),
        standardError: String(decoding: errData, as: UTF8.self))
}

/// The built program: next to the test bundle in the build folder.
public func crownPagerExecutable() -> URL {
    URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
        .appendingPathComponent("crownpager")
}

/// A fresh folder under the system's temporary directory, removed when the value goes away.
public final class ScratchDirectory {
    public let path: String

    public init() throws {
        path = NSTemporaryDirectory() + "crownpager-test-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }
}
