package scan_test

import (
	"reflect"
	"slices"
	"testing"

	"github.com/urix-dev/urix/scan"
)

// TestScannerAPI: the public Scanner has the methods of bufio.Scanner's
// call sequence and Reset; the split-reading methods of internal/scan
// (ScanBefore, QuietPast, ...) are not part of it.
func TestScannerAPI(t *testing.T) {
	var names []string
	typ := reflect.TypeFor[*scan.Scanner]()
	for i := range typ.NumMethod() {
		names = append(names, typ.Method(i).Name)
	}
	if want := []string{"Candidate", "Err", "Reset", "Scan"}; !slices.Equal(names, want) {
		t.Errorf("scan.Scanner's methods: %v, want %v", names, want)
	}
}
