import PagerConfig

extension Configuration {
    /// The built-in configuration's text: the same bytes as `Hardware/crownpager.toml` (a test checks).
    public static let builtInText = """
        # CrownPager configuration: /etc/crownpager/crownpager.toml
        #
        # This is also the built-in default: a Pi wired as in Hardware/README.md runs these pages with
        # no file at all. Check an edited file with `crownpager check /etc/crownpager/crownpager.toml`,
        # then `sudo systemctl reload crownpager` (SIGHUP): a broken file keeps the old one running.
        # Durations are strings: "500ms", "5s", "2min", "1h"; dim_after and off_after also take "never".

        [display]
        panel = "128x64"          # 128x64, 128x32, 96x16, 72x40, 64x48 (SSD1306) or sh1106-128x64 (1.3")
        bus = 1                   # /dev/i2c-1 (pins 3 and 5); "mock" draws in the terminal instead
        address = 0x3c            # 0x3c on most modules, 0x3d when strapped; "3c" is hexadecimal too, 60 decimal
        rotation = 0              # 0 or 180
        brightness = 80           # 0 to 100
        dim_after = "1min"        # without a turn or press: dim to dim_brightness...
        dim_brightness = 5
        off_after = "10min"       # ...then switch off (OLEDs burn in); the first detent only wakes it
        bus_hz = 400000           # as set by dtparam=i2c_arm_baudrate in config.txt; paces frames

        [crown]
        source = "gpio"           # gpio (libgpiod), evdev (the kernel's rotary-encoder overlay) or keyboard
        chip = "/dev/gpiochip0"
        lines = { a = 17, b = 27, button = 22 }   # GPIO numbers: pins 11, 13 and 15
        steps_per_detent = 4      # 4 for a KY-040 and most EC11s, 2 for 30-detent EC11s
        acceleration = true       # pages per detent grow while turning fast
        wrap = false              # from the last page on to the first
        side = "right"            # right, left or bottom: where the knob sits

        [indicator]
        style = "automatic"       # the plate behind the dots: automatic, prominent or minimal

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
    public static let builtIn: Configuration = {
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
