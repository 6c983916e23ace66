import CrownVocabulary

extension PageNavigator {
    /// Goes to `page` without the crown (the app's home after idle): the title list closes, a
    /// slide when `animated`, at once otherwise. Returns what it did; nothing when `page` shows already.
    public mutating func returnHome(to page: Int, at instant: Timestamp, animated: Bool) -> [PagerEvent] {
        var events: [PagerEvent] = []
        if overview != nil {
            overview = nil
            events.append(.overviewClosed(at: instant))
        }
        guard page != currentPage else { return events }
        return events + show(page, at: instant, animated: animated, interaction: .discrete)
    }
}
