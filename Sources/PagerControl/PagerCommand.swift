/// A page as a command names it. (A setting names one with `PageReference`, whose number and
/// title the file's syntax tells apart; a person's word here may be either.)
package enum RequestedPage: Hashable, Sendable {
    /// As a person gives it (`crownpager show 2`, `show page=Clock`, MQTT's `page/set`): a number
    /// from 1, else a title, exactly, else ignoring case.
    case named(String)
    /// The page at this index from 0: for a shell that knows the page it means (an MQTT topic
    /// announced for that page), so no title is parsed back and a page titled "2" is never page 2.
    case index(Int)
}

/// What the control socket, MQTT and the command line may ask of the running pager, in one
/// vocabulary: the shells parse their own words into it (`ControlRequest`'s lines, MQTT's
/// topics), the engine decides it (`DeviceEngine+Control`) and answers each with a
/// `ControlReply`.
package enum PagerCommand: Hashable, Sendable {
    /// Go to a page, with the slide a turn makes (`crownpager show`).
    case show(page: RequestedPage)
    /// The value of a page whose `source = "push"`: its text, or a gauge's number (`crownpager set`).
    case set(page: RequestedPage, value: String)
    /// The brightness in use, 0 to 100, in place of `display.brightness` (`crownpager brightness`).
    case brightness(percent: Int)
    /// The display switched off (until switched on, or the crown wakes it) or on (`crownpager display`).
    case display(on: Bool)
    /// Runs a `remote = true` page's action at once, without the on-device confirmation (`crownpager press`).
    case press(page: RequestedPage)
}
