import CrownPagerApp
import Foundation
import PagerConfig
import PagerEngine
import PagerSettings
import TestSupport
import Testing

/// Every mistake names the file, the line and the key, and says what is expected.
@Suite struct ConfigurationErrorTests {
    static let cases: [(String, String)] = [
        (
            "[display]\nbrightnes = 3",
            "test.toml:2: display.brightnes: unknown key (did you mean 'brightness'?); known keys here: panel, bus, address, rotation, brightness, dim_brightness, dim_after, off_after, bus_hz, font, pixel_shift, invert_every, night, night_mode, gpio_chip, dc_line, reset_line, spi_hz"
        ),
        (
            "[display]\nfont = \"/nonexistent/6x13.bdf\"",
            "test.toml:2: display.font: cannot read the font: could not open /nonexistent/6x13.bdf: No such file or directory (ENOENT, errno 2); a folder on the path does not exist; name a BDF file or one of \"fixed5x8\", \"fixed6x10\", \"fixed10x20\""
        ),
        (
            "[[page]]\nkind = \"text\"\ntext = \"x\"\nfont = \"/nonexistent/6x13.bdf\"",
            "test.toml:4: page[1].font: cannot read the font: could not open /nonexistent/6x13.bdf: No such file or directory (ENOENT, errno 2); a folder on the path does not exist; name a BDF file or one of \"fixed5x8\", \"fixed6x10\", \"fixed10x20\""
        ),
        (
            "[display]\nbrightness = 300",
            "test.toml:2: display.brightness: expected an integer from 0 to 100, found the integer 300"
        ),
        (
            "[display]\nbrightness = \"80\"",
            "test.toml:2: display.brightness: expected an integer from 0 to 100, found the string \"80\""
        ),
        (
            "[display]\npanel = \"128x46\"",
            "test.toml:2: display.panel: expected one of \"128x64\", \"128x32\", \"96x16\", \"72x40\", \"64x48\", \"sh1106-128x64\", \"ssd1309-128x64\", \"sh1107-64x128\", \"sh1107-128x128\", \"ssd1306-128x64\" or \"ssd1306-128x32\", found \"128x46\" (did you mean \"128x64\"?)"
        ),
        (
            "[display]\nbus = -1",
            "test.toml:2: display.bus: expected an I2C bus number such as 1 (/dev/i2c-1), \"spi0.0\" (/dev/spidev0.0), or \"mock\", found the integer -1"
        ),
        (
            "[display]\nbus = \"spi0\"",
            "test.toml:2: display.bus: expected an I2C bus number such as 1 (/dev/i2c-1), \"spi0.0\" (/dev/spidev0.0), or \"mock\", found the string \"spi0\""
        ),
        (
            "[display]\nreset_line = \"no\"",
            "test.toml:2: display.reset_line: expected a line from 0 to 511, or \"none\" when RES is tied high, found the string \"no\""
        ),
        (
            "[display]\nspi_hz = 50000000",
            "test.toml:2: display.spi_hz: expected an integer from 100000 to 32000000, found the integer 50000000"
        ),
        (
            "[display]\naddress = 0x80",
            "test.toml:2: display.address: expected a 7-bit I2C address 0x03...0x77: write 0x3c or 3c (hexadecimal) or 60 (decimal); digits alone are read as decimal, found the integer 128 (0x80)"
        ),
        (
            "[display]\naddress = \"99x\"",
            "test.toml:2: display.address: expected a 7-bit I2C address 0x03...0x77: write 0x3c or 3c (hexadecimal) or 60 (decimal); digits alone are read as decimal, found the string \"99x\""
        ),
        (
            "[display]\naddress = 1.5",
            "test.toml:2: display.address: expected a 7-bit I2C address 0x03...0x77: write 0x3c or 3c (hexadecimal) or 60 (decimal); digits alone are read as decimal, found the float 1.5"
        ),
        ("[display]\nrotation = 90", "test.toml:2: display.rotation: expected 0 or 180, found 90"),
        (
            "[display]\ndim_after = 30",
            "test.toml:2: display.dim_after: expected a duration in quotes such as \"5s\", \"500ms\", \"2min\" or \"1h\", found the integer 30"
        ),
        (
            "[display]\ndim_after = \"10min\"\noff_after = \"1min\"",
            "test.toml:3: display.off_after: must not come before dim_after"
        ),
        (
            "[crown]\nlines = { a = 17, b = 17, button = 22 }",
            "test.toml:2: crown.lines: a, b and button must be three different lines, found 17, 17, 22"
        ),
        (
            "[crown]\nlines = { a = 17, b = 27, buton = 22 }",
            "test.toml:2: crown.lines.buton: unknown key (did you mean 'button'?); known keys here: a, b, button"
        ),
        (
            "[crown]\nsteps_per_detent = 3",
            "test.toml:2: crown.steps_per_detent: expected 4 (KY-040, most EC11), 2 or 1, found 3"
        ),
        ("[crown]\nwrap = \"yes\"", "test.toml:2: crown.wrap: expected true or false, found the string \"yes\""),
        (
            "[crown]\nside = \"top\"",
            "test.toml:2: crown.side: expected one of \"right\", \"left\" or \"bottom\", found \"top\""
        ),
        (
            "[indicator]\nstyle = \"prominant\"",
            "test.toml:2: indicator.style: expected one of \"automatic\", \"prominent\" or \"minimal\", found \"prominant\" (did you mean \"prominent\"?)"
        ),
        (
            "[indicator]\nimage = \"moon\"",
            "test.toml:2: indicator.image: no built-in indicator image 'moon': choose one of location, house, bookmark, star, or give a .pbm, .xbm or .png file"
        ),
        (
            "[[page]]\ntitle = \"x\"",
            "test.toml:1: page[1].kind: missing: say what the page shows, one of \"text\", \"clock\", \"system\", \"command\", \"file\", \"image\" or \"gauge\""
        ),
        (
            "[[page]]\nkind = \"txt\"",
            "test.toml:2: page[1].kind: expected one of \"text\", \"clock\", \"system\", \"command\", \"file\", \"image\" or \"gauge\", found \"txt\" (did you mean \"text\"?)"
        ),
        (
            "[[page]]\nkind = \"guage\"",
            "test.toml:2: page[1].kind: expected one of \"text\", \"clock\", \"system\", \"command\", \"file\", \"image\" or \"gauge\", found \"guage\" (did you mean \"gauge\"?)"
        ),
        (
            "[[page]]\nkind = \"gauge\"\nsource = \"load\"\nstyle = \"dail\"",
            "test.toml:4: page[1].style: expected one of \"bar\" or \"dial\", found \"dail\" (did you mean \"dial\"?)"
        ),
        (
            "[crown]\nside = \"rigth\"",
            "test.toml:2: crown.side: expected one of \"right\", \"left\" or \"bottom\", found \"rigth\" (did you mean \"right\"?)"
        ),
        (
            "[[page]]\nkind = \"system\"\nvalues = [\"uptiem\"]",
            "test.toml:3: page[1].values: unknown system value \"uptiem\" (did you mean \"uptime\"?): use \"hostname\", \"cpu-temperature\", \"load\", \"memory\", \"uptime\", \"disk\", \"ip\" or \"battery\"; disk, ip, cpu-temperature and battery take a path, an interface, a zone, a supply: \"disk /home\", \"ip wlan0\", \"cpu-temperature acpitz\", \"battery BAT1\""
        ),
        ("[[page]]\nkind = \"text\"", "test.toml:1: page[1].text: missing: the text to show, e.g. text = \"Hello\""),
        (
            "[[page]]\nkind = \"text\"\ntext = \"a\"\nrefresh = \"1s\"",
            "test.toml:4: page[1].refresh: unknown key; known keys here: kind, indicator_image, font, size, title, stay, action, confirm, action_timeout, remote, duration, source, text, stale_after, topic, json"
        ),
        (
            "[[page]]\nkind = \"clock\"\ntime = \"%H:%Q\"",
            "test.toml:3: page[1].time: unknown directive %Q: use %H %I %M %S %p %d %e %m %y %Y %a %A %b %B %%"
        ),
        (
            "[[page]]\nkind = \"system\"\nvalues = [\"cpu-temp\"]",
            "test.toml:3: page[1].values: unknown system value \"cpu-temp\" (did you mean \"cpu-temperature\"?): use \"hostname\", \"cpu-temperature\", \"load\", \"memory\", \"uptime\", \"disk\", \"ip\" or \"battery\"; disk, ip, cpu-temperature and battery take a path, an interface, a zone, a supply: \"disk /home\", \"ip wlan0\", \"cpu-temperature acpitz\", \"battery BAT1\""
        ),
        (
            "[[page]]\nkind = \"system\"\nvalues = []",
            "test.toml:3: page[1].values: expected at least 1 element, found none"
        ),
        (
            "[[page]]\nkind = \"system\"\nvalues = [\"load 5\"]",
            "test.toml:3: page[1].values: \"load\" takes no argument, found \"load 5\""
        ),
        (
            "[[page]]\nkind = \"system\"\nvalues = [\"disk home\"]",
            "test.toml:3: page[1].values: disk takes an absolute path, e.g. \"disk /\", found \"disk home\""
        ),
        (
            "[[page]]\nkind = \"command\"\nargv = \"uptime -p\"",
            "test.toml:3: page[1].argv: expected an array of strings such as [\"a\", \"b\"], found the string \"uptime -p\""
        ),
        (
            "[[page]]\nkind = \"command\"",
            "test.toml:1: page[1].argv: missing: the program and its arguments, e.g. argv = [\"vcgencmd\", \"measure_temp\"] (no shell unless you name one)"
        ),
        (
            "[[page]]\nkind = \"command\"\nargv = [\"x\", 1]",
            "test.toml:3: page[1].argv: element 2 must be a string in quotes, found the integer 1"
        ),
        (
            "[[page]]\nkind = \"command\"\nargv = [\"x\"]\ntimeout = \"5ms\"",
            "test.toml:4: page[1].timeout: expected at least 10 ms, found \"5ms\""
        ),
        (
            "[[page]]\nkind = \"file\"\npath = \"/x\"\nlines = 0",
            "test.toml:4: page[1].lines: expected an integer from 1 to 100, found the integer 0"
        ),
        (
            "[[page]]\nkind = \"image\"\npath = \"missing.pbm\"",
            "test.toml:3: page[1].path: cannot read the image: could not open missing.pbm: No such file or directory (ENOENT, errno 2); a folder on the path does not exist"
        ),
        (
            "[[page]]\nkind = \"gauge\"\nsource = \"hostname\"",
            "test.toml:3: page[1].source: \"hostname\" is not a number a gauge can show"
        ),
        (
            "[[page]]\nkind = \"gauge\"\nsource = \"load\"\nmin = 5\nmax = 1",
            "test.toml:5: page[1].max: must be greater than min (5.0), found 1.0"
        ),
        (
            "[[page]]\nkind = \"gauge\"\nsource = \"load\"\nstyle = \"pie\"",
            "test.toml:4: page[1].style: expected one of \"bar\" or \"dial\", found \"pie\""
        ),
        (
            "[[page]]\nkind = \"text\"\ntext = \"a\"\n[[page]]\nkind = \"text\"\ntext = 5",
            "test.toml:6: page[2].text: expected a string in quotes, found the integer 5"
        ),
        ("display = 1", "test.toml:1: display: expected a table ([display] or { ... }), found the integer 1"),
        ("page = 1", "test.toml:1: page: expected [[page]] tables, found the integer 1"),
        (
            "[dispaly]\nbus = 1",
            "test.toml:1: dispaly: unknown key (did you mean 'display'?); known keys here: display, crown, indicator, timer, pager, mqtt, web, page"
        ),
        ("[display]\nbus = 1\nbus = 2", "test.toml:3: column 1: the key 'bus' is defined twice: first on line 2"),
        (
            "[display]\nwake = 07:30",
            "test.toml:2: column 8: dates and times are not supported in this configuration: write the value as a string, e.g. \"07:30\""
        ),
    ]

    @Test func everyErrorNamesFileLineKeyAndExpectation() {
        for (text, expected) in Self.cases {
            do {
                _ = try parseConfiguration(text)
                Issue.record("no error for:\n\(text)")
            } catch {
                #expect(error.description == expected, "for:\n\(text)")
            }
        }
    }

    /// Reading on past each mistake finds a file's one mistake alone: nothing else follows from it.
    @Test func checkingFindsEachSingleMistakeAndNothingElse() {
        for (text, expected) in Self.cases {
            do throws(ConfigErrors) {
                _ = try Configuration(checking: text, file: "test.toml")
                Issue.record("no error for:\n\(text)")
            } catch {
                #expect(error.errors.map { $0.description } == [expected], "for:\n\(text)")
                #expect(error.stoppedReading == error.errors.allSatisfy { $0.key.isEmpty }, "for:\n\(text)")
            }
        }
    }

    /// Mistakes in one table, in others, in pages and of unknown keys: all of them, in line order.
    @Test func checkingFindsEveryMistakeInLineOrder() {
        let text = """
            [dispaly]
            bus = 1
            [display]
            brightness = 300
            rotation = 90
            dim_after = "soon"
            off_after = "1min"
            [crown]
            wrap = "yes"
            [[page]]
            kind = "file"
            path = "/var/log/syslog"
            refersh = "1s"
            [[page]]
            kind = "txt"
            [[page]]
            kind = "gauge"
            source = "load"
            min = 5
            max = 1
            [[page]]
            kind = "system"
            values = ["uptiem", "load 5", "ip"]
            """
        do throws(ConfigErrors) {
            _ = try Configuration(checking: text, file: "test.toml")
            Issue.record("no error")
        } catch {
            #expect(!error.stoppedReading)
            #expect(
                error.errors.map { "\($0.line) \($0.key)" } == [
                    "1 dispaly", "4 display.brightness", "5 display.rotation", "6 display.dim_after", "9 crown.wrap",
                    "13 page[1].refersh", "15 page[2].kind", "20 page[3].max", "23 page[4].values",
                    "23 page[4].values",
                ])
            #expect(error.errors[5].message.hasPrefix("unknown key (did you mean 'refresh'?)"))
            #expect(error.errors[8].message.hasPrefix("unknown system value \"uptiem\""))
            #expect(error.errors[9].message == "\"load\" takes no argument, found \"load 5\"")
            // `run` stops at the first it reads, one of them.
            let all = error.errors
            do throws(ConfigError) {
                _ = try parseConfiguration(text)
                Issue.record("run accepted it")
            } catch {
                #expect(all.contains(error))
            }
        }
    }

    @Test(.tags(.endToEnd)) func checkExitsNonZeroWithTheMessageAndLeavesTheFileAlone() throws {
        let scratch = try ScratchDirectory()
        let path = scratch.path + "/crownpager.toml"
        let text = "[display]\nbrightness = 300\n"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        let run = try runCrownPager(["check", path])
        #expect(run.status == 78)  // EX_CONFIG
        #expect(
            run.standardError
                == "crownpager: \(path):2: display.brightness: expected an integer from 0 to 100, found the integer 300\n"
        )
        #expect(try String(contentsOfFile: path, encoding: .utf8) == text)
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path) == ["crownpager.toml"])

        let good = try runCrownPager([
            "check", scratch.path + "/../" + (scratch.path as NSString).lastPathComponent + "/crownpager.toml",
        ])
        #expect(good.status == 78)
        let builtIn = try runCrownPager(["check"])
        #expect(builtIn.status == 0 && builtIn.standardOutput.contains("page 5: Disk / (gauge)"))
        let printed = try runCrownPager(["check", "--print-default"])
        #expect(printed.standardOutput == Configuration.builtInText + "\n")
        let missing = try runCrownPager(["check", scratch.path + "/nope.toml"])
        #expect(missing.status == 66 && missing.standardError.contains("nope.toml: No such file or directory"))
        let runBad = try runCrownPager(["run", "--config", path])
        #expect(runBad.status == 78 && runBad.standardError.contains(":2: display.brightness"))
    }

    @Test(.tags(.endToEnd)) func checkPrintsEveryMistakeWithFileLineAndKey() throws {
        let scratch = try ScratchDirectory()
        let path = scratch.path + "/crownpager.toml"
        let text = "[display]\nbrightness = 300\n\n[crown]\nside = \"rigth\"\n[[page]]\nkind = \"text\"\ntext = 5\n"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        let run = try runCrownPager(["check", path])
        #expect(run.status == 78)  // EX_CONFIG
        #expect(
            run.standardError == """
                crownpager: \(path):2: display.brightness: expected an integer from 0 to 100, found the integer 300
                crownpager: \(path):5: crown.side: expected one of "right", "left" or "bottom", found "rigth" (did you mean "right"?)
                crownpager: \(path):8: page[1].text: expected a string in quotes, found the integer 5

                """)
        #expect(run.standardOutput.isEmpty)
        let runBad = try runCrownPager(["run", "--config", path])
        #expect(
            runBad.status == 78
                && runBad.standardError.hasPrefix("crownpager: \(path):2: display.brightness: expected an integer")
                && !runBad.standardError.contains("crown.side"))

        // A syntax error stops the reading, and says so.
        try "[display]\nbrightness = 300\nrotation = = 90\n".write(toFile: path, atomically: true, encoding: .utf8)
        let syntax = try runCrownPager(["check", path])
        #expect(syntax.status == 78)
        #expect(syntax.standardError.hasPrefix("crownpager: \(path):3: column "))
        #expect(
            syntax.standardError.hasSuffix(
                "\ncrownpager: \(path): the rest of the file is not checked until this syntax error is fixed\n"))
        #expect(!syntax.standardError.contains("brightness"))
    }

    @Test(.tags(.slow)) func mutatedConfigurationsNeverCrash() {
        var generator = SeededGenerator(seed: 2026)
        let base = Array(Configuration.builtInText.utf8)
        let alphabet = Array("[]{}=\"'.,#\n 0123456789abcdefghijklmnopqrstuvwxyz_-%/".utf8)
        var accepted = 0
        for _ in 0..<3000 {
            var bytes = base
            for _ in 0..<Int.random(in: 1...6, using: &generator) {
                let position = Int.random(in: 0..<bytes.count, using: &generator)
                let byte = alphabet.randomElement(using: &generator) ?? 0x20
                switch Int.random(in: 0..<3, using: &generator) {
                case 0: bytes.insert(byte, at: position)
                case 1: bytes.remove(at: position)
                default: bytes[position] = byte
                }
            }
            let text = String(decoding: bytes, as: UTF8.self)
            // Reading on past mistakes finds the same file good, or finds the first mistake among others.
            var found: [ConfigError] = []
            do throws(ConfigErrors) { _ = try Configuration(checking: text, file: "fuzz.toml") } catch {
                found = error.errors
            }
            do {
                _ = try Configuration(parsing: text, file: "fuzz.toml")
                accepted += 1
                #expect(found.isEmpty, "\(found)")
            } catch {
                #expect(error.file == "fuzz.toml" && error.line >= 1 && !error.message.isEmpty)
                #expect(found.contains(error), "\(error) not among \(found)")
            }
        }
        #expect(accepted > 0 && accepted < 3000)
    }
}
