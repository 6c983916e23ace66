import PagerConfig

extension Configuration {
    /// The built-in configuration's text: the same bytes as `Hardware/crownpager.toml` (a test checks).
    ///
    /// Its settings are `ConfigurationSetting.defaultFileText`, written from the settings table.
    package static let builtInText =
        builtInHeader + "\n\n" + ConfigurationSetting.defaultFileText + "\n\n" + builtInPagesText

    /// The comment at the top of the default file.
    static let builtInHeader = """
        # CrownPager configuration: /etc/crownpager/crownpager.toml
        #
        # This is also the built-in default: a Pi wired as in Hardware/README.md runs these pages with
        # no file at all. Check an edited file with `crownpager check /etc/crownpager/crownpager.toml`,
        # then `sudo systemctl reload crownpager` (SIGHUP): a broken file keeps the old one running.
        # A reload cannot change the settings marked (restart): they take effect at the next start.
        # Durations are strings: "500ms", "5s", "2min" or "2m", "1h"; dim_after, off_after and the timer's also take
        # "never".
        """

    /// The built-in pages.
    static let builtInPagesText = """
        [[page]]
        kind = "system"
        title = "System"
        values = ["hostname", "ip", "cpu-temperature", "load", "uptime"]

        [[page]]
        kind = "clock"
        title = "Clock"
        time = "%H:%M"
        date = "%a %e %b %Y"

        [[page]]
        kind = "gauge"
        title = "CPU temperature"
        source = "cpu-temperature"
        min = 30
        max = 85

        [[page]]
        kind = "gauge"
        title = "Memory"
        source = "memory"

        [[page]]
        kind = "gauge"
        title = "Disk /"
        source = "disk /"
        refresh = "1min"
        """

    /// The built-in configuration: a system overview, the clock and gauges on a Pi wired as in `Hardware/`.
    package static let builtIn: Configuration = {
        do throws(ConfigError) {
            var configuration = try Configuration(parsingBuiltIn: builtInText)
            configuration.file = "built-in"
            return configuration
        } catch {
            // The tests parse the built-in text; should it ever fail, a clock still runs.
            var fallback = Configuration()
            fallback.pages = [PageSpec(title: "Clock", kind: .text("built-in configuration: \(error)"))]
            return fallback
        }
    }()

    private init(parsingBuiltIn text: String) throws(ConfigError) {
        try self.init(parsing: text, file: "built-in", files: NoFiles())
    }
}

extension Configuration {
    /// The built-in configuration with a first page saying why a file could not be used: what
    /// `run --built-in-on-error` runs when its `--config` file does not load, so that a service's
    /// panel (a card's, whose file anyone can edit) says what to fix rather than staying dark.
    ///
    /// - Parameter error: the error as the operator reads it, `file:line: key` included.
    package static func builtIn(rejecting error: String) -> Configuration {
        var configuration = builtIn
        configuration.pages.insert(PageSpec(title: "Configuration error", kind: .text(error)), at: 0)
        return configuration
    }
}
