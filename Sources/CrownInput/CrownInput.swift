/// Turning raw encoder and button edges into crown facts: the pure half of the crown driver.
///
/// The Linux side (libgpiod, evdev) only reads timestamped edges; everything that decides
/// what they mean lives here, where it is tested exhaustively and can run on a microcontroller.
public enum CrownInput {}
