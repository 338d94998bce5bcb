package parallel

import (
	"io"
	"math"
	"os"
	"sync"
)

// Ordered lets inputs be read in parallel while their output comes out
// in the order of the inputs, byte for byte as with one worker. Input i
// writes to Writer(i) and calls Done(i) when it is through. The input
// at the head of the order writes straight through; the others
// spool theirs: up to spoolLimit bytes each in memory, the rest in a
// temporary file, so that memory stays bounded by workers × spoolLimit and
// no worker waits for the one before it. (Waiting was the first design:
// two files whose output passed 4 MiB then took -j 2 as long as -j 1.)
// Where no temporary file can be written, a worker whose spool is full
// waits for its turn.
type Ordered struct {
	mu    sync.Mutex
	turn  *sync.Cond
	w     io.Writer
	head  int // index of the file whose output goes straight to w
	spool map[int]*spool
	done  map[int]bool
	last  int // the last input whose output is written (Stop)
}

// spoolLimit is one chunk: the output of a small file stays in memory,
// and a large one goes to the temporary file almost whole, which the
// kernel copies out (2 x 800 MB, 7 MB spooled: -j 2 took 0.365 s against
// 0.370 s with 4 MiB in memory, least of 15; the pages of fresh memory
// cost more than those of a file).
const spoolLimit = spoolChunk

// NewOrdered returns an Ordered that writes to w, starting with input 0.
func NewOrdered(w io.Writer) *Ordered {
	o := &Ordered{w: w, spool: map[int]*spool{}, done: map[int]bool{}, last: math.MaxInt}
	o.turn = sync.NewCond(&o.mu)
	return o
}

// Writer returns the writer of input i (0-based). Writes of different
// inputs may come from different goroutines; those of one input must come
// in order, and before Done(i).
func (o *Ordered) Writer(i int) io.Writer { return orderedSink{o, i} }

type orderedSink struct {
	o *Ordered
	i int
}

func (s orderedSink) Write(p []byte) (int, error) {
	o := s.o
	o.mu.Lock()
	defer o.mu.Unlock()
	if s.i > o.last {
		return len(p), nil // dropped: see Stop
	}
	n := 0
	if o.head != s.i {
		n = o.spoolOf(s.i).write(p)
		for o.head != s.i && n < len(p) {
			// The spool is full and cannot spill: wait for the turn.
			o.turn.Wait()
		}
	}
	if n == len(p) {
		return n, nil
	}
	m, err := o.w.Write(p[n:])
	return n + m, err
}

func (o *Ordered) spoolOf(i int) *spool {
	b := o.spool[i]
	if b == nil {
		b = new(spool)
		o.spool[i] = b
	}
	return b
}

// Done marks input i done; the head moves on past every input done,
// writing out what they spooled. It returns the error of a write to the
// underlying writer.
func (o *Ordered) Done(i int) error {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.done[i] = true
	var err error
	for o.done[o.head] {
		delete(o.done, o.head)
		o.head++
		if b := o.spool[o.head]; b != nil {
			if o.head > o.last {
				b.drop()
			} else if werr := b.flushTo(o.w); werr != nil && err == nil {
				err = werr
			}
			delete(o.spool, o.head)
		}
	}
	o.turn.Broadcast()
	return err
}

// Stop makes input i, not yet Done, the last whose output is written:
// what the inputs after it wrote, and write, is dropped. A reader of the
// messages of one file, runs of them as inputs, calls it when a run ends
// the file's reading with an error (its mapping faulted: the file
// shrank), so that the output stays that of the messages before it, in
// order, and not those of later runs that a worker had read before the
// file shrank.
func (o *Ordered) Stop(i int) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if i >= o.last {
		return
	}
	o.last = i
	for k, b := range o.spool {
		if k > i {
			b.drop()
			delete(o.spool, k)
		}
	}
	o.turn.Broadcast()
}

// spool holds the output of a file that waits for its turn: the first
// spoolLimit bytes in chunks of spoolChunk bytes that go back to a pool
// once written out, the rest in a temporary file. (A bytes.Buffer would
// double its way up, copying, and touch about twice the memory it keeps:
// in a process that lives a fraction of a second, the page faults of fresh
// memory cost more than the copies; -j 2 on two 200 MB files took 40% of
// its page faults in bytes.Buffer.grow.)
type spool struct {
	// small holds the first smallChunk bytes: most inputs write a few
	// lines (a count, a file's URIs), and a chunk of 64 KiB for each that
	// waited was fresh memory when many did (-r -c -j 2 over 6,013
	// files of a Maildir: 55 chunks, 3.5 MB, a collection that -j 1
	// does not make; bench session 16).
	small  *[smallChunk]byte
	ns     int // bytes in small
	chunks []*[spoolChunk]byte
	n      int      // bytes in chunks
	file   *os.File // the spilled output, or nil
	inFile int64    // bytes in file
	// noFile: a temporary file could not be made or written; the spool
	// takes no more once its memory is full.
	noFile bool
}

const (
	spoolChunk = 64 << 10
	smallChunk = 2 << 10
)

var (
	spoolChunks = sync.Pool{New: func() any { return new([spoolChunk]byte) }}
	smallChunks = sync.Pool{New: func() any { return new([smallChunk]byte) }}
)

// write keeps as much of p as it can, all of it unless the memory is full
// and no temporary file could take the rest, and returns how much.
func (s *spool) write(p []byte) int {
	kept := 0
	if s.ns < smallChunk && s.n == 0 && s.file == nil {
		if s.small == nil {
			s.small = smallChunks.Get().(*[smallChunk]byte)
		}
		c := copy(s.small[s.ns:], p)
		kept += c
		s.ns += c
	}
	for s.file == nil && s.n < spoolLimit && kept < len(p) {
		at := s.n % spoolChunk
		if at == 0 {
			s.chunks = append(s.chunks, spoolChunks.Get().(*[spoolChunk]byte))
		}
		c := copy(s.chunks[len(s.chunks)-1][at:], p[kept:min(len(p), kept+spoolLimit-s.n)])
		kept += c
		s.n += c
	}
	if kept == len(p) || s.noFile {
		return kept
	}
	if s.file == nil {
		f, err := os.CreateTemp("", "urix-spool-*")
		if err != nil {
			s.noFile = true
			return kept
		}
		// Unlinked at once where the system allows it, so that nothing
		// is left behind if urix dies; elsewhere (Windows) flushTo
		// removes it.
		os.Remove(f.Name())
		s.file = f
	}
	m, err := s.file.Write(p[kept:])
	s.inFile += int64(m)
	if err != nil {
		s.noFile = true
	}
	return kept + m
}

// flushTo writes out what the spool holds and empties it.
// drop gives back what s holds, unwritten.
func (s *spool) drop() {
	s.dropSmall()
	for _, c := range s.chunks {
		spoolChunks.Put(c)
	}
	s.chunks, s.n = nil, 0
	if s.file != nil {
		s.file.Close()
		os.Remove(s.file.Name())
		s.file, s.inFile = nil, 0
	}
}

func (s *spool) flushTo(w io.Writer) error {
	var err error
	if s.small != nil {
		_, err = w.Write(s.small[:s.ns])
		s.dropSmall()
	}
	for i, c := range s.chunks {
		if err == nil {
			end := min(spoolChunk, s.n-i*spoolChunk)
			_, err = w.Write(c[:end])
		}
		spoolChunks.Put(c)
	}
	s.chunks, s.n = nil, 0
	if s.file != nil {
		if err == nil {
			// From the start of the file, as a LimitedReader of the
			// *os.File: os.File.ReadFrom then copies in the kernel
			// (copy_file_range, sendfile) when w is a file.
			if _, err = s.file.Seek(0, io.SeekStart); err == nil {
				_, err = io.Copy(w, io.LimitReader(s.file, s.inFile))
			}
		}
		s.file.Close()
		os.Remove(s.file.Name())
		s.file, s.inFile = nil, 0
	}
	return err
}

// dropSmall gives back the spool's small chunk.
func (s *spool) dropSmall() {
	if s.small != nil {
		smallChunks.Put(s.small)
		s.small, s.ns = nil, 0
	}
}
