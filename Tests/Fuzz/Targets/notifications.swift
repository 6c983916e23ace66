// Fuzz target: the notifications file a restart reads back (`NotificationFile`), each notification
// it yields laid out and drawn on the overlay.
import CrownVocabulary
import PagerEngine
import PagerGraphics

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzNotifications(_ data: UnsafeRawPointer?, _ count: Int) -> CInt {
    let notifications = NotificationFile.decode(fuzzText(data, count))
    precondition(notifications.count <= NotificationFile.maximumCount, "more notifications than allowed")
    // What is read back is written and read back alike.
    let again = NotificationFile.decode(NotificationFile.encode(notifications))
    precondition(again == notifications, "a decoded file does not survive encoding")
    var frame = Bitmap(width: 72, height: 40)
    for notification in notifications.prefix(4) {
        var overlay = NotificationOverlay(
            notification, size: Size(width: 72, height: 40), font: .fixed6x10, since: .zero)
        overlay.scroll = overlay.lastScroll
        overlay.draw(into: &frame, at: .milliseconds(50))
        overlay.draw(into: &frame, at: .milliseconds(1000))
    }
    return 0
}
