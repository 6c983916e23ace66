import ArgumentParser
import CrownPagerApp
import CrownVocabulary
import PagerSettings

/// `crownpager doctor mqtt`: the broker of `[mqtt]`, tried as the pager would use it.
struct DoctorMQTTCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mqtt",
        abstract: "Connect to the [mqtt] broker, subscribe, publish and receive: say what is wrong if it fails.",
        discussion: """
            Reads the configuration's [mqtt] table (its password file as the service would), connects, \
            subscribes to <base_topic>/doctor and publishes there, and waits for the message to come back. \
            Exits 0 when it did, 69 (unavailable) when the broker refused, could not be reached or did not answer.
            """)

    @Option(help: ArgumentHelp("The configuration file (TOML).", valueName: "path"))
    var config = "/etc/crownpager/crownpager.toml"

    @Option(help: ArgumentHelp("Give up after this many seconds.", valueName: "seconds"))
    var timeout: Double = 10

    func validate() throws {
        guard timeout > 0 && timeout <= 600 else {
            throw ValidationError("--timeout must be between 0 and 600 seconds, not \(timeout)")
        }
    }

    func run() throws {
        try report {
            let configuration = try Configuration.load(path: config)
            let (worked, lines) = try MQTTDoctor.check(
                configuration, timeout: .milliseconds(Int64(timeout * 1000)))
            for line in lines { print(line) }
            if !worked { throw ExitCode(ExitStatus.unavailable.rawValue) }
        }
    }
}
