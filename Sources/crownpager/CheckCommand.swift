import ArgumentParser
import CrownPagerApp
import PagerConfig
import PagerEngine
import PagerSettings

/// `crownpager check CONFIG`: validate a configuration without running it.
struct CheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Check a configuration file without running it: every error names the file, line and key.",
        discussion: """
            Exits 0 and lists the pages when the file is good; otherwise prints every error, one a line \
            in the order of the file, and exits 78 (66 when the file cannot be read). A syntax error stops \
            the reading: fix it to check the rest. \
            The file is only read. Without a file, checks the built-in configuration; \
            --print-default prints it, to start a file of your own; --print-reference prints every \
            setting as a Markdown table (the reference in PagerEngine's Configuration article); \
            --print-mqtt-topics every MQTT topic (the table in the MQTT article).
            """)

    @Argument(help: ArgumentHelp("The configuration file (TOML).", valueName: "config"))
    var path: String?

    @Flag(help: "Print the built-in configuration (the one a Pi runs with no file) and exit.")
    var printDefault = false

    @Flag(help: "Print every setting (key, values, default, flag, reload, documentation) as a Markdown table and exit.")
    var printReference = false

    @Flag(
        help: "Print every MQTT topic the pager uses (direction, payload, what it does) as a Markdown table and exit.")
    var printMqttTopics = false

    // Hidden, so `check --help` stays as it is: Scripts/release/docs.sh writes the page for the package.
    @Flag(help: ArgumentHelp("Print the crownpager.toml(5) man page (roff) and exit.", visibility: .hidden))
    var printManual = false

    func run() throws {
        if printDefault {
            print(Configuration.builtInText)
            return
        }
        if printManual {
            print(ConfigurationSetting.manual, terminator: "")
            return
        }
        if printReference {
            print(ConfigurationSetting.reference)
            return
        }
        if printMqttTopics {
            print(MQTTTopic.reference)
            return
        }
        var configuration = Configuration.builtIn
        if let path {
            var checked = Result<Configuration, ConfigErrors>.success(configuration)
            try report { checked = try Configuration.check(path: path) }
            switch checked {
            case .success(let read): configuration = read
            case .failure(let errors): throw fail(errors)
            }
        }
        try report { _ = try configuration.indicatorStyle() }
        // Allowed, but worth a word before the file goes on a device.
        for warning in configuration.warnings { OperatorLog.warning("crownpager: warning: \(warning)") }
        for line in configuration.summary { print(line) }
    }
}

/// Writes each of `errors` to standard error as `fail` writes one, then that a syntax error left
/// the rest of the file unchecked; returns EX_CONFIG to throw.
private func fail(_ errors: ConfigErrors) -> ExitCode {
    for error in errors.errors { OperatorLog.error("crownpager: \(error)") }
    if errors.stoppedReading, let error = errors.errors.first {
        OperatorLog.error(
            "crownpager: \(error.file): the rest of the file is not checked until this syntax error is fixed")
    }
    return ExitCode(ExitStatus.configuration.rawValue)
}
