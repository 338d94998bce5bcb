package cli

import (
	"debug/elf"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"
)

// TestBinaryLinksNoHTTP: the urix binary links no HTTP server or TLS. The
// progress bar's package has them (its StartHTTPServer), and they came in
// whole once the bar was held where reflection could reach its methods:
// 3.6 MB more to map at every start of a mail filter's urix.
func TestBinaryLinksNoHTTP(t *testing.T) {
	if testing.Short() || runtime.GOOS != "linux" {
		t.Skip("builds the binary; Linux (ELF) only")
	}
	bin := filepath.Join(t.TempDir(), "urix")
	if out, err := exec.Command("go", "build", "-o", bin, "../..").CombinedOutput(); err != nil {
		t.Skipf("go build: %v\n%s", err, out)
	}
	f, err := elf.Open(bin)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	syms, err := f.Symbols()
	if err != nil {
		t.Fatal(err)
	}
	// The packages' init and tables stay (they are imported); their
	// code goes unless something reaches it.
	for _, s := range syms {
		if s.Name == "net/http.(*Server).Serve" || s.Name == "crypto/tls.(*Conn).Handshake" {
			t.Fatalf("the binary links %s (and with it an HTTP server and TLS)", s.Name)
		}
	}
}
