#include "textflag.h"

// The tables of the vector decoder (Muła and Lemire, "Faster Base64
// Encoding and Decoding Using AVX2 Instructions", 2018), by nibble:
// a byte is outside the standard alphabet when b64LutLo[its low nibble]
// & b64LutHi[its high nibble] != 0, and its value is the byte plus
// b64Roll[its high nibble, less one for '/'].
DATA b64LutLo<>+0(SB)/8, $0x1111111111111115
DATA b64LutLo<>+8(SB)/8, $0x1A1B1B1B1A131111
GLOBL b64LutLo<>(SB), RODATA|NOPTR, $16

DATA b64LutHi<>+0(SB)/8, $0x0804080402011010
DATA b64LutHi<>+8(SB)/8, $0x1010101010101010
GLOBL b64LutHi<>(SB), RODATA|NOPTR, $16

// 0, 16, 19, 4, -65, -65, -71, -71, then 0s.
DATA b64Roll<>+0(SB)/8, $0xB9B9BFBF04131000
DATA b64Roll<>+8(SB)/8, $0x0000000000000000
GLOBL b64Roll<>(SB), RODATA|NOPTR, $16

DATA b64Slash<>+0(SB)/8, $0x2F2F2F2F2F2F2F2F
DATA b64Slash<>+8(SB)/8, $0x2F2F2F2F2F2F2F2F
GLOBL b64Slash<>(SB), RODATA|NOPTR, $16

DATA b64Nibble<>+0(SB)/8, $0x0F0F0F0F0F0F0F0F
DATA b64Nibble<>+8(SB)/8, $0x0F0F0F0F0F0F0F0F
GLOBL b64Nibble<>(SB), RODATA|NOPTR, $16

// Two 6-bit values to 12 bits (a<<6 | b), then two of those to 24.
DATA b64Merge1<>+0(SB)/8, $0x0140014001400140
DATA b64Merge1<>+8(SB)/8, $0x0140014001400140
GLOBL b64Merge1<>(SB), RODATA|NOPTR, $16

DATA b64Merge2<>+0(SB)/8, $0x0001100000011000
DATA b64Merge2<>+8(SB)/8, $0x0001100000011000
GLOBL b64Merge2<>(SB), RODATA|NOPTR, $16

// The three bytes of each 24-bit value, high first; 4 zero bytes.
DATA b64Pack<>+0(SB)/8, $0x090A040506000102
DATA b64Pack<>+8(SB)/8, $0xFFFFFFFF0C0D0E08
GLOBL b64Pack<>(SB), RODATA|NOPTR, $16

// B64LINES_ARGS loads the arguments of b64LinesSSSE3 and b64LinesAVX2
// (DI dst, SI src, R10 dstLen, R11 srcLen, R12 lineLen) and sets R13 to
// a line's output, R8 to the last 16-character step's start in a line,
// BX (src taken) and CX (dst written) to 0.
#define B64LINES_ARGS \
	MOVQ dst+0(FP), DI \
	MOVQ src+8(FP), SI \
	MOVQ dstLen+16(FP), R10 \
	MOVQ srcLen+24(FP), R11 \
	MOVQ lineLen+32(FP), R12 \
	MOVQ R12, R13 \
	SHRQ $2, R13 \
	LEAQ (R13)(R13*2), R13 \
	MOVQ R12, R8 \
	SUBQ $16, R8 \
	XORQ BX, BX \
	XORQ CX, CX

// B64LINE_END goes to out unless the line at BX of src (R14 set to it)
// is whole in src with its line end, LF or CR LF (R9 set to its length),
// and its output leaves 4 bytes of room in dst; else on to decode.
#define B64LINE_END(out, decode) \
	LEAQ    1(BX)(R12*1), DX \
	CMPQ    DX, R11 \
	JGT     out \
	LEAQ    4(CX)(R13*1), DX \
	CMPQ    DX, R10 \
	JGT     out \
	LEAQ    (SI)(BX*1), R14 \
	MOVBLZX (R14)(R12*1), DX \
	MOVQ    $1, R9 \
	CMPB    DX, $0x0A \
	JEQ     decode \
	CMPB    DX, $0x0D \
	JNE     out \
	LEAQ    2(BX)(R12*1), DX \
	CMPQ    DX, R11 \
	JGT     out \
	MOVBLZX 1(R14)(R12*1), DX \
	CMPB    DX, $0x0A \
	JNE     out \
	MOVQ    $2, R9

// func b64RunSSSE3(dst, src *byte, n int) bool
//
// b64Run over 16 characters a step with SSSE3: n >= 16, a multiple of
// 4; the last step ends at n (it may decode again what the step before
// it did); dst has room for n/4*3+4 bytes (each step stores 16).
TEXT ·b64RunSSSE3(SB), NOSPLIT, $0-25
	MOVQ  dst+0(FP), DI
	MOVQ  src+8(FP), SI
	MOVQ  n+16(FP), R8
	SUBQ  $16, R8 // the last step's start
	MOVOU b64LutLo<>(SB), X8
	MOVOU b64LutHi<>(SB), X9
	MOVOU b64Roll<>(SB), X10
	MOVOU b64Slash<>(SB), X11
	MOVOU b64Nibble<>(SB), X12
	MOVOU b64Merge1<>(SB), X13
	MOVOU b64Merge2<>(SB), X14
	MOVOU b64Pack<>(SB), X15
	PXOR  X7, X7 // the bytes outside the alphabet, not zero
	XORQ  AX, AX

step:
	CMPQ    AX, R8
	CMOVQGT R8, AX
	MOVOU   (SI)(AX*1), X0
	MOVOU   X0, X1
	PSRLL   $4, X1
	PAND    X12, X1 // high nibbles
	MOVOU   X0, X2
	PAND    X12, X2 // low nibbles
	MOVOU   X8, X3
	PSHUFB  X2, X3
	MOVOU   X9, X4
	PSHUFB  X1, X4
	PAND    X4, X3
	POR     X3, X7
	MOVOU   X0, X5
	PCMPEQB X11, X5
	PADDB   X1, X5 // the high nibble, less one for '/'
	MOVOU   X10, X6
	PSHUFB  X5, X6
	PADDB   X6, X0 // the 6-bit values
	PMADDUBSW X13, X0
	PMADDWL X14, X0
	PSHUFB  X15, X0
	MOVQ    AX, DX
	SHRQ    $2, DX
	MOVQ    AX, R9
	SUBQ    DX, R9 // AX/4*3
	MOVOU   X0, (DI)(R9*1)
	CMPQ    AX, R8
	JEQ     done
	ADDQ    $16, AX
	JMP     step

done:
	PXOR     X0, X0
	PCMPEQB  X7, X0
	PMOVMSKB X0, AX
	CMPL     AX, $0xFFFF
	SETEQ    ret+24(FP)
	RET

// func b64LinesSSSE3(dst, src *byte, dstLen, srcLen, lineLen int) (taken, written int)
//
// Lines of base64 of lineLen characters each (a multiple of 4, at least
// 16), each ended by LF or CR LF, decoded as b64RunSSSE3 decodes a run,
// one after the other from src[0]: it stops before the first line that
// is not such a line of the alphabet (or not whole in src, or whose
// output would not leave 4 bytes of room in dst), and returns the bytes
// of src it took, line ends included, and of dst it wrote.
TEXT ·b64LinesSSSE3(SB), NOSPLIT, $0-56
	MOVOU b64LutLo<>(SB), X8
	MOVOU b64LutHi<>(SB), X9
	MOVOU b64Roll<>(SB), X10
	MOVOU b64Slash<>(SB), X11
	MOVOU b64Nibble<>(SB), X12
	MOVOU b64Merge1<>(SB), X13
	MOVOU b64Merge2<>(SB), X14
	MOVOU b64Pack<>(SB), X15
	B64LINES_ARGS

line:
	B64LINE_END(out, decode)

decode:
	PXOR X7, X7 // the bytes of this line outside the alphabet
	XORQ AX, AX

lstep:
	CMPQ      AX, R8
	CMOVQGT   R8, AX
	MOVOU     (R14)(AX*1), X0
	MOVOU     X0, X1
	PSRLL     $4, X1
	PAND      X12, X1
	MOVOU     X0, X2
	PAND      X12, X2
	MOVOU     X8, X3
	PSHUFB    X2, X3
	MOVOU     X9, X4
	PSHUFB    X1, X4
	PAND      X4, X3
	POR       X3, X7
	MOVOU     X0, X5
	PCMPEQB   X11, X5
	PADDB     X1, X5
	MOVOU     X10, X6
	PSHUFB    X5, X6
	PADDB     X6, X0
	PMADDUBSW X13, X0
	PMADDWL   X14, X0
	PSHUFB    X15, X0
	MOVQ      AX, DX
	SHRQ      $2, DX
	NEGQ      DX
	LEAQ      (AX)(DX*1), DX // AX/4*3
	ADDQ      CX, DX
	MOVOU     X0, (DI)(DX*1)
	CMPQ      AX, R8
	JEQ       lineDone
	ADDQ      $16, AX
	JMP       lstep

lineDone:
	PXOR     X0, X0
	PCMPEQB  X7, X0
	PMOVMSKB X0, DX
	CMPL     DX, $0xFFFF
	JNE      out // a byte outside the alphabet: the line is not taken
	ADDQ     R12, BX
	ADDQ     R9, BX
	ADDQ     R13, CX
	JMP      line

out:
	MOVQ BX, taken+40(FP)
	MOVQ CX, written+48(FP)
	RET

// VPERMD's indices that put the 12 bytes of each 128-bit lane together.
DATA b64Perm<>+0(SB)/8, $0x0000000100000000
DATA b64Perm<>+8(SB)/8, $0x0000000400000002
DATA b64Perm<>+16(SB)/8, $0x0000000600000005
DATA b64Perm<>+24(SB)/8, $0x0000000700000007
GLOBL b64Perm<>(SB), RODATA|NOPTR, $32

// B64STEP16 decodes the 16 characters at AX(R14) to the output at
// CX+AX/4*3 of DI (16 bytes stored, 12 of them the output), the bytes
// outside the alphabet ORed into Y7: b64RunSSSE3's step in VEX-128 form
// (the upper halves it zeroes are of temporaries).
#define B64STEP16 \
	VMOVDQU    (R14)(AX*1), X0 \
	VPSRLD     $4, X0, X1 \
	VPAND      X12, X1, X1 \
	VPAND      X12, X0, X2 \
	VPSHUFB    X2, X8, X3 \
	VPSHUFB    X1, X9, X4 \
	VPAND      X4, X3, X3 \
	VPOR       Y3, Y7, Y7 \
	VPCMPEQB   X11, X0, X5 \
	VPADDB     X1, X5, X5 \
	VPSHUFB    X5, X10, X5 \
	VPADDB     X5, X0, X0 \
	VPMADDUBSW X13, X0, X0 \
	VPMADDWD   X14, X0, X0 \
	VPSHUFB    X15, X0, X0 \
	MOVQ       AX, DX \
	SHRQ       $2, DX \
	NEGQ       DX \
	LEAQ       (AX)(DX*1), DX \
	ADDQ       CX, DX \
	VMOVDQU    X0, (DI)(DX*1)

// func b64LinesAVX2(dst, src *byte, dstLen, srcLen, lineLen int) (taken, written int)
//
// b64LinesSSSE3 with AVX2: a line is decoded 32 characters a step (24
// bytes each, packed by VPSHUFB in each lane and VPERMD across them)
// while a step's 32-byte store ends within 4 bytes past the line's
// output, the rest 16 a step as b64LinesSSSE3 does: a line of 76
// characters in 3 steps, not 5.
TEXT ·b64LinesAVX2(SB), NOSPLIT, $0-56
	VBROADCASTI128 b64LutLo<>(SB), Y8
	VBROADCASTI128 b64LutHi<>(SB), Y9
	VBROADCASTI128 b64Roll<>(SB), Y10
	VBROADCASTI128 b64Slash<>(SB), Y11
	VBROADCASTI128 b64Nibble<>(SB), Y12
	VBROADCASTI128 b64Merge1<>(SB), Y13
	VBROADCASTI128 b64Merge2<>(SB), Y14
	VBROADCASTI128 b64Pack<>(SB), Y15
	VMOVDQU        b64Perm<>(SB), Y6
	B64LINES_ARGS

aline:
	B64LINE_END(aout, adecode)

adecode:
	VPXOR Y7, Y7, Y7 // the bytes of this line outside the alphabet
	XORQ  AX, AX

wide:
	LEAQ       38(AX), DX
	CMPQ       DX, R12
	JGT        narrow
	VMOVDQU    (R14)(AX*1), Y0
	VPSRLD     $4, Y0, Y1
	VPAND      Y12, Y1, Y1
	VPAND      Y12, Y0, Y2
	VPSHUFB    Y2, Y8, Y3
	VPSHUFB    Y1, Y9, Y4
	VPAND      Y4, Y3, Y3
	VPOR       Y3, Y7, Y7
	VPCMPEQB   Y11, Y0, Y5
	VPADDB     Y1, Y5, Y5
	VPSHUFB    Y5, Y10, Y5
	VPADDB     Y5, Y0, Y0
	VPMADDUBSW Y13, Y0, Y0
	VPMADDWD   Y14, Y0, Y0
	VPSHUFB    Y15, Y0, Y0
	VPERMD     Y0, Y6, Y0
	MOVQ       AX, DX
	SHRQ       $2, DX
	NEGQ       DX
	LEAQ       (AX)(DX*1), DX
	ADDQ       CX, DX
	VMOVDQU    Y0, (DI)(DX*1)
	ADDQ       $32, AX
	JMP        wide

narrow:
	CMPQ    AX, R8
	CMOVQGT R8, AX
	B64STEP16
	CMPQ    AX, R8
	JEQ     alineDone
	ADDQ    $16, AX
	JMP     narrow

alineDone:
	VPTEST Y7, Y7
	JNZ    aout // a byte outside the alphabet: the line is not taken
	ADDQ   R12, BX
	ADDQ   R9, BX
	ADDQ   R13, CX
	JMP    aline

aout:
	VZEROUPPER
	MOVQ BX, taken+40(FP)
	MOVQ CX, written+48(FP)
	RET
