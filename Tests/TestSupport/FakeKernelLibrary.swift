import Foundation

/// Why the fake kernel could not be built as a shared object.
public struct FakeKernelBuildError: Error, CustomStringConvertible {
    /// What went wrong, with the compiler's messages.
    public var description: String
}

/// The fake kernel (`Tests/FakeKernel/*.c`) as a shared object, for LD_PRELOAD runs of the built program.
///
/// The package ships no such library: the first call compiles one with the C compiler (`cc`, else
/// `clang`, from PATH) into a temporary folder that goes away when the test process ends.
public func fakeKernelLibrary() throws -> String { try fakeKernelBuild.get() }

private let fakeKernelBuild: Result<String, FakeKernelBuildError> = buildFakeKernel()

/// The temporary folder of this process's build, removed at exit.
private let fakeKernelFolder = NSTemporaryDirectory() + "crownpager-fake-kernel-" + UUID().uuidString

private func buildFakeKernel() -> Result<String, FakeKernelBuildError> {
    let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("FakeKernel")
    let files: [String]
    do {
        files = try FileManager.default.contentsOfDirectory(atPath: sources.path).filter { $0.hasSuffix(".c") }.sorted()
            .map { sources.appendingPathComponent($0).path }
    } catch {
        return .failure(FakeKernelBuildError(description: "fake kernel: cannot list \(sources.path): \(error)"))
    }
    guard let compiler = findCompiler() else {
        return .failure(FakeKernelBuildError(description: "fake kernel: no C compiler (cc or clang) on PATH"))
    }
    do {
        try FileManager.default.createDirectory(atPath: fakeKernelFolder, withIntermediateDirectories: true)
    } catch {
        return .failure(FakeKernelBuildError(description: "fake kernel: cannot create \(fakeKernelFolder): \(error)"))
    }
    atexit { try? FileManager.default.removeItem(atPath: fakeKernelFolder) }
    let library = fakeKernelFolder + "/libFakeKernel.so"
    let process = Process()
    process.executableURL = URL(fileURLWithPath: compiler)
    process.arguments =
        ["-shared", "-fPIC", "-O1", "-I", sources.appendingPathComponent("include").path] + files
        + ["-o", library, "-ldl", "-lpthread"]
    let messages = Pipe()
    process.standardOutput = messages
    process.standardError = messages
    do { try process.run() } catch {
        return .failure(FakeKernelBuildError(description: "fake kernel: cannot run \(compiler): \(error)"))
    }
    let output = String(decoding: messages.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
        return .failure(
            FakeKernelBuildError(
                description: "fake kernel: \(compiler) failed (status \(process.terminationStatus)):\n\(output)"))
    }
    return .success(library)
}

/// The first of `cc` and `clang` found on PATH.
private func findCompiler() -> String? {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    for name in ["cc", "clang"] {
        for folder in path.split(separator: ":") {
            let candidate = String(folder) + "/" + name
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
    }
    return nil
}
