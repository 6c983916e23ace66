import PagerConfig

extension ConfigurationSetting {
    /// `crownpager.toml(5)`: every setting as a man page (roff), from the table (`crownpager check --print-manual`).
    package static var manual: String {
        var lines = [
            ".TH CROWNPAGER.TOML 5 \"\" \"CrownPager\" \"File Formats Manual\"",
            ".SH NAME",
            "crownpager.toml \\- the configuration file of crownpager",
            ".SH SYNOPSIS",
            ".B /etc/crownpager/crownpager.toml",
            ".SH DESCRIPTION",
            ".BR crownpager (1)",
            roffText(
                "reads a TOML 1.0 file: the tables [display], [crown] (with [crown.lines]), [indicator], [timer] and [pager], "
                    + "then one [[page]] table a page, in order. A key left out keeps its default; an unknown key "
                    + "or a wrong value is an error naming the file, line and key."),
            ".PP",
            roffText(
                "crownpager check FILE reports every mistake of a file; crownpager check --print-default prints "
                    + "the built-in configuration, a file to start from. On SIGHUP the file is read again and "
                    + "every setting applies but those marked restart."),
            ".SH SETTINGS",
        ]
        var table = ""
        for setting in all where !setting.isPageKey {
            if setting.section != table {
                table = setting.section
                lines.append(".SS [" + table + "]")
            }
            lines.append(contentsOf: entry(setting, name: table == "crown.lines" ? setting.name : setting.name))
        }
        lines.append(".SH PAGES")
        lines.append(
            roffText(
                "Each [[page]] takes kind and the keys of its kind: "
                    + PageSpec.kinds.joined(separator: ", ") + ". Without any [[page]], the built-in pages show."))
        for setting in all where setting.isPageKey {
            lines.append(contentsOf: entry(setting, name: setting.name))
        }
        lines.append(contentsOf: [
            ".SH FILES",
            ".TP",
            ".I /etc/crownpager/crownpager.toml",
            roffText("The file the service reads (crownpager run --config)."),
            ".SH SEE ALSO",
            ".BR crownpager (1)",
        ])
        return lines.joined(separator: "\n") + "\n"
    }

    /// A tagged paragraph: the key, then what it does, takes and defaults to.
    private static func entry(_ setting: ConfigurationSetting, name: String) -> [String] {
        var facts = "Takes " + setting.type.allowed + "."
        if let value = setting.defaultValue { facts += " Default: " + value + "." }
        if let flag = setting.flag {
            facts += " Flag: " + flag.name + (flag.setsValue.map { " (sets " + $0 + ")" } ?? "") + "."
        }
        if !setting.reloadable { facts += " A reload does not change it: restart." }
        if setting.isPageKey, setting.pageKinds != PageSpec.kinds {
            facts += " Pages of kind " + setting.pageKinds.joined(separator: ", ") + "."
        }
        return [".TP", ".B " + name, roffText(setting.documentation + "."), ".br", roffText(facts)]
    }

    /// Text as a roff line: backslashes escaped, and a line that would start with a control character guarded.
    package static func roffText(_ text: String) -> String {
        var result = ""
        var previous: Character = " "
        for character in text {
            switch character {
            case "\\": result += "\\e"
            // A flag's hyphens (--wrap) are minus signs to roff, so the page can be searched and copied;
            // a hyphen inside a word (7-bit) stays one.
            case "-" where previous == " " || previous == "-" || previous == "(": result += "\\-"
            default: result.append(character)
            }
            previous = character
        }
        return result.hasPrefix(".") || result.hasPrefix("'") ? "\\&" + result : result
    }
}
