/// What a key or the mouse wheel asks the desktop mock to do.
///
/// These are facts about input, like the hardware crown's: the run loop turns `turn` and
/// `press` into `CrownEvent`s with the time it read them.
package enum TerminalCommand: Hashable, Sendable {
    /// Turn the crown by whole detents: positive towards later pages (Down, `j`, wheel down).
    case turn(detents: Int)
    /// Press and release the crown's button (Enter, space).
    case press
    /// Hold the crown's button down for a long press (`l`): a terminal reports no key-up, so a
    /// key stands for the whole hold. It opens the list of page titles.
    case longPress
    /// Leave the mock (`q`, `Q`, Ctrl-C, Ctrl-D).
    case quit
    /// Repaint the whole terminal, e.g. after another program scribbled on it (`r`, Ctrl-L).
    case redraw
}

extension TerminalCommand {
    /// The keys in one line, for the mock's status line.
    package static let keyHelp =
        "Down/j/wheel next  Up/k previous  PgDn/PgUp 5  Enter/space press  l long press  r redraw  q quit"
}
