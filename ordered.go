package main

import (
	"bytes"
	"io"
	"sync"
)

// orderedOutput lets files be read in parallel while their output comes
// out in the order of the files, byte for byte as with one worker. The
// file at the head of the order writes straight through; the others
// buffer up to spoolLimit bytes each and then wait for their turn, so
// memory stays bounded by workers × spoolLimit.
type orderedOutput struct {
	mu    sync.Mutex
	turn  *sync.Cond
	w     io.Writer
	head  int // index of the file whose output goes straight to w
	spool map[int]*bytes.Buffer
	done  map[int]bool
}

const spoolLimit = 4 << 20

func newOrderedOutput(w io.Writer) *orderedOutput {
	o := &orderedOutput{w: w, spool: map[int]*bytes.Buffer{}, done: map[int]bool{}}
	o.turn = sync.NewCond(&o.mu)
	return o
}

// sink returns the writer for the file at index i of the order.
func (o *orderedOutput) sink(i int) io.Writer { return orderedSink{o, i} }

type orderedSink struct {
	o *orderedOutput
	i int
}

func (s orderedSink) Write(p []byte) (int, error) {
	o := s.o
	o.mu.Lock()
	defer o.mu.Unlock()
	for o.head != s.i && o.spoolOf(s.i).Len() >= spoolLimit {
		o.turn.Wait()
	}
	if o.head == s.i {
		return o.w.Write(p)
	}
	return o.spoolOf(s.i).Write(p)
}

func (o *orderedOutput) spoolOf(i int) *bytes.Buffer {
	b := o.spool[i]
	if b == nil {
		b = new(bytes.Buffer)
		o.spool[i] = b
	}
	return b
}

// finish marks file i done; the head moves on past every finished file,
// writing out what they spooled.
func (o *orderedOutput) finish(i int) error {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.done[i] = true
	var err error
	for o.done[o.head] {
		delete(o.done, o.head)
		o.head++
		if b := o.spool[o.head]; b != nil {
			if _, werr := o.w.Write(b.Bytes()); werr != nil && err == nil {
				err = werr
			}
			delete(o.spool, o.head)
		}
	}
	o.turn.Broadcast()
	return err
}
