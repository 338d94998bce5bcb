#include "textflag.h"

// func qpLinesSSE2(out, in *byte, outLen, inLen int, lfs *uint64, off int) (taken, written int)
//
// Whole lines of in, which holds no '=', copied to out as qpReader.fast
// copies them: each line's LF found by the bit mask of LFs fast has
// (lfs, bit i+off for in[i]), its bytes copied 16 at a time (the last 16
// of the line overlapping the step before), a CR before the LF dropped,
// and LF written. It stops before a line that ends with a blank (a space
// or tab, or one of them or a CR before the CR): fast takes those, whose
// trailing blanks it drops by its own rules; and before a line with no LF
// in in, or whose output does not fit in out. It returns the bytes of in
// taken and of out written.
TEXT ·qpLinesSSE2(SB), NOSPLIT, $0-64
	MOVQ out+0(FP), DI
	MOVQ in+8(FP), SI
	MOVQ outLen+16(FP), R10
	MOVQ inLen+24(FP), R11
	XORQ BX, BX // in taken: the line's start
	XORQ R9, R9 // out written

line:
	// The first LF at or after in[BX]: bit BX+off of lfs and on, to
	// bit inLen+off.
	MOVQ off+40(FP), R8
	LEAQ (BX)(R8*1), R12
	LEAQ (R11)(R8*1), R13

find:
	CMPQ  R12, R13
	JGE   out // no LF in in
	MOVQ  R12, DX
	SHRQ  $6, DX
	MOVQ  lfs+32(FP), AX
	MOVQ  (AX)(DX*8), DX
	MOVQ  R12, CX
	SHRQ  CX, DX // by R12 mod 64
	TESTQ DX, DX
	JNZ   found
	ORQ   $63, R12
	INCQ  R12
	JMP   find

found:
	BSFQ DX, DX
	ADDQ DX, R12
	SUBQ R8, R12 // the LF's index in in
	CMPQ R12, R11
	JGE  out     // past in

	// R13: the bytes of the line to copy.
	MOVQ    R12, R13
	SUBQ    BX, R13
	JZ      copied // an empty line
	MOVBLZX -1(SI)(R12*1), DX
	CMPB    DX, $0x20
	JEQ     out
	CMPB    DX, $0x09
	JEQ     out
	CMPB    DX, $0x0D
	JNE     room
	DECQ    R13    // the CR is dropped
	JZ      copied
	MOVBLZX -2(SI)(R12*1), DX
	CMPB    DX, $0x20
	JEQ     out
	CMPB    DX, $0x09
	JEQ     out
	CMPB    DX, $0x0D
	JEQ     out

room:
	LEAQ 1(R9)(R13*1), DX
	CMPQ DX, R10
	JGT  out
	LEAQ (SI)(BX*1), R14 // the line
	LEAQ (DI)(R9*1), CX  // its output
	// A line of up to 64 bytes (most) with 64 bytes of in and out from
	// its start: four 16-byte copies, whatever its length, no branch on
	// it (the bytes past the line are written over by the LF and the
	// lines after it, or are past what is returned).
	CMPQ R13, $64
	JGT  long
	LEAQ 64(BX), DX
	CMPQ DX, R11
	JGT  long
	LEAQ 64(R9), DX
	CMPQ DX, R10
	JGT  long
	MOVOU (R14), X0
	MOVOU 16(R14), X1
	MOVOU 32(R14), X2
	MOVOU 48(R14), X3
	MOVOU X0, (CX)
	MOVOU X1, 16(CX)
	MOVOU X2, 32(CX)
	MOVOU X3, 48(CX)
	JMP   copied

long:
	CMPQ R13, $16
	JLT  short
	XORQ AX, AX

chunk:
	LEAQ  16(AX), DX
	CMPQ  DX, R13
	JGE   last
	MOVOU (R14)(AX*1), X0
	MOVOU X0, (CX)(AX*1)
	MOVQ  DX, AX
	JMP   chunk

last:
	MOVOU -16(R14)(R13*1), X0
	MOVOU X0, -16(CX)(R13*1)
	JMP   copied

short:
	XORQ AX, AX

byte:
	MOVBLZX (R14)(AX*1), DX
	MOVB    DX, (CX)(AX*1)
	INCQ    AX
	CMPQ    AX, R13
	JLT     byte

copied:
	ADDQ R13, R9
	LEAQ 1(R9), DX
	CMPQ DX, R10
	JGT  undo // no room for the LF (an empty line at out's end)
	MOVB $0x0A, (DI)(R9*1)
	INCQ R9
	LEAQ 1(R12), BX
	JMP  line

undo:
	SUBQ R13, R9

out:
	MOVQ BX, taken+48(FP)
	MOVQ R9, written+56(FP)
	RET
