import Testing

/// Scripts/dev/fast-tests.sh skips what is tagged .endToEnd or .slow: name the tag on the first line of
/// the `@Suite` or `@Test` attribute, which is where it looks.
extension Tag {
    /// Runs the built `crownpager` or another program (the fake kernel, tmux, systemd-analyze): seconds, not milliseconds.
    @Tag public static var endToEnd: Self
    /// Compares a frame with a golden PBM in `Goldens/`.
    @Tag public static var golden: Self
    /// Thousands of random or mutated inputs: a property test that takes seconds.
    @Tag public static var slow: Self
}
