package pagecopy

import "testing"

// Shift moves every distance out of the slow range, by less than Slack,
// and leaves the others alone.
func TestShift(t *testing.T) {
	for off := int64(0); off < 3*4096; off += 7 {
		for dst := uintptr(1 << 20); dst < 1<<20+4096; dst += 13 {
			s := Shift(dst, off)
			d := (dst - uintptr(off)) % 4096
			slow := d >= 1 && d < Slack
			if !slow && s != 0 || s < 0 || s >= Slack {
				t.Fatalf("dst %#x off %d: shift %d", dst, off, s)
			}
			if d2 := (dst + uintptr(s) - uintptr(off)) % 4096; d2 >= 1 && d2 < Slack {
				t.Fatalf("dst %#x off %d: shifted by %d, still %d past", dst, off, s, d2)
			}
		}
	}
}
