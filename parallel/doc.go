// Package parallel puts the outputs of inputs read on several goroutines
// at once in the order of the inputs, so that they read as one goroutine
// reading in order would write them, byte for byte (behaviour §7: the
// output is that of -j 1 at every -j).
//
// Ordered takes each input's output from whichever worker read it; an
// output that waits for its turn is held in memory up to 64 KiB, the rest
// in an unlinked temporary file. (One large plain-text file read on
// several workers, a chunk each, is extract.Split.)
package parallel
