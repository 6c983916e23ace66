/// Something about a pager that works but goes against the guidelines; the app shows it to its author.
public enum PagerWarning: Hashable, Sendable, CustomStringConvertible {
    /// More pages than can be counted at a glance ("More than about 10 dots are hard to count").
    case tooManyPages(count: Int, limit: Int)
    /// More than two kinds of indicator image ("tends to look messy and haphazard"), with the pages that differ.
    case tooManyIndicatorImages(kinds: Int, pages: [Int], titles: [String])

    /// The guidelines' limit on pages shown as peers.
    public static let pageLimit = 10

    /// A sentence naming the pages and what to do.
    public var description: String {
        switch self {
        case .tooManyPages(let count, let limit):
            return "\(count) pages: more than about \(limit) dots are hard to count at a glance; "
                + "a long press of the crown opens the list of page titles"
        case .tooManyIndicatorImages(let kinds, let pages, let titles):
            let named = zip(pages, titles).map { "\($0 + 1) (\($1))" }.joined(separator: ", ")
            return "\(kinds) different indicator images look messy; use at most two "
                + "(the dot and one special image). Pages with their own image: \(named)"
        }
    }

    /// The warnings for `pages` shown with `images`.
    public static func check<Page: PageContent>(pages: [Page], images: PageIndicatorImages) -> [PagerWarning] {
        var warnings: [PagerWarning] = []
        if pages.count > pageLimit { warnings.append(.tooManyPages(count: pages.count, limit: pageLimit)) }
        let kinds = images.kinds(numberOfPages: pages.count)
        if kinds.count > 2 {
            let special = kinds.specialPages
            warnings.append(
                .tooManyIndicatorImages(
                    kinds: kinds.count, pages: special, titles: special.map { pages[$0].title }))
        }
        return warnings
    }
}
