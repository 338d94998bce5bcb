package freelist

import (
	"sync"
	"testing"
)

// Values come back last in, first out, none twice, from any goroutine.
func TestList(t *testing.T) {
	var l List[*int]
	if _, ok := l.Get(); ok {
		t.Fatal("Get on an empty List gave a value")
	}
	a, b := new(int), new(int)
	l.Put(a)
	l.Put(b)
	if v, _ := l.Get(); v != b {
		t.Fatal("the last put did not come first")
	}
	if v, _ := l.Get(); v != a {
		t.Fatal("the first put did not come second")
	}
	if _, ok := l.Get(); ok {
		t.Fatal("a value came twice")
	}

	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for i := range 1000 {
				l.Put(&i)
				if _, ok := l.Get(); !ok {
					t.Error("a value put was not there")
					return
				}
			}
		})
	}
	wg.Wait()
	if _, ok := l.Get(); ok {
		t.Fatal("values left after as many Gets as Puts")
	}
}
