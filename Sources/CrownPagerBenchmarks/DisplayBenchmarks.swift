/// Bytes and transactions on the I2C bus, and their bus time, for typical display workloads.
func runDisplayBenchmarks() {}
