#include "textflag.h"

DATA bytesColonLtGt<>+0(SB)/8, $0x3a3a3a3a3a3a3a3a
DATA bytesColonLtGt<>+8(SB)/8, $0x3a3a3a3a3a3a3a3a
DATA bytesColonLtGt<>+16(SB)/8, $0x3a3a3a3a3a3a3a3a
DATA bytesColonLtGt<>+24(SB)/8, $0x3a3a3a3a3a3a3a3a
DATA bytesColonLtGt<>+32(SB)/8, $0x3c3c3c3c3c3c3c3c
DATA bytesColonLtGt<>+40(SB)/8, $0x3c3c3c3c3c3c3c3c
DATA bytesColonLtGt<>+48(SB)/8, $0x3c3c3c3c3c3c3c3c
DATA bytesColonLtGt<>+56(SB)/8, $0x3c3c3c3c3c3c3c3c
DATA bytesColonLtGt<>+64(SB)/8, $0x3e3e3e3e3e3e3e3e
DATA bytesColonLtGt<>+72(SB)/8, $0x3e3e3e3e3e3e3e3e
DATA bytesColonLtGt<>+80(SB)/8, $0x3e3e3e3e3e3e3e3e
DATA bytesColonLtGt<>+88(SB)/8, $0x3e3e3e3e3e3e3e3e
GLOBL bytesColonLtGt<>(SB), RODATA|NOPTR, $96

// func indexColonSkipAVX2(b []byte, from int, open bool) (colon, lt int)
//
// indexColonOpenLt of b[from:] for len(b)-from >= 32, 32 bytes a step,
// its answers indexes in b, and it passes over the ':' that
// indexColonGlance turns down by their neighbours alone (see colonSkip)
// while no '<' is open (nor was before from: open false). The last step
// overlaps the one before it, its bytes already looked at dropped from
// its masks by a shift. A step's '>' are looked at only while a '<' is
// open (R12 >= 0): most steps test two bytes, and most '<' (of
// "<name@host>") are closed before the next ':'.
TEXT ·indexColonSkipAVX2(SB), NOSPLIT, $0-56
	MOVQ b_base+0(FP), R11 // b's start
	MOVQ b_len+8(FP), CX
	MOVQ from+24(FP), SI
	ADDQ R11, SI
	MOVQ $-1, R12 // the open '<', from R11, or -1
	XORQ R13, R13 // 1 at the last step
	// The ':' of a step from R10 to R9 (its neighbours in b) may be
	// passed over: R10 is b's start + 3 (indexColonGlance returns a
	// ':' before it), or the top address when open.
	LEAQ  3(R11), R10
	MOVQ  $-1, DX
	MOVBLZX open+32(FP), AX
	TESTL AX, AX
	CMOVQNE DX, R10
	LEAQ  -34(R11)(CX*1), R9
	// The bytes loaded ready to compare: a broadcast from a general
	// register waited on the move (6 % of the samples of a first version).
	VMOVDQU bytesColonLtGt<>+0(SB), Y0  // ':'
	VMOVDQU bytesColonLtGt<>+32(SB), Y1 // '<'
	VMOVDQU bytesColonLtGt<>+64(SB), Y7 // '>'
	LEAQ    -32(R11)(CX*1), DI          // the last step's start

closed:
	// No '<' open: a ':' or a '<' stops the loop.
	CMPQ SI, DI
	JA   last

closedLoop:
	VMOVDQU   (SI), Y2
	VPCMPEQB  Y0, Y2, Y3
	VPCMPEQB  Y1, Y2, Y4
	VPOR      Y3, Y4, Y6
	VPMOVMSKB Y6, DX
	TESTL     DX, DX
	JNZ       closedHit
	ADDQ      $32, SI
	CMPQ      SI, DI
	JBE       closedLoop
	JMP       last

closedHit:
	// Most often a ':' and no '<' (DX is then the ':' mask): found at
	// once, without the masks of step (their work at each ':' cost more
	// than the search's loop), unless its neighbours turn it down.
	VPMOVMSKB Y4, BX
	TESTL     BX, BX
	JNZ       step
	CMPQ      SI, R10
	JB        foundDX
	CMPQ      SI, R9
	JA        foundDX
	// The first ':' after a letter that may end a no-authority scheme
	// is not passed over: found without the classes (a run of "a:"
	// classed its step at each ':', Adversarial/colon +50 %).
	BSFL      DX, AX
	MOVBLZX   -1(SI)(AX*1), AX
	LEAQ      ·endsNoAuthorityScheme(SB), BX
	MOVBLZX   (BX)(AX*1), AX
	TESTL     AX, AX
	JNZ       foundDX

	// The classes of the bytes before, after and two after each byte of
	// the step (colonSkip: a nibble's table each, looked up by VPSHUFB).
	VMOVDQU   ·colonSkip+0(SB), Y11 // 0x0f
	VPXOR     Y5, Y5, Y5
	VMOVDQU   -1(SI), Y8
	VPAND     Y11, Y8, Y9
	VPSRLW    $4, Y8, Y10
	VPAND     Y11, Y10, Y10
	VMOVDQU   ·colonSkip+32(SB), Y13
	VMOVDQU   ·colonSkip+64(SB), Y14
	VPSHUFB   Y9, Y13, Y9
	VPSHUFB   Y10, Y14, Y10
	VPAND     Y9, Y10, Y9
	VPCMPEQB  Y5, Y9, Y6 // before: not the end of a name of noAuthoritySchemes
	VMOVDQU   1(SI), Y8
	VPAND     Y11, Y8, Y9
	VPSRLW    $4, Y8, Y10
	VPAND     Y11, Y10, Y10
	VMOVDQU   ·colonSkip+96(SB), Y13
	VMOVDQU   ·colonSkip+128(SB), Y14
	VPSHUFB   Y9, Y13, Y9
	VPSHUFB   Y10, Y14, Y10
	VPAND     Y9, Y10, Y8
	VPAND     ·colonSkip+160(SB), Y8, Y9
	VPCMPEQB  Y5, Y9, Y9 // after: no whitespace, no '/'
	VPAND     ·colonSkip+192(SB), Y8, Y10
	VPCMPEQB  Y5, Y10, Y10 // after: not ' ' or '\t'
	VMOVDQU   2(SI), Y8
	VPAND     Y11, Y8, Y12
	VPSRLW    $4, Y8, Y15
	VPAND     Y11, Y15, Y15
	VPSHUFB   Y12, Y13, Y12
	VPSHUFB   Y15, Y14, Y15
	VPAND     Y12, Y15, Y12
	VPAND     ·colonSkip+224(SB), Y12, Y12
	VPCMPEQB  Y5, Y12, Y12 // two after: none of ' ', '\t', '/', '\n', '\r'
	VPANDN    Y12, Y10, Y12 // ' ' or '\t' after, then none of them
	VPOR      Y9, Y12, Y12
	VPAND     Y6, Y12, Y12
	VPMOVMSKB Y12, AX
	NOTL      AX
	ANDL      AX, DX
	JNZ       foundDX
	ADDQ      $32, SI // all passed over
	CMPQ      SI, DI
	JBE       closedLoop
	JMP       last

foundDX:
	VZEROUPPER
	BSFL      DX, AX
	ADDQ      SI, AX
	SUBQ      R11, AX
	MOVQ      AX, colon+40(FP)
	MOVQ      R12, lt+48(FP)
	RET

open:
	// A '<' open: a '>' stops the loop too.
	CMPQ SI, DI
	JA   last

openLoop:
	VMOVDQU   (SI), Y2
	VPCMPEQB  Y0, Y2, Y3
	VPCMPEQB  Y1, Y2, Y4
	VPCMPEQB  Y7, Y2, Y5
	VPOR      Y3, Y4, Y6
	VPOR      Y5, Y6, Y6
	VPMOVMSKB Y6, DX
	TESTL     DX, DX
	JNZ       step
	ADDQ      $32, SI
	CMPQ      SI, DI
	JBE       openLoop
	JMP       last

step:
	// The step at SI (Y2, its ':' Y3, its '<' Y4) holds one of them.
	VPCMPEQB  Y7, Y2, Y5
	VPMOVMSKB Y3, AX
	VPMOVMSKB Y4, BX
	VPMOVMSKB Y5, DX

masks:
	// AX, BX, DX: the ':', '<' and '>' from SI on, bit 0 for SI.
	MOVL  $0xffffffff, R8
	TESTQ AX, AX
	JZ    before
	BSFQ  AX, CX
	MOVL  $1, R8
	SHLQ  CX, R8
	DECQ  R8

before:
	// R8: the bytes before the first ':' (all, without one).
	ANDQ  R8, BX
	ANDQ  R8, DX
	TESTQ BX, BX
	JZ    gt
	BSRQ  BX, CX // the last '<'
	LEAQ  (SI)(CX*1), R12
	SUBQ  R11, R12
	INCQ  CX
	SHRQ  CX, DX // the '>' after it (a 64-bit shift: 32 drops all)

gt:
	TESTQ DX, DX
	JZ    next
	MOVQ  $-1, R12 // closed

next:
	TESTQ AX, AX
	JNZ   found
	TESTQ R13, R13
	JNZ   none
	ADDQ  $32, SI
	TESTQ R12, R12
	JS    closed
	JMP   open

found:
	VZEROUPPER
	BSFQ AX, AX
	ADDQ SI, AX
	SUBQ R11, AX
	MOVQ AX, colon+40(FP)
	MOVQ R12, lt+48(FP)
	RET

none:
	VZEROUPPER
	MOVQ $-1, colon+40(FP)
	MOVQ R12, lt+48(FP)
	RET

last:
	// The 32 bytes that end b; the SI-DI (1 to 32) of them before SI are
	// looked at already: their bits are dropped (a 64-bit shift, so that
	// 32 drops all), and bit 0 stands for the byte at SI.
	MOVQ      SI, CX
	SUBQ      DI, CX
	VMOVDQU   (DI), Y2
	VPCMPEQB  Y0, Y2, Y3
	VPCMPEQB  Y1, Y2, Y4
	VPCMPEQB  Y7, Y2, Y5
	VPMOVMSKB Y3, AX
	VPMOVMSKB Y4, BX
	VPMOVMSKB Y5, DX
	SHRQ      CX, AX
	SHRQ      CX, BX
	SHRQ      CX, DX
	MOVQ      $1, R13
	JMP       masks
