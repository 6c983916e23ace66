import ArgumentParser
import PagerEngine
import PagerSettings

extension ArgumentHelp {
    /// The help of a flag that overrides a configuration setting, from the settings table.
    static func setting(_ flag: String, valueName: String? = nil) -> ArgumentHelp {
        ArgumentHelp(ConfigurationSetting.overridden(byFlag: flag)?.flagHelp ?? "", valueName: valueName)
    }
}

/// Checks an integer flag against the range of the setting it overrides, as the file is checked.
func checkRange(_ value: Int?, flag: String) throws(ValidationError) {
    guard let value, let range = ConfigurationSetting.overridden(byFlag: flag)?.integerRange else { return }
    guard range.contains(Int64(value)) else {
        throw ValidationError("\(flag) must be between \(range.lowerBound) and \(range.upperBound), not \(value)")
    }
}
