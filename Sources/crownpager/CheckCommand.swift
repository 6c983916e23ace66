import ArgumentParser
import CrownPagerApp
import PagerEngine

/// `crownpager check CONFIG`: validate a configuration without running it.
struct CheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Check a configuration file without running it: every error names the file, line and key.",
        discussion: """
            Exits 0 and lists the pages when the file is good; otherwise prints the first error and exits 78 \
            (66 when the file cannot be read). \
            The file is only read. Without a file, checks the built-in configuration; \
            --print-default prints it, to start a file of your own; --print-reference prints every \
            setting as a Markdown table (the reference in PagerEngine's Configuration article).
            """)

    @Argument(help: ArgumentHelp("The configuration file (TOML).", valueName: "config"))
    var path: String?

    @Flag(help: "Print the built-in configuration (the one a Pi runs with no file) and exit.")
    var printDefault = false

    @Flag(help: "Print every setting (key, values, default, flag, reload, documentation) as a Markdown table and exit.")
    var printReference = false

    func run() throws {
        if printDefault {
            print(Configuration.builtInText)
            return
        }
        if printReference {
            print(ConfigurationSetting.reference)
            return
        }
        var configuration = Configuration.builtIn
        if let path {
            try report { configuration = try Configuration.load(path: path) }
        }
        try report { _ = try configuration.indicatorStyle() }
        for line in configuration.summary { print(line) }
    }
}
