#include "textflag.h"

// func countBreaksAVX2(b []byte) (lfs int, cr bool)
//
// The LFs of b counted and its CRs noted 32 bytes a step (two steps a
// round), len(b) >= 32: the last step overlaps the one before it, its
// bytes already counted dropped from its LF mask by a shift.
TEXT ·countBreaksAVX2(SB), NOSPLIT, $0-33
	MOVQ b_base+0(FP), SI
	MOVQ b_len+8(FP), CX
	XORQ AX, AX // LFs
	MOVL $0x0A, DX
	MOVQ DX, X0
	VPBROADCASTB X0, Y0 // LF
	MOVL $0x0D, DX
	MOVQ DX, X1
	VPBROADCASTB X1, Y1 // CR
	VPXOR Y5, Y5, Y5    // the CRs seen, or'ed
	LEAQ -32(SI)(CX*1), DI // the last step's start

two:
	LEAQ 64(SI), DX
	CMPQ DX, DI
	JA   one
	VMOVDQU   (SI), Y2
	VMOVDQU   32(SI), Y3
	VPCMPEQB  Y0, Y2, Y4
	VPMOVMSKB Y4, R8
	VPCMPEQB  Y0, Y3, Y4
	VPMOVMSKB Y4, R9
	POPCNTL   R8, R8
	POPCNTL   R9, R9
	ADDQ      R8, AX
	ADDQ      R9, AX
	VPCMPEQB  Y1, Y2, Y4
	VPOR      Y4, Y5, Y5
	VPCMPEQB  Y1, Y3, Y4
	VPOR      Y4, Y5, Y5
	MOVQ      DX, SI
	JMP       two

one:
	CMPQ      SI, DI
	JAE       last
	VMOVDQU   (SI), Y2
	VPCMPEQB  Y0, Y2, Y4
	VPMOVMSKB Y4, R8
	POPCNTL   R8, R8
	ADDQ      R8, AX
	VPCMPEQB  Y1, Y2, Y4
	VPOR      Y4, Y5, Y5
	ADDQ      $32, SI
	JMP       one

last:
	// The 32 bytes that end b; those before SI are counted already: the
	// low SI-DI bits of its LF mask are dropped (its CRs, in b, may be
	// noted twice).
	MOVQ      SI, CX
	SUBQ      DI, CX
	VMOVDQU   (DI), Y2
	VPCMPEQB  Y0, Y2, Y4
	VPMOVMSKB Y4, R8
	SHRQ      CX, R8
	POPCNTL   R8, R8
	ADDQ      R8, AX
	VPCMPEQB  Y1, Y2, Y4
	VPMOVMSKB Y4, R9
	VPMOVMSKB Y5, R10
	VZEROUPPER
	ORQ       R9, R10
	MOVQ      AX, lfs+24(FP)
	TESTQ     R10, R10
	SETNE     cr+32(FP)
	RET
