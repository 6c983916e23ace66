/// Turning raw encoder and button edges into crown facts: the pure half of the crown driver.
///
/// The Linux side (libgpiod, evdev) only reads timestamped edges; everything that decides
/// what they mean lives here, where it is tested exhaustively and can run on a microcontroller:
///
/// - `QuadratureTransition.table`: the 16 transitions of the two encoder lines, with the timing diagram;
/// - `QuadratureDecoder`: quarter steps to detents, full, half or quarter stepping, bounce-proof;
/// - `Debouncer`: one line's raw edges to settled levels, for the button (and optionally the encoder);
/// - `CrownDecoder`: all three lines' edges to `CrownEvent`s;
/// - `InputEventTranslator`: the kernel's `rotary-encoder` and `gpio-keys` input events to `CrownEvent`s;
/// - `KnobMonitor`: live figures for `crownpager doctor crown`.
package enum CrownInput {}
