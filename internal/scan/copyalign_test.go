package scan

import (
	"fmt"
	"io"
	"strings"
	"testing"
	"unsafe"
)

// offsetReader records, for each Read after the first few (while the
// buffer still grows), how far its destination lies past its input
// offset modulo 4 KiB.
type offsetReader struct {
	r     io.Reader
	off   int64
	reads int
	slow  []string
}

func (o *offsetReader) Read(p []byte) (int, error) {
	o.reads++
	if len(p) > 0 && o.reads > 8 {
		d := (uintptr(unsafe.Pointer(&p[0])) - uintptr(o.off)) % 4096
		if d >= 1 && d < 64 {
			o.slow = append(o.slow, fmt.Sprintf("read %d at %d: %d bytes past", o.reads, o.off, d))
		}
	}
	n, err := o.r.Read(p)
	o.off += int64(n)
	return n, err
}

// The scanner places its reads where the kernel copies them fast
// (keepForCopy): never 1 to 63 bytes past their input offset modulo
// 4 KiB, whatever the text makes it keep. The distance moves by what a
// discard drops modulo 4 KiB, which the buffer's size (and so the length
// limit) sets: many limits make it land on many values.
func TestReadsAvoidSlowCopy(t *testing.T) {
	var b strings.Builder
	for i := 0; b.Len() < 3<<20; i++ {
		if i%4 == 0 {
			fmt.Fprintf(&b, "see <http://example.com/%d/%s> ", i, strings.Repeat("p", i%97))
		}
		b.WriteString(strings.Repeat("plain words ", 1+i%13))
	}
	text := b.String()
	total := 0
	for maxLen := 1000; maxLen < 1100; maxLen++ {
		or := &offsetReader{r: strings.NewReader(text)}
		s := New(or, Config{MaxLength: maxLen})
		for s.Scan() {
		}
		total += or.reads - 8
		for _, m := range or.slow {
			t.Errorf("length limit %d: %s", maxLen, m)
		}
	}
	if total < 500 {
		t.Fatalf("only %d reads", total)
	}
}

// keepForCopy keeps at most 64 bytes more than asked, and moves the
// distance of every residue out of the slow range.
func TestKeepForCopy(t *testing.T) {
	s := New(strings.NewReader(""), Config{})
	addr := uintptr(unsafe.Pointer(&s.buf[0]))
	for base := int64(0); base < 2*4096; base += 1 {
		s.base = base
		for _, keep := range []int{100, 5000} {
			k := s.keepForCopy(keep)
			if k > keep || k < keep-64 {
				t.Fatalf("base %d: keep %d -> %d", base, keep, k)
			}
			if d := (addr - uintptr(base+int64(k))) % 4096; d >= 1 && d < 64 {
				t.Fatalf("base %d, keep %d -> %d: %d bytes past", base, keep, k, d)
			}
		}
	}
}
