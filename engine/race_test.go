//go:build race

package engine

// raceEnabled: the race detector drops a quarter of what sync.Pool is
// given, so counts of allocations mean nothing under it.
const raceEnabled = true
