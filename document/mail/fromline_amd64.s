#include "textflag.h"

// func lineStartBlocks(p *byte, n int) int
//
// SSE2 (every amd64): 16 positions a step, the bytes at i compared with
// '\n' and those at i+1 with 'F' and '>'; two steps a round while 32
// positions are left.
TEXT ·lineStartBlocks(SB), NOSPLIT, $0-24
	MOVQ p+0(FP), SI
	MOVQ n+8(FP), BX
	MOVQ $0x0a0a0a0a0a0a0a0a, AX
	MOVQ AX, X0
	PUNPCKLQDQ X0, X0
	MOVQ $0x4646464646464646, AX
	MOVQ AX, X1
	PUNPCKLQDQ X1, X1
	MOVQ $0x3e3e3e3e3e3e3e3e, AX
	MOVQ AX, X2
	PUNPCKLQDQ X2, X2
	XORQ DI, DI

pairs:
	LEAQ 32(DI), DX
	CMPQ DX, BX
	JA   single
	MOVOU (SI)(DI*1), X3
	MOVOU 1(SI)(DI*1), X4
	MOVOU 16(SI)(DI*1), X6
	MOVOU 17(SI)(DI*1), X7
	MOVOU X4, X5
	MOVOU X7, X8
	PCMPEQB X0, X3
	PCMPEQB X1, X4
	PCMPEQB X2, X5
	PCMPEQB X0, X6
	PCMPEQB X1, X7
	PCMPEQB X2, X8
	POR  X5, X4
	POR  X8, X7
	PAND X4, X3
	PAND X7, X6
	PMOVMSKB X3, AX
	PMOVMSKB X6, CX
	SHLQ $16, CX
	ORQ  CX, AX
	JNZ  found
	MOVQ DX, DI
	JMP  pairs

single:
	CMPQ DI, BX
	JAE  none
	MOVOU (SI)(DI*1), X3
	MOVOU 1(SI)(DI*1), X4
	MOVOU X4, X5
	PCMPEQB X0, X3
	PCMPEQB X1, X4
	PCMPEQB X2, X5
	POR  X5, X4
	PAND X4, X3
	PMOVMSKB X3, AX
	TESTQ AX, AX
	JNZ  found
	ADDQ $16, DI
	JMP  single

found:
	BSFQ AX, AX
	ADDQ DI, AX
	MOVQ AX, ret+16(FP)
	RET

none:
	MOVQ $-1, ret+16(FP)
	RET

// func lineStartBlocksAVX2(p *byte, n int) int
//
// lineStartBlocks with AVX2: 32 positions a step; n a positive multiple
// of 16 (a last step of 16 positions takes the SSE2 way).
TEXT ·lineStartBlocksAVX2(SB), NOSPLIT, $0-24
	MOVQ         p+0(FP), SI
	MOVQ         n+8(FP), BX
	MOVQ         $0x0a, AX
	MOVQ         AX, X0
	VPBROADCASTB X0, Y0
	MOVQ         $0x46, AX
	MOVQ         AX, X1
	VPBROADCASTB X1, Y1
	MOVQ         $0x3e, AX
	MOVQ         AX, X2
	VPBROADCASTB X2, Y2
	XORQ         DI, DI

wide:
	LEAQ      32(DI), DX
	CMPQ      DX, BX
	JA        narrow
	VMOVDQU   (SI)(DI*1), Y3
	VMOVDQU   1(SI)(DI*1), Y4
	VPCMPEQB  Y0, Y3, Y3
	VPCMPEQB  Y1, Y4, Y5
	VPCMPEQB  Y2, Y4, Y4
	VPOR      Y5, Y4, Y4
	VPAND     Y4, Y3, Y3
	VPMOVMSKB Y3, AX
	TESTL     AX, AX
	JNZ       wfound
	MOVQ      DX, DI
	JMP       wide

narrow:
	CMPQ      DI, BX
	JAE       wnone
	VMOVDQU   (SI)(DI*1), X3
	VMOVDQU   1(SI)(DI*1), X4
	VPCMPEQB  X0, X3, X3
	VPCMPEQB  X1, X4, X5
	VPCMPEQB  X2, X4, X4
	VPOR      X5, X4, X4
	VPAND     X4, X3, X3
	VPMOVMSKB X3, AX
	TESTL     AX, AX
	JNZ       wfound
	ADDQ      $16, DI
	JMP       narrow

wfound:
	BSFL       AX, AX
	ADDQ       DI, AX
	MOVQ       AX, ret+16(FP)
	VZEROUPPER
	RET

wnone:
	MOVQ       $-1, ret+16(FP)
	VZEROUPPER
	RET
