/// The images a page control shows instead of dots: UIKit's `preferredIndicatorImage`,
/// `setIndicatorImage(_:forPage:)` and their current-page variants.
public struct PageIndicatorImages: Hashable, Sendable {
    /// The image for every page that has none of its own; nil keeps the system dot.
    public var preferredIndicatorImage: IndicatorImage?
    /// The image for the current page when it has none of its own; nil draws the page's image solid.
    public var preferredCurrentPageIndicatorImage: IndicatorImage?
    /// Images for specific pages, by page index.
    public private(set) var pageImages: [Int: IndicatorImage] = [:]
    /// Current-page variants for specific pages, by page index.
    public private(set) var currentPageImages: [Int: IndicatorImage] = [:]

    /// No custom images: dots everywhere.
    public init(
        preferredIndicatorImage: IndicatorImage? = nil, preferredCurrentPageIndicatorImage: IndicatorImage? = nil
    ) {
        self.preferredIndicatorImage = preferredIndicatorImage
        self.preferredCurrentPageIndicatorImage = preferredCurrentPageIndicatorImage
    }

    /// Gives `page` its own image (Weather's current-location page); nil goes back to the default.
    public mutating func setIndicatorImage(_ image: IndicatorImage?, forPage page: Int) {
        pageImages[page] = image
    }

    /// Gives `page` its own image while it is the current page; nil goes back to the default.
    public mutating func setCurrentPageIndicatorImage(_ image: IndicatorImage?, forPage page: Int) {
        currentPageImages[page] = image
    }

    /// The image shown for `page` when it is not current; nil is the system dot.
    public func indicatorImage(forPage page: Int) -> IndicatorImage? {
        pageImages[page] ?? preferredIndicatorImage
    }

    /// The image shown for `page` when it is current (drawn solid); nil is the system dot.
    public func currentPageIndicatorImage(forPage page: Int) -> IndicatorImage? {
        if let own = currentPageImages[page] { return own }
        if pageImages[page] == nil, let preferred = preferredCurrentPageIndicatorImage { return preferred }
        return indicatorImage(forPage: page)
    }

    /// True when no page shows anything but the dot.
    public var isEmpty: Bool {
        preferredIndicatorImage == nil && preferredCurrentPageIndicatorImage == nil
            && pageImages.isEmpty && currentPageImages.isEmpty
    }

    /// The distinct kinds of indicator among `numberOfPages` pages (the dot counts as one), and
    /// the pages whose indicator differs from the default, for the "more than two" warning.
    public func kinds(numberOfPages: Int) -> (count: Int, specialPages: [Int]) {
        var names: [String] = []
        var special: [Int] = []
        for page in 0..<max(0, numberOfPages) {
            let name = indicatorImage(forPage: page)?.name ?? "dot"
            if !names.contains(name) { names.append(name) }
            if let own = pageImages[page], own.name != preferredIndicatorImage?.name { special.append(page) }
        }
        return (names.count, special)
    }
}
