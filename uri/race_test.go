//go:build race

package uri

// raceEnabled: the tests run under the race detector.
const raceEnabled = true
