package scan

import "golang.org/x/sys/cpu"

// colonLtVector is whether indexColonSkipAVX2 can run here.
var colonLtVector = cpu.X86.HasAVX2

// indexColonSkipAVX2 is indexColonOpenLt of b[from:] for len(b)-from >=
// 32, 32 bytes a step, which passes over the ':' that indexColonGlance
// turns down by their neighbours alone while no '<' is open (nor was
// before from: open false); its answers are indexes in b
// (index_amd64.s).
//
//go:noescape
func indexColonSkipAVX2(b []byte, from int, open bool) (colon, lt int)
