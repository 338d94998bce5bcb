package scan

import "golang.org/x/sys/cpu"

// colonLtVector is whether indexColonLastLtAVX2 can run here.
var colonLtVector = cpu.X86.HasAVX2

// indexColonLastLtAVX2 is indexColonLastLt for len(b) >= 32, 32 bytes a
// step.
//
//go:noescape
func indexColonLastLtAVX2(b []byte) (colon, lt int)
