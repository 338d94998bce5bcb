//go:build !unix

package scan

// cpuTime: not measured here (BenchmarkColonGlance reports 0).
func cpuTime() int64 { return 0 }
