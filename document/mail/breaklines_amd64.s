#include "textflag.h"

// func breakLinesSSE2(dst *byte, dstLen int, b *byte, bLen int, lt, sp *uint64, limit, rel, want int) (np, written, tp, tm int)
//
// The lines breakLines takes. b points at the byte of bit 0 of lt[0] and
// sp[0] (the index's from); bLen, limit, rel and what it returns in np and
// tp are offsets from it.
//
// It goes a word of lt and sp at a time (breakLinesRef in Go): DX and R14
// hold the word's '<' and '&'/CR marks at or after the read position R8,
// AX the word's index. Each step first copies the 64 bytes from R8 to dst
// (four 16-byte moves). Then, the lowest mark: a '&' or CR before the
// next '<' is decoded (CR LF and CR to LF; the references simpleRef
// reads) and taken off R14; a '<' is compared with the five tags read by
// their bytes, LF written over it, and taken off DX (tp, tm: where in b
// and dst the tag ended). The bytes of a tag or reference hold no other
// mark, so the marks left are past them, and the next line waits for
// nothing but that bit taken off. A word with no mark left: its text is
// in dst already; on to the next word. (Reading the 64 bits from R8 of
// two words for each line made every line wait for the loads of its words,
// which waited for the line before: some 30 cycles a line.) Anything else
// ends it: another tag, another reference, the end of the words (limit),
// of b or of dst's room, or dst past want after a tag.
TEXT ·breakLinesSSE2(SB), NOSPLIT, $0-104
	MOVQ dst+0(FP), DI
	MOVQ dstLen+8(FP), R10
	MOVQ b+16(FP), SI
	MOVQ bLen+24(FP), R11
	MOVQ lt+32(FP), R12
	MOVQ sp+40(FP), R13
	MOVQ limit+48(FP), BX
	MOVQ rel+56(FP), R8
	XORQ R9, R9         // written
	MOVQ $-1, tp+88(FP) // no tag yet
	MOVQ $0, tm+96(FP)

	// The words of R8, their marks before it cleared.
	MOVQ R8, AX
	SHRQ $6, AX
	MOVQ R8, CX
	ANDQ $63, CX
	MOVQ $-1, R15
	SHLQ CX, R15
	MOVQ (R12)(AX*8), DX
	ANDQ R15, DX
	MOVQ (R13)(AX*8), R14
	ANDQ R15, R14

line:
	// The words must hold the 64 bytes from R8, b and dst 64 bytes.
	LEAQ 64(R8), CX
	CMPQ CX, BX
	JGT  done
	CMPQ CX, R11
	JGT  done
	LEAQ 64(R9), CX
	CMPQ CX, R10
	JGT  done
	// The text in dst, as it stands up to the next mark.
	MOVOU (SI)(R8*1), X0
	MOVOU 16(SI)(R8*1), X1
	MOVOU 32(SI)(R8*1), X2
	MOVOU 48(SI)(R8*1), X3
	MOVOU X0, (DI)(R9*1)
	MOVOU X1, 16(DI)(R9*1)
	MOVOU X2, 32(DI)(R9*1)
	MOVOU X3, 48(DI)(R9*1)
	TESTQ DX, DX
	JZ    nolt
	// A '&' or CR before the '<'?
	MOVQ  DX, R15
	NEGQ  R15
	ANDQ  DX, R15
	DECQ  R15     // the bits below the '<'
	TESTQ R15, R14
	JNZ   special

	// The tag at R15.
	BSFQ DX, CX
	MOVQ AX, R15
	SHLQ $6, R15
	ADDQ CX, R15 // the '<'
	LEAQ 8(R15), CX
	CMPQ CX, R11
	JGT  done
	MOVL (SI)(R15*1), CX
	CMPL CX, $0x3E72623C // "<br>"
	JEQ  four
	CMPL CX, $0x3E702F3C // "</p>"
	JEQ  four
	CMPL CX, $0x7669643C // "<div"
	JEQ  div
	CMPL CX, $0x69642F3C // "</di"
	JEQ  divend
	ANDL $0xFFFFFF, CX
	CMPL CX, $0x3E703C   // "<p>"
	JNE  done
	MOVQ $3, CX
	JMP  tag

four:
	MOVQ $4, CX
	JMP  tag

div:
	CMPB 4(SI)(R15*1), $0x3E // '>'
	JNE  done
	MOVQ $5, CX
	JMP  tag

divend:
	CMPB 4(SI)(R15*1), $0x76 // 'v'
	JNE  done
	CMPB 5(SI)(R15*1), $0x3E // '>'
	JNE  done
	MOVQ $6, CX

tag:
	// The text to the '<' is in dst: LF over the '<', on past the tag.
	ADDQ R15, R9
	SUBQ R8, R9
	MOVB $0x0A, (DI)(R9*1)
	INCQ R9
	LEAQ (R15)(CX*1), R8
	LEAQ -1(DX), CX
	ANDQ CX, DX // the '<' taken off
	MOVQ R8, tp+88(FP)
	MOVQ R9, tm+96(FP)
	CMPQ R9, want+64(FP)
	JLT  line
	JMP  done

nolt:
	TESTQ R14, R14
	JNZ   special
	// No mark left in the word: its text is in dst (up to 64 bytes
	// from R8), unless a tag or reference took R8 past its end.
	INCQ  AX
	MOVQ  AX, CX
	SHLQ  $6, CX // the next word's start
	CMPQ  CX, R8
	JLE   next
	SUBQ  R8, CX
	ADDQ  CX, R9
	ADDQ  CX, R8

next:
	MOVQ (R12)(AX*8), DX
	MOVQ (R13)(AX*8), R14
	JMP  line

special:
	// The lowest '&' or CR, at R15; its text is in dst.
	BSFQ    R14, CX
	MOVQ    AX, R15
	SHLQ    $6, R15
	ADDQ    CX, R15 // the byte
	LEAQ    8(R15), CX
	CMPQ    CX, R11
	JGT     done    // too near b's end to tell
	MOVBLZX (SI)(R15*1), CX
	CMPB    CL, $0x0D
	JNE     ref
	// CR LF and CR alone: LF.
	ADDQ    R15, R9
	SUBQ    R8, R9
	MOVB    $0x0A, (DI)(R9*1)
	LEAQ    1(R15), R8
	CMPB    (SI)(R8*1), $0x0A
	JNE     decoded
	INCQ    R8
	JMP     decoded

ref:
	// Which reference: each tail writes its character and sets R8
	// past it.
	MOVL (SI)(R15*1), CX
	CMPL CX, $0x3B746C26 // "&lt;"
	JEQ  reflt
	CMPL CX, $0x3B746726 // "&gt;"
	JEQ  refgt
	CMPL CX, $0x39332326 // "&#39"
	JEQ  refapos
	CMPL CX, $0x34332326 // "&#34"
	JEQ  refquot5
	CMPL CX, $0x706D6126 // "&amp"
	JEQ  refamp
	CMPL CX, $0x6F757126 // "&quo"
	JNE  done
	CMPB 4(SI)(R15*1), $0x74 // 't'
	JNE  done
	CMPB 5(SI)(R15*1), $0x3B // ';'
	JNE  done
	MOVQ $0x22, CX
	ADDQ R15, R9
	SUBQ R8, R9
	LEAQ 6(R15), R8
	JMP  put

reflt:
	MOVQ $0x3C, CX
	JMP  ref4

refgt:
	MOVQ $0x3E, CX

ref4:
	ADDQ R15, R9
	SUBQ R8, R9
	LEAQ 4(R15), R8
	JMP  put

refapos:
	MOVQ $0x27, CX
	JMP  ref5

refquot5:
	MOVQ $0x22, CX
	JMP  ref5

refamp:
	MOVQ $0x26, CX

ref5:
	CMPB 4(SI)(R15*1), $0x3B // ';'
	JNE  done
	ADDQ R15, R9
	SUBQ R8, R9
	LEAQ 5(R15), R8
	JMP  put

put:
	MOVB CX, (DI)(R9*1)

decoded:
	INCQ R9
	LEAQ -1(R14), CX
	ANDQ CX, R14 // the mark taken off
	JMP  line

done:
	// What was read since the last tag (or the start) is given too, with
	// np at the byte it stopped before.
	MOVQ R8, np+72(FP)
	MOVQ R9, written+80(FP)
	RET
