package mail

import (
	"fmt"
	"io"
	"runtime"
	"strings"
	"testing"

	"github.com/urix-dev/urix/extract"
)

// mboxGen generates an mbox of n messages on the fly, each with a URI and
// about size bytes, and samples the heap every so often.
type mboxGen struct {
	n, i, size int
	cur        string
	maxHeap    uint64
	total      int64
}

func (g *mboxGen) Read(p []byte) (int, error) {
	for g.cur == "" {
		if g.i == g.n {
			return 0, io.EOF
		}
		g.i++
		if g.i%500 == 0 {
			var ms runtime.MemStats
			runtime.ReadMemStats(&ms)
			g.maxHeap = max(g.maxHeap, ms.HeapAlloc)
		}
		var b strings.Builder
		fmt.Fprintf(&b, "From gen%d@example.com Mon Jan  1 00:00:00 2024\nFrom: gen%d@example.com\nMessage-ID: <g%d@example.com>\n", g.i, g.i, g.i)
		if g.i%2 == 0 {
			fmt.Fprintf(&b, "Content-Type: multipart/alternative; boundary=b%d\n\n--b%d\nContent-Type: text/plain\nContent-Transfer-Encoding: quoted-printable\n\nhttp://example.com/msg/=\n%d\n", g.i, g.i, g.i)
			line := strings.Repeat("filler text >From x =3D= ", 3) + "\n"
			for b.Len() < g.size-100 {
				b.WriteString(line)
			}
			fmt.Fprintf(&b, "--b%d--\n\n", g.i)
		} else {
			fmt.Fprintf(&b, "\nhttp://example.com/msg/%d\n", g.i)
			line := strings.Repeat("filler text, no links here ", 3) + "\n"
			for b.Len() < g.size {
				b.WriteString(line)
			}
			b.WriteString("\n")
		}
		g.cur = b.String()
	}
	n := copy(p, g.cur)
	g.cur = g.cur[n:]
	g.total += int64(n)
	return n, nil
}

// TestBigMbox reads a 1 GiB generated mbox and checks that the heap stays
// bounded. Run it with
//
//	go test -run TestBigMbox -v ./internal/mail
func TestBigMbox(t *testing.T) {
	if testing.Short() || raceEnabled {
		t.Skip("1 GiB mbox: skipped under -short and -race")
	}
	const n = 100000
	g := &mboxGen{n: n, size: (1 << 30) / n}
	found := 0
	buf := make([]byte, 32<<10)
	err := Walk(g, Options{ResolveBase: extract.ResolveBase, Format: FormatMbox, Warn: func(no int, msg string) { t.Errorf("warning %d: %s", no, msg) }}, func(p *Part) error {
		want := fmt.Sprintf("http://example.com/msg/%d\n", p.MsgNo)
		head, err := io.ReadFull(p.Body, buf[:len(want)])
		if err != nil || string(buf[:head]) != want {
			return fmt.Errorf("message %d: got %q, %v", p.MsgNo, buf[:head], err)
		}
		found++
		_, err = io.CopyBuffer(io.Discard, p.Body, buf)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if found != n {
		t.Errorf("found %d of %d", found, n)
	}
	t.Logf("read %d bytes, max HeapAlloc %d KiB", g.total, g.maxHeap>>10)
	if g.total < 1<<30 {
		t.Errorf("only %d bytes generated", g.total)
	}
	if g.maxHeap > 64<<20 {
		t.Errorf("max HeapAlloc %d MiB", g.maxHeap>>20)
	}
}
