import LinuxSystem
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

    /// The indicator's style, with its images loaded from the file system (`indicatorStyle(files:)`).
    package func indicatorStyle() throws(CrownPagerError) -> PageIndicatorStyle {
        do throws(ImageFileError) {
            return try indicatorStyle(files: FileSystemFiles())
        } catch {
            throw .image(error)
        }
    }
}
