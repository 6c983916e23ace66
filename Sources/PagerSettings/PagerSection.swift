import CrownVocabulary
import PagerConfig

/// `[pager]`: where the pager goes by itself.
package struct PagerSection: Hashable, Sendable {
    /// The page `return_home_after` returns to.
    package var home: PageReference = Settings.pagerHome.defaultValue
    /// How long without a turn or press before the pager returns to `home`; nil never.
    package var returnHomeAfter: TimeSpan? = Settings.pagerReturnHomeAfter.defaultValue
}

/// A page as a setting names it: its number, counted from 1 as the file reads, or its title.
package enum PageReference: Hashable, Sendable {
    /// The page at this place in the file, from 1.
    case number(Int)
    /// The first page with this title.
    case title(String)

    /// The page's index, from 0, among `pages`; nil when none fits.
    package func index(in pages: [PageSpec]) -> Int? {
        switch self {
        case .number(let number): return pages.indices.contains(number - 1) ? number - 1 : nil
        case .title(let title): return pages.firstIndex { $0.title == title }
        }
    }

    /// As the file writes it: `1`, `"Clock"`.
    var toml: String {
        switch self {
        case .number(let number): return String(number)
        case .title(let title): return "\"" + title + "\""
        }
    }
}

extension Settings {
    /// `[pager]`: where the pager goes by itself.
    package static let pagerHome = Setting<PageReference>(
        "pager.home", .special(described: "a page's number from 1, or its title in quotes"), pageReferenceCodec,
        default: PageReference.number(1),
        "The page return_home_after goes back to: its number from 1 as the pages are written, or its title"
    ) { $0.pager.home = $1 }
    package static let pagerReturnHomeAfter = Setting<TimeSpan?>(
        "pager.return_home_after", .duration(minimumMilliseconds: 1000, allowsNever: true), never, default: nil,
        "After this long without a turn or press, back to the home page (watchOS waits 2min); a stay page is never left"
    ) { $0.pager.returnHomeAfter = $1 }

    /// `home = 2` or `home = "Clock"`; a number from 1.
    static let pageReferenceCodec = SettingCodec<PageReference>(
        read: { (table: inout ConfigTable, key: String, type: SettingType) throws(ConfigError) -> PageReference? in
            guard let value = table.value(key) else { return nil }
            switch value {
            case .integer(let number) where number >= 1 && number <= 10_000: return .number(Int(number))
            case .string(let title) where !title.isEmpty: return .title(title)
            default:
                return try table.invalid(table.error(key, "expected \(type.allowed), found \(describeFound(value))"))
            }
        },
        toml: { $0.toml },
        parse: { text, _ in
            if let number = Int(text) { return number >= 1 ? .number(number) : nil }
            return text.isEmpty ? nil : .title(text)
        })
}

extension Configuration {
    /// What is wrong with `pager.home` among the pages, with the fix; nil when it names one of them.
    package var homeProblem: String? {
        guard pager.home.index(in: pages) == nil else { return nil }
        let titles = pages.map { "\"" + $0.title + "\"" }.joined(separator: ", ")
        switch pager.home {
        case .number(let number):
            return "there is no page \(number): use a number from 1 to \(pages.count), or a title (\(titles))"
        case .title(let title):
            return "no page is titled \"\(title)\": use one of \(titles), or a number from 1 to \(pages.count)"
        }
    }

    /// The home page's index, from 0: `pager.home`, or the first page when it names none.
    package var homeIndex: Int { pager.home.index(in: pages) ?? 0 }
}
