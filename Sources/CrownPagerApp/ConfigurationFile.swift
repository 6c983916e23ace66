import LinuxHardware
import PagerConfig
import PagerCore
import PagerEngine
import PagerSettings

extension Configuration {
    /// The usual place of the configuration file on a Pi.
    package static let systemPath = "/etc/crownpager/crownpager.toml"

    /// Reads a configuration from TOML `text`, its pictures from the file system
    /// (`init(parsing:file:directory:files:)`).
    package init(parsing text: String, file: String, directory: String = ".") throws(ConfigError) {
        try self.init(parsing: text, file: file, directory: directory, files: FileSystemFiles())
    }

    /// Reads a configuration from TOML `text` going on past each mistake, its pictures from the
    /// file system (`init(checking:file:directory:files:)`).
    package init(checking text: String, file: String, directory: String = ".") throws(ConfigErrors) {
        try self.init(checking: text, file: file, directory: directory, files: FileSystemFiles())
    }

    /// Reads and checks the file at `path`; the error names the file, line and key. The file is only read.
    package static func load(path: String) throws(CrownPagerError) -> Configuration {
        let text = try TextFile.read(path, limit: 1 << 20)
        do {
            return try Configuration(parsing: text, file: path, directory: directory(of: path))
        } catch {
            throw .configuration(error)
        }
    }

    /// Reads the file at `path` as `load(path:)` does, going on past each mistake (`crownpager
    /// check`): the configuration, or every mistake; throws when the file cannot be read.
    package static func check(path: String) throws(CrownPagerError) -> Result<Configuration, ConfigErrors> {
        let text = try TextFile.read(path, limit: 1 << 20)
        do throws(ConfigErrors) {
            return .success(try Configuration(checking: text, file: path, directory: directory(of: path)))
        } catch {
            return .failure(error)
        }
    }

    /// The folder relative paths in the file at `path` start from.
    private static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// The indicator's style, with its images loaded.
    package func indicatorStyle() throws(CrownPagerError) -> PageIndicatorStyle {
        var style = PageIndicatorStyle(
            maximumVisibleDots: indicator.maximumDots, hidesForSinglePage: indicator.hidesForSinglePage,
            crownSide: crown.side, backgroundStyle: indicator.style)
        if let image = indicator.image {
            style.images.preferredIndicatorImage = try IndicatorImageFile.load(resolve(image), cell: style.cellSize)
        }
        for (index, page) in pages.enumerated() {
            guard let image = page.indicatorImage else { continue }
            style.images.setIndicatorImage(
                try IndicatorImageFile.load(resolve(image), cell: style.cellSize), forPage: index)
        }
        return style
    }

    /// A summary for `crownpager check`: one line per page.
    package var summary: [String] {
        let reset = display.resetLine.map { "RES GPIO\($0)" } ?? "RES not wired"
        let placement =
            display.bus == nil
            ? "on the terminal mock"
            : display.spi.map { "on \($0.path) (DC GPIO\(display.dataCommandLine), \(reset))" }
                ?? "at \(display.address) on /dev/i2c-\(display.bus ?? 1)"
        var lines = [
            "\(file): ok",
            "display: \(display.panel.name) \(placement)"
                + ", brightness \(display.brightness)",
            "crown: \(crown.source) \(crown.source == "gpio" ? "\(crown.chip) lines \(crown.lineA)/\(crown.lineB)/\(crown.lineButton)" : crown.source == "evdev" ? crown.evdevPath : "")",
        ]
        for (index, page) in pages.enumerated() {
            let action = page.action.map {
                ", a \($0.confirmation == .hold ? "long press" : "press") runs "
                    + $0.command.argv.joined(separator: " ") + ($0.confirmation == .press ? " (asked twice)" : "")
            }
            lines.append("page \(index + 1): \(page.title) (\(page.kindName))" + (action ?? ""))
        }
        if let after = pager.returnHomeAfter {
            let home = homeIndex
            lines.append(
                "home: page \(home + 1) (\(pages.indices.contains(home) ? pages[home].title : "?")) after "
                    + SettingType.durationText(after.milliseconds) + " untouched")
        }
        return lines
    }
}

extension PageSpec {
    /// `text`, `clock`, `system`...
    package var kindName: String {
        switch kind {
        case .text: return "text"
        case .clock: return "clock"
        case .system: return "system"
        case .command(let command): return "command: " + command.argv.joined(separator: " ")
        case .file(let path, _, _): return "file: " + path
        case .image(let image): return "image: " + image.path
        case .gauge: return "gauge"
        }
    }
}
