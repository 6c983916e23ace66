import Glibc

/// The process's environment variables, read through getenv(3).
package enum ProcessEnvironment {
    /// The value of `name`; nil when it is unset.
    package static func value(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }
}
