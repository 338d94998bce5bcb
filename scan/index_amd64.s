#include "textflag.h"

DATA colonLt<>+0(SB)/8, $0x3a3a3a3a3a3a3a3a
DATA colonLt<>+8(SB)/8, $0x3a3a3a3a3a3a3a3a
DATA colonLt<>+16(SB)/8, $0x3a3a3a3a3a3a3a3a
DATA colonLt<>+24(SB)/8, $0x3a3a3a3a3a3a3a3a
DATA colonLt<>+32(SB)/8, $0x3c3c3c3c3c3c3c3c
DATA colonLt<>+40(SB)/8, $0x3c3c3c3c3c3c3c3c
DATA colonLt<>+48(SB)/8, $0x3c3c3c3c3c3c3c3c
DATA colonLt<>+56(SB)/8, $0x3c3c3c3c3c3c3c3c
GLOBL colonLt<>(SB), RODATA|NOPTR, $64

// func indexColonLastLtAVX2(b []byte) (colon, lt int)
//
// The index of the first ':' of b, or -1, and that of the last '<'
// before it (before the end of b when there is no ':'), or -1, 32 bytes
// a step, len(b) >= 32: the last step overlaps the one before it, its
// bytes already looked at dropped from its masks by a shift.
// Both searches in one pass cost next to nothing more than the ':' alone.
TEXT ·indexColonLastLtAVX2(SB), NOSPLIT, $0-40
	MOVQ b_base+0(FP), SI
	MOVQ b_len+8(FP), CX
	MOVQ SI, R11 // b's start
	MOVQ $-1, R12 // the last '<', from R11
	// The two bytes loaded ready to compare: a broadcast from a general
	// register waits on the move (6 % of the samples of a first version).
	VMOVDQU colonLt<>+0(SB), Y0  // ':'
	VMOVDQU colonLt<>+32(SB), Y1 // '<'
	LEAQ -32(SI)(CX*1), DI // the last step's start

loop:
	CMPQ      SI, DI
	JA        last
	VMOVDQU   (SI), Y2
	VPCMPEQB  Y0, Y2, Y3
	VPCMPEQB  Y1, Y2, Y4
	VPMOVMSKB Y3, AX
	VPMOVMSKB Y4, BX
	TESTL     AX, AX
	JNZ       found
	TESTL     BX, BX
	JNZ       lt
	ADDQ      $32, SI
	JMP       loop

lt:
	BSRL BX, BX
	LEAQ (SI)(BX*1), R12
	SUBQ R11, R12
	ADDQ $32, SI
	JMP  loop

found:
	// AX, BX: the masks of the step at SI.
	VZEROUPPER
	BSFQ  AX, CX // the ':'
	MOVQ  $1, DX
	SHLQ  CX, DX
	DECQ  DX     // the bytes before it
	ANDQ  DX, BX // the '<' among them
	JZ    done
	BSRQ  BX, BX
	LEAQ  (SI)(BX*1), R12
	SUBQ  R11, R12

done:
	ADDQ CX, SI
	SUBQ R11, SI
	MOVQ SI, colon+24(FP)
	MOVQ R12, lt+32(FP)
	RET

last:
	// The 32 bytes that end b; the SI-DI (1 to 32) of them before SI are
	// looked at already: their bits are dropped (a 64-bit shift, so that
	// 32 drops all) and SI moved back to the first of the others.
	MOVQ      SI, CX
	SUBQ      DI, CX
	VMOVDQU   (DI), Y2
	VPCMPEQB  Y0, Y2, Y3
	VPCMPEQB  Y1, Y2, Y4
	VPMOVMSKB Y3, AX
	VPMOVMSKB Y4, BX
	SHRQ      CX, AX
	SHRQ      CX, BX
	TESTQ     AX, AX
	JNZ       found
	VZEROUPPER
	TESTQ     BX, BX
	JZ        none
	BSRQ      BX, BX
	LEAQ      (SI)(BX*1), R12
	SUBQ      R11, R12

none:
	MOVQ $-1, colon+24(FP)
	MOVQ R12, lt+32(FP)
	RET
