import CrownVocabulary
import PagerCore
import PagerSettings
import SSD1306

/// The panel as Home Assistant (or another remote client) set it: a brightness in place of
/// `display.brightness`, and the display switched off. Pure state, the engine's to change.
package struct RemoteDisplay: Hashable, Sendable {
    /// The brightness while in use, 0 to 100, set remotely; nil: `display.brightness`.
    package var brightness: Int?
    /// Whether the display was switched off remotely: dark until switched on, or until the crown
    /// wakes it (a turn or press at the pager means someone wants to read it).
    package var isSwitchedOff = false
}

extension DeviceEngine {
    /// The brightness while in use: the one set remotely, else `display.brightness`.
    package var brightnessInUse: Int { remoteDisplay.brightness ?? configuration.display.brightness }

    /// The screen the panel should show now: the screen saver's and the night's, unless switched off remotely.
    @inline(__always) var wantedScreen: ScreenState { remoteDisplay.isSwitchedOff ? .off : idleScreen }

    /// The brightness the panel shows in `state`: dimmed is never brighter than in use.
    func panelPercent(_ state: ScreenState) -> Int {
        let display = configuration.display
        guard state == .dimmed else { return brightnessInUse }
        return remoteDisplay.brightness.map { min($0, display.dimBrightness) } ?? display.dimBrightness
    }

    /// Whether a brightness set remotely is not yet the panel's (set since, or the panel was
    /// initialised afresh at `display.brightness` by a reload or a recovery).
    var remoteBrightnessPending: Bool {
        remoteDisplay.brightness != nil && screen != .off
            && presenter.display.settings.brightness?.percent != panelPercent(screen)
    }

    /// A fact from the crown while switched off remotely switches the display on again; the fact
    /// itself is swallowed, as the screen saver swallows the one that wakes it.
    mutating func crownWakesSwitchedOffDisplay() -> Bool {
        guard remoteDisplay.isSwitchedOff else { return false }
        remoteDisplay.isSwitchedOff = false
        return true
    }

    /// Sets the brightness in use (0 to 100): on the glass at the next frame, which is due at once.
    mutating func setBrightness(_ percent: Int) throws(Refused) {
        guard (0...100).contains(percent) else {
            throw Refused(reason: .badValue, message: "brightness \(percent) is out of range: give 0 to 100")
        }
        remoteDisplay.brightness = percent
        pacer.invalidate()
    }

    /// Switches the display off (dark until switched on or woken by the crown) or on (bright, a
    /// new idle spell begun).
    mutating func switchDisplay(on: Bool) {
        remoteDisplay.isSwitchedOff = !on
        if on {
            _ = saver.activity(at: now)
            home.restart(at: now)
        }
        pacer.invalidate()
    }

    /// Runs the action of `page` as a press would, without asking: only for `remote = true`, and
    /// never while it runs.
    mutating func pressRemotely(_ page: Int, into effects: inout Effects) throws(Refused) {
        let spec = book.specs[page]
        guard let action = spec.action else {
            throw Refused(
                reason: .notRemote, message: "page \(page + 1) (\(spec.title)) has no action: give it action = [...]")
        }
        guard action.isRemote else {
            throw Refused(
                reason: .notRemote,
                message: "page \(page + 1) (\(spec.title)) asks at the pager: give it remote = true to run it remotely")
        }
        guard actions[page] != .running else {
            throw Refused(
                reason: .busy, message: "page \(page + 1) (\(spec.title))'s action is running: try again later")
        }
        actions[page] = .running
        effects.reads.append(PageRead(page: page, source: .action(action.command)))
        refreshPage(page)
    }
}
