// crownpager-bench: figures for the Performance article (CrownPagerApp.docc), measured rather than asserted in tests.
//
//   swift run -c release crownpager-bench            every benchmark
//   swift run -c release crownpager-bench display    only the display's
//   swift run -c release crownpager-bench tear       tearing: refreshes that show two frames
//   swift run -c release crownpager-bench engine     the production path: latency, frames, bytes
//   swift run -c release crownpager-bench crown      only the crown's
//   swift run -c release crownpager-bench burnin     what a pixel_shift step puts on the bus
//   swift run -c release crownpager-bench image      only the PNG decoder
//   swift run -c release crownpager-bench inputs     reading each input over doubling sizes
//   swift run -c release crownpager-bench luma       the workloads Scripts/bench/bench-vs-luma.sh compares
//   swift run -c release crownpager-bench luma slide one of them (text, slide, clock, drawing), to profile
//   swift run -c release crownpager-bench luma slide 3   the same with 3 times the frames
let selected = CommandLine.arguments.dropFirst().first
if selected == nil || selected == "display" { runDisplayBenchmarks() }
if selected == nil || selected == "tear" { runTearBenchmarks() }
if selected == nil || selected == "engine" { runEngineBenchmarks() }
if selected == nil || selected == "crown" { runCrownBenchmarks() }
if selected == nil || selected == "burnin" { runBurnInBenchmarks() }
if selected == nil || selected == "image" { runImageBenchmarks() }
// Scripts/bench/input-scaling.sh fails on its "NOT LINEAR" lines.
if selected == "inputs" { _ = runInputScaling() }
// Tab-separated lines for the script, so not part of the default run.
if selected == "luma" {
    let scale = CommandLine.arguments.dropFirst(3).first.flatMap { Int($0) } ?? 1
    runLumaComparison(only: CommandLine.arguments.dropFirst(2).first, scale: scale)
}
