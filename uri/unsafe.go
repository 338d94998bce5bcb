package uri

import "unsafe"

// unsafeString views b as a string without copying. The caller must not
// modify b while the string is in use.
func unsafeString(b []byte) string {
	return unsafe.String(unsafe.SliceData(b), len(b))
}

// unsafeStringData returns the address of s's bytes (tests use it to tell a
// returned string from a copy).
func unsafeStringData(s string) *byte { return unsafe.StringData(s) }
