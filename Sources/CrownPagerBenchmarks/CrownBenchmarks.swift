/// Decoder and interpreter throughput, and the latency from a detent's last edge to a page change.
func runCrownBenchmarks() {}
