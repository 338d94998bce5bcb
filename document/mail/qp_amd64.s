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
//
// The LFs are taken from the mask word in a register, the lowest bit
// cleared each line, a word loaded only when one is used up: found again
// from the line's start, each LF waited for the load of its word, which
// waited for the line before (a chain of some 30 cycles a line; the
// lines are now independent but for two additions).
TEXT ·qpLinesSSE2(SB), NOSPLIT, $0-64
	MOVQ out+0(FP), DI
	MOVQ in+8(FP), SI
	MOVQ outLen+16(FP), R10
	MOVQ inLen+24(FP), R11
	MOVQ lfs+32(FP), R12
	MOVQ off+40(FP), R8
	XORQ BX, BX          // in taken: the line's start
	XORQ R9, R9          // out written
	LEAQ (R11)(R8*1), R13 // the bit of in's end
	// AX: the word of the mask in DX, which holds the LFs not yet
	// taken: from bit off of lfs on.
	MOVQ R8, AX
	SHRQ $6, AX
	MOVQ R8, CX
	ANDQ $63, CX
	MOVQ (R12)(AX*8), DX
	SHRQ CX, DX
	SHLQ CX, DX

next:
	TESTQ DX, DX
	JNZ   found
	INCQ  AX
	MOVQ  AX, CX
	SHLQ  $6, CX
	CMPQ  CX, R13
	JGE   out // no LF before in's end
	MOVQ  (R12)(AX*8), DX
	JMP   next

found:
	BSFQ DX, CX
	LEAQ -1(DX), R14
	ANDQ R14, DX     // the LF taken off the mask
	MOVQ AX, R14
	SHLQ $6, R14
	ADDQ CX, R14
	SUBQ R8, R14     // the LF's index in in
	CMPQ R14, R11
	JGE  out         // past in
	MOVQ R14, CX
	SUBQ BX, CX      // CX: the bytes of the line to copy
	JZ   copied      // an empty line
	MOVBLZX -1(SI)(R14*1), R15
	CMPB    R15, $0x20
	JEQ     out
	CMPB    R15, $0x09
	JEQ     out
	CMPB    R15, $0x0D
	JNE     room
	DECQ    CX       // the CR is dropped
	JZ      copied
	MOVBLZX -2(SI)(R14*1), R15
	CMPB    R15, $0x20
	JEQ     out
	CMPB    R15, $0x09
	JEQ     out
	CMPB    R15, $0x0D
	JEQ     out

room:
	LEAQ 1(R9)(CX*1), R15
	CMPQ R15, R10
	JGT  out
	// A line of under 64 bytes (most) with 64 bytes of in and out from
	// its start: four 16-byte copies, whatever its length, no branch on
	// it (the bytes past the line are written over by the LF and the
	// lines after it, or are past what is returned).
	CMPQ CX, $64
	JGE  long
	LEAQ 64(BX), R15
	CMPQ R15, R11
	JGT  long
	LEAQ 64(R9), R15
	CMPQ R15, R10
	JGT  long
	MOVOU (SI)(BX*1), X0
	MOVOU 16(SI)(BX*1), X1
	MOVOU 32(SI)(BX*1), X2
	MOVOU 48(SI)(BX*1), X3
	MOVOU X0, (DI)(R9*1)
	MOVOU X1, 16(DI)(R9*1)
	MOVOU X2, 32(DI)(R9*1)
	MOVOU X3, 48(DI)(R9*1)

copied:
	// CX bytes of the line are in out; the LF after them, and on.
	ADDQ CX, R9
	CMPQ R9, R10
	JGE  undo // no room for the LF (an empty line at out's end)
	MOVB $0x0A, (DI)(R9*1)
	INCQ R9
	LEAQ 1(R14), BX
	JMP  next

undo:
	SUBQ CX, R9
	JMP  out

long:
	// A longer line, or one near the end of in or out: 16 bytes a step,
	// the last 16 overlapping, or byte by byte under 16.
	LEAQ (SI)(BX*1), R15 // the line
	CMPQ CX, $16
	JLT  short
	XORQ R13, R13

chunk:
	LEAQ  16(R13), R12
	CMPQ  R12, CX
	JGE   last
	MOVOU (R15)(R13*1), X0
	MOVOU X0, (DI)(R9*1)
	ADDQ  $16, R9
	MOVQ  R12, R13
	JMP   chunk

last:
	SUBQ  R13, R9 // back to the line's output
	MOVOU -16(R15)(CX*1), X0
	LEAQ  (DI)(R9*1), R12
	MOVOU X0, -16(R12)(CX*1)
	JMP   restore

short:
	XORQ R13, R13

byte:
	MOVBLZX (R15)(R13*1), R12
	MOVB    R12, (DI)(R9*1)
	INCQ    R9
	INCQ    R13
	CMPQ    R13, CX
	JLT     byte
	SUBQ    CX, R9

restore:
	// R12 and R13 were used for the copy.
	MOVQ lfs+32(FP), R12
	LEAQ (R11)(R8*1), R13
	JMP  copied

out:
	MOVQ BX, taken+48(FP)
	MOVQ R9, written+56(FP)
	RET
