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
