package mail

import "testing"

// TestB64LinesFast with the SSSE3 loop where b64LinesFast takes the AVX2
// one: both are held to the lines one by one.
func TestB64LinesSSSE3(t *testing.T) {
	if !b64Vector {
		t.Skip("no SSSE3")
	}
	if !b64AVX2 {
		t.Skip("TestB64LinesFast runs the SSSE3 loop here")
	}
	b64AVX2 = false
	defer func() { b64AVX2 = true }()
	checkB64LinesFast(t)
}
