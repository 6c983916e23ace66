import CrownVocabulary

extension PageNavigator {
    /// Goes to `page` without the crown: a page asked for from elsewhere (`crownpager show`) or
    /// the app's home after idle. The title list closes if it is open; the page comes with the
    /// slide a turn makes when `animated`, at once otherwise. Returns what changed: nothing when
    /// `page` is the current one (but the list closed) or does not exist.
    public mutating func goToPage(_ page: Int, at instant: Timestamp, animated: Bool = true) -> [PagerEvent] {
        guard pager.pages.indices.contains(page) else { return [] }
        var events: [PagerEvent] = []
        if overview != nil {
            overview = nil
            events.append(.overviewClosed(at: instant))
        }
        guard page != currentPage else { return events }
        return events + show(page, at: instant, animated: animated, interaction: .discrete)
    }
}
