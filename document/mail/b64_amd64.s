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
	MOVQ  dst+0(FP), DI
	MOVQ  src+8(FP), SI
	MOVQ  dstLen+16(FP), R10
	MOVQ  srcLen+24(FP), R11
	MOVQ  lineLen+32(FP), R12
	MOVOU b64LutLo<>(SB), X8
	MOVOU b64LutHi<>(SB), X9
	MOVOU b64Roll<>(SB), X10
	MOVOU b64Slash<>(SB), X11
	MOVOU b64Nibble<>(SB), X12
	MOVOU b64Merge1<>(SB), X13
	MOVOU b64Merge2<>(SB), X14
	MOVOU b64Pack<>(SB), X15
	MOVQ  R12, R13
	SHRQ  $2, R13
	LEAQ  (R13)(R13*2), R13 // the output of a line
	MOVQ  R12, R8
	SUBQ  $16, R8 // the last step's start in a line
	XORQ  BX, BX  // src taken
	XORQ  CX, CX  // dst written

line:
	LEAQ    1(BX)(R12*1), DX
	CMPQ    DX, R11
	JGT     out // no line end in src
	LEAQ    4(CX)(R13*1), DX
	CMPQ    DX, R10
	JGT     out // no room in dst
	LEAQ    (SI)(BX*1), R14 // the line
	MOVBLZX (R14)(R12*1), DX
	MOVQ    $1, R9          // the line end's length
	CMPB    DX, $0x0A
	JEQ     decode
	CMPB    DX, $0x0D
	JNE     out
	LEAQ    2(BX)(R12*1), DX
	CMPQ    DX, R11
	JGT     out
	MOVBLZX 1(R14)(R12*1), DX
	CMPB    DX, $0x0A
	JNE     out
	MOVQ    $2, R9

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
