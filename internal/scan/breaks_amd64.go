package scan

import "golang.org/x/sys/cpu"

// breaksVector is whether countBreaksAVX2 can run here.
var breaksVector = cpu.X86.HasAVX2 && cpu.X86.HasPOPCNT

// countBreaksAVX2 is countBreaks for len(b) >= 32, 32 bytes a step.
//
//go:noescape
func countBreaksAVX2(b []byte) (lfs int, cr bool)
