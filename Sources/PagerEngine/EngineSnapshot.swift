import CrownVocabulary
import PagerCore
import PagerSettings

/// What a shell may know of the engine at an instant: the page shown, the panel's state, the
/// pacing. The terminal mirror, the service's status and the benchmarks read this, never the
/// engine's state itself.
package struct EngineSnapshot: Hashable, Sendable {
    /// The current page, from 0.
    package var page: Int
    /// The page on the glass at the instant: the current one, or the one a slide leaves.
    package var displayedPage: Int
    /// How many pages there are.
    package var pageCount: Int
    /// The current page's title; empty when there is no page.
    package var title: String
    /// The displayed page's title; empty when there is no page.
    package var displayedTitle: String
    /// What the crown is doing: `list` while the title list shows, else the interaction's name.
    package var interaction: String
    /// Whether a slide or a scroll is moving.
    package var isAnimating: Bool
    /// Bright, dimmed or switched off by the screen saver.
    package var screen: ScreenState
    /// The display stopped answering, and the run retries it.
    package var displayLost: Bool
    /// The time between frames while something moves.
    package var frameInterval: TimeSpan
    /// The bus speed the pacer has learnt from the frames sent.
    package var learntBusHertz: Int
    /// What the crown did over the run, and how much of it the pager took.
    package var crownTally: CrownTally
    /// The notification the overlay shows; nil for none. A notification shown is not idle time.
    package var notification: PagerNotification?
    /// How many notifications wait behind it.
    package var notificationsQueued: Int
    /// The brightness in use, 0 to 100: set remotely, else `display.brightness`.
    package var brightness = 0
    /// Whether the display was switched off remotely (`PagerCommand.display`).
    package var isSwitchedOff = false
    /// Whether the night schedule (`display.night`) has the panel dimmed or off now; false while
    /// a turn lights it at night.
    package var isNight = false

    /// Whether the overlay shows a notification.
    package var isShowingNotification: Bool { notification != nil }
}

extension DeviceEngine {
    /// What a shell may know of the engine at the last instant it handled.
    package var snapshot: EngineSnapshot { snapshot(at: now) }

    /// What a shell may know of the engine at `instant`.
    package func snapshot(at instant: Timestamp) -> EngineSnapshot {
        let pager = presenter.pager
        let displayed = pager.displayedPage(at: instant)
        let controller = presenter.navigator
        return EngineSnapshot(
            page: pager.currentPage, displayedPage: displayed, pageCount: pager.numberOfPages,
            title: pager.pages.indices.contains(pager.currentPage) ? pager.pages[pager.currentPage].title : "",
            displayedTitle: pager.pages.indices.contains(displayed) ? pager.pages[displayed].title : "",
            interaction: controller.overview != nil ? "list" : controller.interactionState.rawValue,
            isAnimating: presenter.isAnimating(at: instant), screen: screen, displayLost: health.isLost,
            frameInterval: pacer.frameInterval, learntBusHertz: pacer.busRate.hertz, crownTally: crownTally,
            notification: notifications.shown?.notification, notificationsQueued: notifications.waiting.count,
            brightness: brightnessInUse, isSwitchedOff: remoteDisplay.isSwitchedOff, isNight: nightHoldsPanel)
    }
}
