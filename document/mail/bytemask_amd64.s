#include "textflag.h"

// QUARTER adds the masks of the 32 bytes at off(SI) to R8 (the byte in
// X0) and R9 (the bytes in X1 and X2), shifted left by sh.
#define QUARTER(off, sh) \
	MOVOU   off(SI), X3 \
	MOVOU   off+16(SI), X6 \
	MOVOU   X3, X4 \
	MOVOU   X3, X5 \
	MOVOU   X6, X7 \
	MOVOU   X6, X8 \
	PCMPEQB X0, X3 \
	PCMPEQB X1, X4 \
	PCMPEQB X2, X5 \
	PCMPEQB X0, X6 \
	PCMPEQB X1, X7 \
	PCMPEQB X2, X8 \
	POR     X5, X4 \
	POR     X8, X7 \
	PMOVMSKB X3, AX \
	PMOVMSKB X6, BX \
	SHLQ    $16, BX \
	ORQ     BX, AX \
	SHLQ    $sh, AX \
	ORQ     AX, R8 \
	PMOVMSKB X4, AX \
	PMOVMSKB X7, BX \
	SHLQ    $16, BX \
	ORQ     BX, AX \
	SHLQ    $sh, AX \
	ORQ     AX, R9

// func byteMaskBlocks(p *byte, n int, ma, mb *uint64, a, b1, b2 byte)
//
// SSE2 (every amd64): a block of 64 bytes is four loads of 16; each is
// compared with a into ma and with b1 and b2 into mb, and the four 16-bit
// masks of each kind make one word.
TEXT ·byteMaskBlocks(SB), NOSPLIT, $0-35
	MOVQ p+0(FP), SI
	MOVQ n+8(FP), CX
	MOVQ ma+16(FP), DI
	MOVQ mb+24(FP), DX
	MOVQ $0x0101010101010101, R10
	MOVBQZX a+32(FP), AX
	IMULQ R10, AX
	MOVQ AX, X0
	PUNPCKLQDQ X0, X0
	MOVBQZX b1+33(FP), AX
	IMULQ R10, AX
	MOVQ AX, X1
	PUNPCKLQDQ X1, X1
	MOVBQZX b2+34(FP), AX
	IMULQ R10, AX
	MOVQ AX, X2
	PUNPCKLQDQ X2, X2

block:
	TESTQ CX, CX
	JZ    done
	XORQ  R8, R8 // ma word
	XORQ  R9, R9 // mb word
	QUARTER(0, 0)
	QUARTER(32, 32)
	MOVQ R8, (DI)
	MOVQ R9, (DX)
	ADDQ $64, SI
	ADDQ $8, DI
	ADDQ $8, DX
	DECQ CX
	JMP  block

done:
	RET

// func byteMaskBlocksAVX2(p *byte, n int, ma, mb *uint64, a, b1, b2 byte)
//
// byteMaskBlocks with AVX2: a block of 64 bytes is two loads of 32.
TEXT ·byteMaskBlocksAVX2(SB), NOSPLIT, $0-35
	MOVQ         p+0(FP), SI
	MOVQ         n+8(FP), CX
	MOVQ         ma+16(FP), DI
	MOVQ         mb+24(FP), DX
	MOVBQZX      a+32(FP), AX
	MOVQ         AX, X0
	VPBROADCASTB X0, Y0
	MOVBQZX      b1+33(FP), AX
	MOVQ         AX, X1
	VPBROADCASTB X1, Y1
	MOVBQZX      b2+34(FP), AX
	MOVQ         AX, X2
	VPBROADCASTB X2, Y2

ablock:
	TESTQ     CX, CX
	JZ        adone
	VMOVDQU   (SI), Y3
	VMOVDQU   32(SI), Y6
	VPCMPEQB  Y0, Y3, Y4
	VPCMPEQB  Y1, Y3, Y5
	VPCMPEQB  Y2, Y3, Y3
	VPOR      Y3, Y5, Y5
	VPCMPEQB  Y0, Y6, Y7
	VPCMPEQB  Y1, Y6, Y8
	VPCMPEQB  Y2, Y6, Y6
	VPOR      Y6, Y8, Y8
	VPMOVMSKB Y4, AX
	VPMOVMSKB Y7, BX
	SHLQ      $32, BX
	ORQ       BX, AX
	MOVQ      AX, (DI)
	VPMOVMSKB Y5, AX
	VPMOVMSKB Y8, BX
	SHLQ      $32, BX
	ORQ       BX, AX
	MOVQ      AX, (DX)
	ADDQ      $64, SI
	ADDQ      $8, DI
	ADDQ      $8, DX
	DECQ      CX
	JMP       ablock

adone:
	VZEROUPPER
	RET
