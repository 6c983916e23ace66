import CrownInput
import CrownVocabulary
import PagerConfig
import PagerCore
import PagerGraphics
import SSD1306

extension Configuration {
    /// Reads a configuration from TOML `text`; `file` names it in errors, `directory` anchors relative paths,
    /// and `files` reads the pictures it names (image pages, indicator images), which are checked now.
    ///
    /// Sections and keys left out keep their defaults; an empty file means the built-in pages.
    package init(parsing text: String, file: String, directory: String = ".", files: some FileReading)
        throws(ConfigError)
    {
        try self.init(
            root: Self.root(parsing: text, file: file), file: file, directory: directory, files: files, problems: nil)
    }

    /// Reads a configuration as `init(parsing:file:directory:files:)` does, but goes on past each
    /// mistake and throws them all (`crownpager check`): a wrong value reads as its default, a page
    /// that cannot be read is left out. A syntax error stops the reading; it is then the only error.
    package init(checking text: String, file: String, directory: String = ".", files: some FileReading)
        throws(ConfigErrors)
    {
        let root: TOMLTable
        do throws(ConfigError) { root = try Self.root(parsing: text, file: file) } catch {
            throw ConfigErrors([error], stoppedReading: true)
        }
        let problems = ConfigProblems()
        var configuration = Configuration()
        do {
            configuration = try Configuration(
                root: root, file: file, directory: directory, files: files, problems: problems)
        } catch {
            problems.record(error)
        }
        guard problems.errors.isEmpty else { throw ConfigErrors(problems.errors) }
        self = configuration
    }

    /// The TOML document `text`; a syntax error names `file`.
    private static func root(parsing text: String, file: String) throws(ConfigError) -> TOMLTable {
        do {
            return try TOMLParser.parse(text)
        } catch {
            throw ConfigError(file: file, syntax: error)
        }
    }

    /// Reads `root`; `problems` collects the mistakes, or nil throws the first.
    private init(root: TOMLTable, file: String, directory: String, files: some FileReading, problems: ConfigProblems?)
        throws(ConfigError)
    {
        self.init()
        self.file = file
        self.directory = directory
        var top = ConfigTable(root, path: "", file: file, problems: problems)
        if var table = try top.table("display") { try Self.read("display", &table, into: &self) }
        if let name = display.font?.name {
            display.font = try top.collecting { () throws(ConfigError) in
                try Self.loadFont(name, directory: directory, files: files) { (message: String) in
                    ConfigError(
                        file: file, line: Self.line(of: "font", in: "display", root), key: "display.font",
                        message: message)
                }
            }
        }
        for section in ["crown", "indicator", "timer", "pager", "mqtt", "web"] {
            if var table = try top.table(section) { try Self.read(section, &table, into: &self) }
        }
        // Each page with its number in the file, for messages: a page that cannot be read is left out when collecting.
        var numbered: [(number: Int, page: PageSpec)] = []
        var pagesLeftOut = false
        if let tables = try top.tables("page") {
            if tables.isEmpty { try top.report(top.error("page", "expected at least one [[page]]")) }
            for (index, var table) in tables.enumerated() {
                let read = try top.collecting { () throws(ConfigError) in
                    try PageSpec(reading: &table, directory: directory, files: files)
                }
                guard var page = read else {
                    pagesLeftOut = true
                    continue
                }
                page.font = page.font ?? display.font
                numbered.append((index + 1, page))
            }
            pages = numbered.map { $0.page }
        } else {
            pages = Configuration.builtIn.pages
            numbered = pages.enumerated().map { ($0.offset + 1, $0.element) }
        }
        try top.finish(section: "")
        // Pages left out for their mistakes would make the numbers wrong: the home is checked against all of them.
        if let problem = homeProblem, !top.isInvalid("pager.home"), !pagesLeftOut {
            try top.report(
                ConfigError(
                    file: file, line: Self.line(of: "home", in: "pager", root), key: "pager.home", message: problem))
        }
        let mqttProblems = (mqttCertificateProblem.map { [$0] } ?? []) + mqttTopicProblems
        for problem in mqttProblems where !top.isInvalid("mqtt.\(problem.key)") {
            let line = Self.line(of: problem.key, in: "mqtt", root)
            try top.report(ConfigError(file: file, line: line, key: "mqtt.\(problem.key)", message: problem.message))
        }
        for problem in webProblems where !top.isInvalid("web.\(problem.key)") {
            let line = Self.line(of: problem.key, in: "web", root)
            try top.report(ConfigError(file: file, line: line, key: "web.\(problem.key)", message: problem.message))
        }
        warnings = webWarnings.map {
            ConfigError(
                file: file, line: Self.line(of: $0.key, in: "web", root), key: "web.\($0.key)", message: $0.message)
        }
        // Indicator images are checked against the indicator's cell now, so `check` reports them.
        let cell = PageIndicatorStyle().cellSize
        if let image = indicator.image {
            do throws(ImageFileError) { _ = try IndicatorImageFile.load(resolve(image), cell: cell, from: files) } catch
            {
                try top.report(
                    ConfigError(
                        file: file, line: Self.line(of: "image", in: "indicator", root), key: "indicator.image",
                        message: error.description))
            }
        }
        for (number, page) in numbered {
            guard let image = page.indicatorImage else { continue }
            do throws(ImageFileError) { _ = try IndicatorImageFile.load(resolve(image), cell: cell, from: files) } catch
            {
                try top.report(
                    ConfigError(
                        file: file, line: page.line, key: "page[\(number)].indicator_image", message: error.description)
                )
            }
        }
    }

    /// The line of `key` in the table `section`, or of the table when the key is absent; 1 when neither is there.
    private static func line(of key: String, in section: String, _ root: TOMLTable) -> Int {
        let line = root[section]?.line ?? 1
        guard case .table(let table)? = root[section]?.value else { return line }
        return table[key]?.line ?? line
    }

    /// The font `name` names (`FontFile.load`), a path resolved against `directory`; `error` makes
    /// the message a configuration error at the setting's line.
    static func loadFont(
        _ name: String, directory: String, files: some FileReading, error: (String) -> ConfigError
    ) throws(ConfigError) -> ConfiguredFont {
        let isBuiltIn = FontFile.builtIn.contains { $0.name == name }
        let path = isBuiltIn ? name : resolve(name, in: directory)
        do throws(FontLoadError) {
            return ConfiguredFont(name: path, font: try FontFile.load(path, from: files))
        } catch let failure {
            throw error(failure.description)
        }
    }

    /// A path from the file, relative to the file's folder unless absolute (built-in image names pass through).
    package func resolve(_ path: String) -> String {
        Self.resolve(path, in: directory)
    }

    static func resolve(_ path: String, in directory: String) -> String {
        guard !path.hasPrefix("/"), path.contains("/") || path.contains(".") else { return path }
        return directory == "." ? path : directory + "/" + path
    }

    /// Reads the settings of `section` (`display`, `crown`) and of the tables within it, in the
    /// table's order, into `configuration`; `check` then compares keys of a table once it is read.
    private static func read(
        _ section: String, _ table: inout ConfigTable, into configuration: inout Configuration
    ) throws(ConfigError) {
        let prefix = section + "."
        for name in ConfigurationSetting.keys(in: section) {
            if let row = Settings.rows.first(where: { $0.description.key == prefix + name }) {
                try row.read(&table, &configuration)
            } else if var inner = try table.table(name) {
                try read(prefix + name, &inner, into: &configuration)
                try check(prefix + name, in: table, configuration)
            }
        }
        try table.finish(section: section)
        // A table within (`crown.lines`) is checked from the table holding it, where its key's line is.
        if !section.contains(".") { try check(section, in: table, configuration) }
    }

    /// The rules between settings of `section`, once its `table` is read; a key whose value was
    /// wrong is not compared.
    private static func check(_ section: String, in table: ConfigTable, _ configuration: Configuration)
        throws(ConfigError)
    {
        switch section {
        case "display":
            let display = configuration.display
            let dim = Settings.displayDimAfter.description.name
            let off = Settings.displayOffAfter.description.name
            if let dimAfter = display.dimAfter, let offAfter = display.offAfter, offAfter < dimAfter,
                !table.isInvalid(dim), !table.isInvalid(off)
            {
                try table.report(table.error(off, "must not come before dim_after"))
            }
        case Settings.crownLineA.description.section:
            // `table` is `[crown]`, which holds `lines`.
            let crown = configuration.crown
            let lines = [Settings.crownLineA, Settings.crownLineB, Settings.crownLineButton]
            let linesKey = String(section.split(separator: ".").last ?? "")
            let readable = lines.allSatisfy { !table.isInvalid(linesKey + "." + $0.description.name) }
            if Set([crown.lineA, crown.lineB, crown.lineButton]).count < 3, readable {
                try table.report(
                    table.error(
                        linesKey,
                        "a, b and button must be three different lines, found \(crown.lineA), \(crown.lineB), \(crown.lineButton)"
                    ))
            }
        default:
            break
        }
    }
}
