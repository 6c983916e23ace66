import CrownPagerBuildInfo
import LinuxSystem

/// What `crownpager --version` prints: the release, the commit, the compiler and libgpiod.
///
/// libgpiod is loaded at run time (either major), so the version shown is the one this machine
/// gives the program, not one fixed at build time.
enum BuildVersion {
    /// The release number; Scripts/release/package.sh reads it from here for the .deb's version.
    static let number = "0.10.0"

    /// The text of `--version`, one fact a line.
    static var text: String {
        let commit = String(cString: crownpager_build_commit())
        let date = String(cString: crownpager_build_commit_date())
        let gpiod =
            GPIOLines.apiMajor == 0
            ? "libgpiod: none found (install libgpiod3 or libgpiod2 for a GPIO knob)"
            : "libgpiod \(GPIOLines.libraryVersion) (API \(GPIOLines.apiMajor).x, loaded at run time)"
        return """
            crownpager \(number)
            commit \(commit)\(date.isEmpty ? "" : " (\(date))")
            built with \(swiftVersion) for \(architecture)
            \(gpiod)
            """
    }

    /// The compiler as the build script saw it, else as the compiler itself can tell (major.minor).
    private static var swiftVersion: String {
        let scripted = String(cString: crownpager_build_swift_version())
        if !scripted.isEmpty { return scripted }
        #if compiler(>=6.3)
            return "Swift 6.3 or newer"
        #elseif compiler(>=6.2)
            return "Swift 6.2"
        #elseif compiler(>=6.1)
            return "Swift 6.1"
        #else
            return "Swift 6.0"
        #endif
    }

    /// The machine the binary was compiled for.
    private static var architecture: String {
        #if arch(arm64)
            return "aarch64"
        #elseif arch(x86_64)
            return "x86_64"
        #elseif arch(arm)
            return "armv7"
        #else
            return "another architecture"
        #endif
    }
}
