#include "textflag.h"

// func htmlMaskBlocks(p *byte, n int, lt, sp *uint64)
//
// SSE2 (every amd64): a block of 64 bytes is four loads; each is compared
// with '<' into lt and with '&' and CR into sp, and the four 16-bit masks
// of each kind make one word.
TEXT ·htmlMaskBlocks(SB), NOSPLIT, $0-32
	MOVQ p+0(FP), SI
	MOVQ n+8(FP), CX
	MOVQ lt+16(FP), DI
	MOVQ sp+24(FP), DX
	MOVQ $0x3c3c3c3c3c3c3c3c, AX // '<'
	MOVQ AX, X0
	PUNPCKLQDQ X0, X0
	MOVQ $0x2626262626262626, AX // '&'
	MOVQ AX, X1
	PUNPCKLQDQ X1, X1
	MOVQ $0x0d0d0d0d0d0d0d0d, AX // CR
	MOVQ AX, X2
	PUNPCKLQDQ X2, X2

block:
	TESTQ CX, CX
	JZ    done
	XORQ  R8, R8 // lt word
	XORQ  R9, R9 // sp word
	MOVOU 0(SI), X3
	MOVOU 16(SI), X6
	MOVOU X3, X4
	MOVOU X3, X5
	MOVOU X6, X7
	MOVOU X6, X8
	PCMPEQB X0, X3
	PCMPEQB X1, X4
	PCMPEQB X2, X5
	PCMPEQB X0, X6
	PCMPEQB X1, X7
	PCMPEQB X2, X8
	POR  X5, X4
	POR  X8, X7
	PMOVMSKB X3, R8
	PMOVMSKB X6, AX
	SHLQ $16, AX
	ORQ  AX, R8
	PMOVMSKB X4, R9
	PMOVMSKB X7, AX
	SHLQ $16, AX
	ORQ  AX, R9
	MOVOU 32(SI), X3
	MOVOU 48(SI), X6
	MOVOU X3, X4
	MOVOU X3, X5
	MOVOU X6, X7
	MOVOU X6, X8
	PCMPEQB X0, X3
	PCMPEQB X1, X4
	PCMPEQB X2, X5
	PCMPEQB X0, X6
	PCMPEQB X1, X7
	PCMPEQB X2, X8
	POR  X5, X4
	POR  X8, X7
	PMOVMSKB X3, AX
	SHLQ $32, AX
	ORQ  AX, R8
	PMOVMSKB X6, AX
	SHLQ $48, AX
	ORQ  AX, R8
	PMOVMSKB X4, AX
	SHLQ $32, AX
	ORQ  AX, R9
	PMOVMSKB X7, AX
	SHLQ $48, AX
	ORQ  AX, R9
	MOVQ R8, (DI)
	MOVQ R9, (DX)
	ADDQ $64, SI
	ADDQ $8, DI
	ADDQ $8, DX
	DECQ CX
	JMP  block

done:
	RET
