package extract

import (
	"fmt"
	"runtime"
	"strings"
	"testing"
)

func TestUniqueSetExact(t *testing.T) {
	u := NewUniqueSet()
	for i, tc := range []struct {
		key  string
		want bool
	}{{"a", true}, {"b", true}, {"a", false}, {"", true}, {"", false}, {"b", false}} {
		if got := u.Add(tc.key); got != tc.want {
			t.Errorf("%d: Add(%q) = %v, want %v", i, tc.key, got, tc.want)
		}
	}
}

// Past the exact set, the Bloom filter still never lets a duplicate
// through, and its false positives stay rare at the load it is sized for.
func TestUniqueSetFilter(t *testing.T) {
	u := newUniqueSet(100, 1<<16) // 524,288 bits
	const n = 20000
	falsePos := 0
	for i := range n {
		if !u.Add(fmt.Sprintf("http://example.com/%d", i)) {
			falsePos++
		}
	}
	if u.filter == nil {
		t.Fatal("the exact set never overflowed into the filter")
	}
	for i := range n {
		if u.Add(fmt.Sprintf("http://example.com/%d", i)) {
			t.Fatalf("duplicate %d reported as new", i)
		}
	}
	// 20,000 keys in 524,288 bits with 7 hashes: about 1 in 100,000.
	if falsePos > 5 {
		t.Errorf("%d false positives in %d keys", falsePos, n)
	}
}

func TestUniqueAcrossScanners(t *testing.T) {
	set := NewUniqueSet()
	opts := Options{Unique: true, UniqueSet: set}
	var got []string
	for _, in := range []string{"http://a.example/ HTTP://A.EXAMPLE/", "http://a.example:80/ http://b.example/"} {
		for m, err := range All(strings.NewReader(in), opts) {
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, m.URI)
		}
	}
	if want := "http://a.example/ http://b.example/"; strings.Join(got, " ") != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// The exact set holds what it counts: filled to its limit, the heap it
// takes (keys, map, blocks) is within it. It counted only its keys'
// bytes, and 64 MiB of them took 150 MB.
func TestUniqueSetMemory(t *testing.T) {
	const limit = 8 << 20
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	u := newUniqueSet(limit, 1<<20)
	n := 0
	for ; u.bytes < limit-uniqueBlock; n++ {
		// Keys of every length from 20 to 83 bytes, as URIs are.
		if !u.Add(fmt.Sprintf("http://h%d.example/%s", n, strings.Repeat("p", n%64))) {
			t.Fatalf("key %d taken for one seen", n)
		}
	}
	if u.filter != nil {
		t.Fatal("switched to the filter before the limit")
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	held := int64(after.HeapAlloc) - int64(before.HeapAlloc)
	t.Logf("%d keys: %d bytes counted, %d held (%.1f a key)", n, u.bytes, held, float64(held)/float64(n))
	if held > limit || held < limit/2 {
		t.Errorf("%d keys counted as %d bytes hold %d (limit %d)", n, u.bytes, held, limit)
	}
	runtime.KeepAlive(u)
}
