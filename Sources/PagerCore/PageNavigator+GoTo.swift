import CrownVocabulary

extension PageNavigator {
    /// Goes to `page` as a press in the title list does, but with the slide a turn makes (a page
    /// asked for from elsewhere, such as `crownpager show`); the title list closes if it is open.
    /// Returns what changed: nothing when `page` is the current one or does not exist.
    public mutating func goToPage(_ page: Int, at instant: Timestamp) -> [PagerEvent] {
        guard pager.pages.indices.contains(page) else { return [] }
        var events: [PagerEvent] = []
        if overview != nil {
            overview = nil
            events.append(.overviewClosed(at: instant))
        }
        return events + show(page, at: instant, animated: true, interaction: .discrete)
    }
}
