// Package parallel reads text on several goroutines at once and gives
// the output that one goroutine reading in order would give, byte for
// byte (behaviour §7: output order is input order at every -j).
//
// Ordered puts the outputs of several inputs, each written by whichever
// worker read it, in the order of the inputs.
package parallel
