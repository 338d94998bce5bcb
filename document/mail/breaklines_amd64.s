#include "textflag.h"

// func breakLinesSSE2(dst *byte, dstLen int, b *byte, bLen int, lt, sp *uint64, limit, rel, want int) (np, written, tp, tm int)
//
// The lines breakLines takes. b points at the byte of bit 0 of lt[0] and
// sp[0] (the index's from); bLen, limit, rel and what it returns in np and
// tp are offsets from it. At rel: the 64 bits of lt and sp from rel (SHRD
// of two words) and the first '<' by BSF. Before it, the first '&' or CR
// if any: the text before it copied to dst, the byte decoded (CR LF and CR
// to LF; the references simpleRef reads), and on after it. Else the text
// to the '<' copied, the tag there compared with the five read by their
// bytes, LF written over the '<', and on after the tag (tp, tm: where in b
// and dst). With no '<' within 64 bytes, the 64 bytes copied, and on after
// them. Each copy is four 16-byte moves. Anything else ends it: another
// tag, another reference, the end of the words (limit), of b or of dst's
// room, or dst past want after a tag.
TEXT ·breakLinesSSE2(SB), NOSPLIT, $0-104
	MOVQ dst+0(FP), DI
	MOVQ dstLen+8(FP), R10
	MOVQ b+16(FP), SI
	MOVQ bLen+24(FP), R11
	MOVQ lt+32(FP), R12
	MOVQ sp+40(FP), R13
	MOVQ limit+48(FP), BX
	MOVQ rel+56(FP), R8
	XORQ R9, R9        // written
	MOVQ $-1, tp+88(FP) // no tag yet
	MOVQ $0, tm+96(FP)

line:
	// The words must hold the 64 bits from rel, b and dst 64 bytes.
	LEAQ 64(R8), AX
	CMPQ AX, BX
	JGT  done
	CMPQ AX, R11
	JGT  done
	LEAQ 64(R9), AX
	CMPQ AX, R10
	JGT  done
	MOVQ R8, AX
	SHRQ $6, AX  // the word
	MOVQ R8, CX
	ANDQ $63, CX // the bit in it
	MOVQ (R12)(AX*8), DX
	MOVQ 8(R12)(AX*8), R14
	SHRQ CX, R14, DX // the '<' from rel
	MOVQ (R13)(AX*8), R14
	MOVQ 8(R13)(AX*8), AX
	SHRQ CX, AX, R14 // the '&' and CR from rel
	// The text in dst, as it stands up to a '&', a CR or the '<'.
	MOVOU (SI)(R8*1), X0
	MOVOU 16(SI)(R8*1), X1
	MOVOU 32(SI)(R8*1), X2
	MOVOU 48(SI)(R8*1), X3
	MOVOU X0, (DI)(R9*1)
	MOVOU X1, 16(DI)(R9*1)
	MOVOU X2, 32(DI)(R9*1)
	MOVOU X3, 48(DI)(R9*1)
	TESTQ DX, DX
	JZ    nolt       // no '<' within 64 bytes
	BSFQ  DX, CX     // to the '<'
	LEAQ  (R8)(CX*1), DX // the '<'
	LEAQ  8(DX), AX
	CMPQ  AX, R11
	JGT   done
	MOVQ  $1, AX
	SHLQ  CX, AX
	DECQ  AX
	ANDQ  AX, R14
	JNZ   special

	// The tag at DX.
	MOVL (SI)(DX*1), AX
	CMPL AX, $0x3E72623C // "<br>"
	JEQ  four
	CMPL AX, $0x3E702F3C // "</p>"
	JEQ  four
	CMPL AX, $0x7669643C // "<div"
	JEQ  div
	CMPL AX, $0x69642F3C // "</di"
	JEQ  divend
	ANDL $0xFFFFFF, AX
	CMPL AX, $0x3E703C   // "<p>"
	JNE  done
	MOVQ $3, R14
	JMP  tag

four:
	MOVQ $4, R14
	JMP  tag

div:
	CMPB 4(SI)(DX*1), $0x3E // '>'
	JNE  done
	MOVQ $5, R14
	JMP  tag

divend:
	CMPB 4(SI)(DX*1), $0x76 // 'v'
	JNE  done
	CMPB 5(SI)(DX*1), $0x3E // '>'
	JNE  done
	MOVQ $6, R14

tag:
	LEAQ (R9)(CX*1), AX
	MOVB $0x0A, (DI)(AX*1) // LF over the '<'
	LEAQ 1(AX), R9
	LEAQ (DX)(R14*1), R8   // past the tag
	MOVQ R8, tp+88(FP)
	MOVQ R9, tm+96(FP)
	CMPQ R9, want+64(FP)
	JLT  line
	JMP  done

nolt:
	// 64 bytes of text, all in dst when none is a '&' or CR: a line
	// longer than them goes on.
	TESTQ R14, R14
	JNZ   special
	ADDQ  $64, R8
	ADDQ  $64, R9
	JMP   line

special:
	// The first '&' or CR before the '<', at rel+BSF; its text is in dst.
	BSFQ R14, CX
	LEAQ (R8)(CX*1), DX // the byte
	LEAQ 8(DX), AX
	CMPQ AX, R11
	JGT  done            // too near b's end to tell
	LEAQ (R9)(CX*1), R14 // where its decoding goes in dst
	MOVBLZX (SI)(DX*1), AX
	CMPB AL, $0x0D
	JNE  ref
	MOVB $0x0A, (DI)(R14*1) // CR LF and CR alone: LF
	LEAQ 1(R14), R9
	LEAQ 1(DX), R8
	CMPB (SI)(R8*1), $0x0A
	JNE  line
	INCQ R8
	JMP  line

ref:
	// CX: the character; the reference's length by the tail jumped to.
	MOVL (SI)(DX*1), AX
	MOVL $0x3C, CX
	CMPL AX, $0x3B746C26 // "&lt;"
	JEQ  ref4
	MOVL $0x3E, CX
	CMPL AX, $0x3B746726 // "&gt;"
	JEQ  ref4
	MOVL $0x27, CX
	CMPL AX, $0x39332326 // "&#39"
	JEQ  ref5
	MOVL $0x22, CX
	CMPL AX, $0x34332326 // "&#34"
	JEQ  ref5
	MOVL $0x26, CX
	CMPL AX, $0x706D6126 // "&amp"
	JEQ  ref5
	MOVL $0x22, CX
	CMPL AX, $0x6F757126 // "&quo"
	JNE  done
	CMPB 4(SI)(DX*1), $0x74 // 't'
	JNE  done
	CMPB 5(SI)(DX*1), $0x3B // ';'
	JNE  done
	LEAQ 6(DX), R8
	JMP  decoded

ref5:
	CMPB 4(SI)(DX*1), $0x3B // ';'
	JNE  done
	LEAQ 5(DX), R8
	JMP  decoded

ref4:
	LEAQ 4(DX), R8

decoded:
	MOVB CX, (DI)(R14*1)
	LEAQ 1(R14), R9
	JMP  line

done:
	// What was read since the last tag (or the start) is given too, with
	// np at the byte it stopped before.
	MOVQ R8, np+72(FP)
	MOVQ R9, written+80(FP)
	RET
