import CrownVocabulary
import PagerCore
import SSD1306

/// What the command line says about a run, laid over the configuration: a flag given wins over
/// the file, a flag left out keeps the file's value. Applied again after every SIGHUP reload.
///
/// A flag that overrides a setting of the table is a `SettingOverride` (`set(_:_:)`); the rest
/// are flags of the run alone, with no key in the file.
package struct RunOverrides: Sendable {
    /// The settings the flags give, applied in the table's order (`--sensitivity` before `--detents-per-page`).
    package private(set) var settings: [SettingOverride] = []
    /// `--mock`: the emulator drawn in this terminal, whatever the file and the bus flags say.
    package var mock = false
    /// `--contrast`, 0 to 255.
    package var contrast: Int?
    /// `--invert`.
    package var inverted = false
    /// `--chip`, `--evdev` or `--keyboard`.
    package var crown: CrownChoice?
    /// `--display-only`.
    package var displayOnly = false
    /// `--indicator-image`, loaded.
    package var indicatorImage: IndicatorImage?
    /// `--page-image P=IMAGE`, loaded; pages count from 0.
    package var pageImages: [(page: Int, image: IndicatorImage)] = []

    /// No overrides: the configuration as it is.
    package init() {}

    /// Overrides `setting` with `value`; a later value for the same setting wins.
    package mutating func set<Value>(_ setting: Setting<Value>, _ value: Value) {
        replace(with: SettingOverride(setting, value))
    }

    /// Overrides the settings `arguments` name by their flags in the table (`--sensitivity low`,
    /// `--max-dots=5`, `--wrap`), in order: what `run` and `render` leave to the table. A flag that
    /// sets a value alone (`--wrap`) takes none.
    package mutating func set(flags arguments: [String]) throws(SettingFlagError) {
        var next = 0
        while next < arguments.count {
            let argument = arguments[next]
            next += 1
            let (name, attached) = Self.split(argument)
            guard name.hasPrefix("--"),
                let row = Settings.rows.first(where: { $0.description.flag?.name == name }),
                let flag = row.description.flag
            else { throw .unknown(argument) }
            let value: String
            if let setsValue = flag.setsValue {
                guard attached == nil else { throw .unknown(argument) }
                value = setsValue
            } else if let attached {
                value = attached
            } else {
                guard next < arguments.count else { throw .missingValue(flag: name) }
                value = arguments[next]
                next += 1
            }
            do {
                replace(with: try row.override(value))
            } catch {
                throw .refused(error)
            }
        }
    }

    /// `override` in place of any earlier value for its setting: a later flag wins.
    private mutating func replace(with override: SettingOverride) {
        settings.removeAll { $0.key == override.key }
        settings.append(override)
    }

    /// `--flag=value` as the flag and its value; a lone flag with no value.
    private static func split(_ argument: String) -> (name: String, value: String?) {
        guard argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") else { return (argument, nil) }
        return (String(argument[..<equals]), String(argument[argument.index(after: equals)...]))
    }

    /// `configuration` with every flag given laid over it.
    package func applied(to configuration: Configuration) -> Configuration {
        var result = configuration
        for row in Settings.rows {
            for setting in settings where setting.key == row.description.key { setting.apply(&result) }
        }
        if mock { result.display.bus = nil }
        if let contrast { result.display.contrast = contrast }
        if inverted { result.display.isInverted = true }
        if displayOnly { result.isDisplayOnly = true }
        return result
    }
}
