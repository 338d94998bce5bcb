package scan

import (
	"reflect"
	"testing"
)

// TestCandidateFieldsSet: emit sets each field of the Candidate it reuses
// one by one (no composite literal, for speed), so a field added to
// Candidate must be set there too, or it keeps the previous candidate's
// value; so must angleStop for each field of angleState in its memo.
func TestCandidateFieldsSet(t *testing.T) {
	// Joined, JoinedRaw and JoinedEnd are set after emit, and read, only
	// with the BareBreak flag.
	if n := reflect.TypeFor[Candidate]().NumField(); n != 13 {
		t.Errorf("Candidate has %d fields: set the new ones in emit, then update this test", n)
	}
	if n := reflect.TypeFor[angleState]().NumField(); n != 7 {
		t.Errorf("angleState has %d fields: copy the new ones in angleStop, then update this test", n)
	}
}
