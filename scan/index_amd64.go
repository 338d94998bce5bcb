package scan

import "golang.org/x/sys/cpu"

// colonLtVector is whether indexColonOpenLtAVX2 can run here.
var colonLtVector = cpu.X86.HasAVX2

// indexColonOpenLtAVX2 is indexColonOpenLt for len(b) >= 32, 32 bytes a
// step (index_amd64.s).
//
//go:noescape
func indexColonOpenLtAVX2(b []byte) (colon, lt int)
