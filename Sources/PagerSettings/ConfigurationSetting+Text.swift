import PagerConfig

extension ConfigurationSetting {
    /// The column the comments of the default file start at.
    static let commentColumn = 26

    /// The settings part of the default file: every table and key with its default (or, commented
    /// out, an example) and its documentation as a comment; then the keys of a `[[page]]`, as comments.
    package static var defaultFileText: String {
        var lines: [String] = []
        var table = ""
        for setting in all where !setting.isPageKey {
            let tableName = String(setting.key.split(separator: ".").first ?? "")
            if tableName != table {
                if !table.isEmpty { lines.append("") }
                lines.append("[" + tableName + "]")
                table = tableName
            }
            let name = String(setting.key.dropFirst(tableName.count + 1))
            let value = setting.defaultValue ?? setting.example ?? "\"\""
            let assignment = (setting.defaultValue == nil ? "# " : "") + name + " = " + value
            lines.append(commented(assignment, setting.fileComment))
        }
        lines.append("")
        lines.append("# Pages: one [[page]] table each, in order. The keys a page takes:")
        for setting in all where setting.isPageKey {
            let value = setting.defaultValue ?? setting.example ?? "\"\""
            let kinds =
                setting.pageKinds == PageSpec.kinds ? "" : " [" + setting.pageKinds.joined(separator: ", ") + "]"
            lines.append(commented("#   " + setting.name + " = " + value, setting.fileComment + kinds))
        }
        return lines.joined(separator: "\n")
    }

    /// The comment after the setting in the default file.
    var fileComment: String {
        reloadable ? documentation : documentation + " (restart)"
    }

    private static func commented(_ assignment: String, _ comment: String) -> String {
        let padding = max(1, commentColumn - assignment.count)
        return assignment + String(repeating: " ", count: padding) + "# " + comment
    }

    /// The configuration article's reference: a Markdown table of every setting (`crownpager check --print-reference`).
    package static var reference: String {
        var lines = [
            "| Key | Takes | Default | Flag | Reload | What it does |",
            "|---|---|---|---|---|---|",
        ]
        for setting in all {
            let key = setting.isPageKey ? "`[[page]]` `\(setting.name)`" : "`\(setting.key)`"
            let defaultText = setting.defaultValue.map { "`\($0)`" } ?? ""
            let flag = setting.flag.map { flag in
                "`" + flag.name + "`" + (flag.setsValue.map { " (sets " + $0 + ")" } ?? "")
            }
            let kinds =
                setting.isPageKey && setting.pageKinds != PageSpec.kinds
                ? "; pages of kind " + setting.pageKinds.joined(separator: ", ") : ""
            let cells = [
                key, markdownCell(setting.type.allowed), defaultText, flag ?? "",
                setting.reloadable ? "yes" : "restart",
                markdownCell(setting.documentation + kinds),
            ]
            lines.append("| " + cells.joined(separator: " | ") + " |")
        }
        return lines.joined(separator: "\n")
    }

    /// Text safe in a Markdown table cell: `|` escaped, `*` and `_` left alone inside words.
    private static func markdownCell(_ text: String) -> String {
        var result = ""
        for character in text {
            switch character {
            case "|": result += "\\|"
            case "*", "<", ">": result += "\\" + String(character)
            default: result.append(character)
            }
        }
        return result
    }
}
