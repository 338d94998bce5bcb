// Package pagecopy tells where a read(2) of a cached file should land.
//
// The kernel copies such a read with "rep movsb", which on the AMD EPYC
// cores of the project's hosts runs at a third of its speed when the
// destination lies 1 to 63 bytes past the source modulo 4 KiB (a Go
// program reading text.txt of bench/ in 256 KiB pieces into a buffer d
// bytes past: 14.6 ms of system time at d = 0, 64, 512 or 4000; 46-48 ms
// at d = 1, 3 or 8; 17 ms at 16). A reader that fills a buffer in input
// order keeps one distance for all its reads, so a bad one costs every
// read: split chunks that started at multiples of 1 MiB took half again
// the CPU for it.
package pagecopy

// Slack is the most Shift asks to move a destination by.
const Slack = 64

// Shift returns how many bytes further a destination at address dst must
// be placed, for data at input offset off (input offset 0 at the start
// of a page of the file), for the kernel to copy fast: 0 when it is
// fast already, else less than Slack.
func Shift(dst uintptr, off int64) int {
	if d := int((dst - uintptr(off)) % 4096); d >= 1 && d < Slack {
		return Slack - d
	}
	return 0
}
