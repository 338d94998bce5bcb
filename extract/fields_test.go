package extract

import (
	"reflect"
	"testing"
)

// TestMatchFieldsSet: fromCandidate sets each field of the Match it
// reuses one by one (no composite literal, for speed), so a field added
// to Match must be set there too, or it keeps the previous match's value.
func TestMatchFieldsSet(t *testing.T) {
	if n := reflect.TypeFor[Match]().NumField(); n != 13 {
		t.Errorf("Match has %d fields: set the new ones in fromCandidate, then update this test", n)
	}
}
