import CrownVocabulary
import PagerSettings

/// When the glass goes out as a picture (`[mqtt] camera_interval`, Home Assistant's MQTT camera):
/// once it has changed and settled, and no sooner than `interval` after the last picture.
///
/// A glass that changes once (a turn, a value) is pictured as soon as it settles; one that keeps
/// changing (a seconds clock, a slide after a slide) once every `interval`, the last change
/// always included; a glass that does not change asks for nothing and sets no deadline. The
/// engine decides it and hands the frame (`DeviceEngine.camera`, `Effects.glassPicture`); the shell publishes.
package struct GlassCamera: Hashable, Sendable {
    /// The shortest time between two pictures; nil: no camera (MQTT off, or `camera_interval = "never"`).
    package private(set) var interval: TimeSpan?
    /// When the glass first changed after the last picture; nil: the last picture shows it.
    package private(set) var changedAt: Timestamp?
    /// When the last picture was asked for; nil: none yet this run.
    package private(set) var picturedAt: Timestamp?

    /// A camera for `configuration`: on with MQTT on and an interval set.
    package init(_ configuration: Configuration) {
        let hasBroker = !(configuration.mqtt.host ?? "").isEmpty
        interval = hasBroker ? configuration.mqtt.cameraInterval : nil
    }

    /// The glass changed at `instant` (display records went out).
    package mutating func glassChanged(at instant: Timestamp) {
        guard interval != nil, changedAt == nil else { return }
        changedAt = instant
    }

    /// When a picture is due: nil when the glass has not changed since the last one.
    package var due: Timestamp? {
        guard let interval, let changedAt else { return nil }
        guard let picturedAt else { return changedAt }
        return max(changedAt, picturedAt + interval)
    }

    /// When the picture is to be taken: when due if the glass has `settled` (no slide or scroll
    /// moving, which would picture a frame on its way); else one interval later, so a glass that
    /// never settles (a title scrolling for ever) is still pictured.
    package func pictureTime(settled: Bool) -> Timestamp? {
        guard let due, let interval else { return nil }
        return settled ? due : due + interval
    }

    /// Whether a picture is to be taken at `instant` (`pictureTime`); taking it clears the change.
    package mutating func takesPicture(at instant: Timestamp, settled: Bool) -> Bool {
        guard let time = pictureTime(settled: settled), time <= instant else { return false }
        picturedAt = instant
        changedAt = nil
        return true
    }
}

extension DeviceEngine {
    /// Notes a glass change in `effects` and asks for a picture when one is due and the glass has settled.
    mutating func takeGlassPicture(into effects: inout Effects) {
        // The end's records blank the panel: the last picture stays the glass as it was in use.
        guard camera.interval != nil, !isStopped else { return }
        // A frame whose pixels differ from the last is a change; the start's initialisation, the
        // rows off the glass and a brightness (a dimmed screen) are not: nothing to picture.
        if presenter.framesSent != framesSeenByCamera {
            framesSeenByCamera = presenter.framesSent
            camera.glassChanged(at: now)
        }
        if camera.takesPicture(at: now, settled: glassSettled), let frame = presenter.lastFrame {
            effects.glassPicture = frame
        }
    }

    /// Whether nothing moves on the glass (no slide or scroll: the next frame is not due soon) and
    /// it shows the last frame sent whole.
    var glassSettled: Bool { !presenter.isAnimating(at: now) && presenter.lastFrame != nil }

    /// The camera's deadline: its next picture's (`GlassCamera.pictureTime`).
    var cameraDeadline: Timestamp? { camera.pictureTime(settled: glassSettled) }
}
