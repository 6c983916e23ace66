import PagerGraphics

/// The operator's controls, each one command transaction, each remembered in `settings` so a
/// re-initialisation after a power glitch keeps them.
extension SSD1306Driver {
    /// Turns the picture through the controller's remaps (A0h/A1h, C0h/C8h), at no cost per frame.
    ///
    /// RAM is not rewritten: the next `update(to:)` sends the whole frame, because on panels
    /// not centred in RAM (96x16) the rotated glass shows other RAM columns.
    public mutating func setRotation(_ rotation: DisplayRotation) throws(Interface.Failure) {
        settings.rotation = rotation
        invalidate()
        let remapped = panel.remapsSegmentsAndCOMs(rotation)
        try send([.setSegmentRemap(remapped), .setCOMOutputScanDirection(remapped: remapped)])
    }

    /// Sets contrast, pre-charge and VCOMH together (81h, D9h, DBh).
    public mutating func setBrightness(_ brightness: DisplayBrightness) throws(Interface.Failure) {
        settings.brightness = brightness
        settings.contrast = nil
        try send(brightness.commands)
    }

    /// Sets the contrast alone (81h), 0...255.
    public mutating func setContrast(_ contrast: UInt8) throws(Interface.Failure) {
        settings.contrast = contrast
        try send([.setContrast(contrast)])
    }

    /// Shows lit pixels dark and dark pixels lit (A7h), or not (A6h).
    public mutating func setInverted(_ inverted: Bool) throws(Interface.Failure) {
        settings.isInverted = inverted
        try send([.inverseDisplay(inverted)])
    }

    /// Wakes the display (AFh) or puts it to sleep (AEh); RAM is kept while asleep.
    ///
    /// A wake while the driver does not know what RAM holds (after `initialize()`, a failed
    /// write, `invalidate()`) waits for the next whole frame: AFh then follows its last window.
    public mutating func setDisplayOn(_ on: Bool) throws(Interface.Failure) {
        isDisplayOnPending = on
        guard !on else { return try sendPendingDisplayOn() }
        try send([.displayOn(false)])
    }

    /// Sleeps, switches the panel supply off and blanks RAM: what a program does on its way out,
    /// so no picture burns in while nothing updates it, and none shows if something wakes the
    /// panel later.
    ///
    /// Display Off (AEh) goes first, so the glass goes from the last frame straight to dark:
    /// blanking RAM first would show a dark frame, or, inverted (A7h), a white one.
    public mutating func shutDown() throws(Interface.Failure) {
        isDisplayOnPending = false
        try send(panel.powerOffSequence)
        try update(to: Bitmap(width: panel.width, height: panel.height))
    }
}
