// crownpager-bench: figures for the README, measured rather than asserted in tests.
//
//   swift run -c release crownpager-bench            every benchmark
//   swift run -c release crownpager-bench display    only the display's
//   swift run -c release crownpager-bench crown      only the crown's
let selected = CommandLine.arguments.dropFirst().first
if selected == nil || selected == "display" { runDisplayBenchmarks() }
if selected == nil || selected == "crown" { runCrownBenchmarks() }
