// Package parallel reads text on several goroutines at once and gives
// the output that one goroutine reading in order would give, byte for
// byte (behaviour §7: the output is that of -j 1 at every -j).
//
// Ordered puts the outputs of several inputs, each written by whichever
// worker read it, in the order of the inputs; an output that waits for
// its turn is held in memory up to 64 KiB, the rest in an unlinked
// temporary file.
//
// Split reads one large plain-text file on several workers, a chunk each,
// joins their results at the chunk boundaries so that URIs across them
// and text that reads differently after them come out as one scanner
// finds them, and holds a bounded amount of output whatever the file
// holds (behaviour §1). An *os.File is mapped into memory where the
// system allows (Linux) and scanned where it lies; a fault in the mapping
// (the file shrank as it was read) ends the read with a document.MapFaultError,
// not the program.
package parallel
