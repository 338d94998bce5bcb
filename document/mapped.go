package document

import (
	"io"
	"os"
	"runtime/debug"

	"github.com/urix-dev/urix/document/mail"
	"github.com/urix-dev/urix/document/warc"
	"github.com/urix-dev/urix/internal/mapfile"
)

// A FileReader reads a regular file from its current offset on:
// ReadMessages may read an mbox that is such a file through a mapping of
// it into memory (see there). An *os.File is one; so is a reader that
// counts what is read of its file (a progress bar), which Mapped tells
// of what it takes through the mapping.
type FileReader interface {
	io.Reader
	File() *os.File // the file; nil when there is none
	Mapped(n int64) // n more bytes of the file read, through the mapping
}

// mapSource is an mbox ReadMessages reads through a mapping: the file,
// where the input starts in it (its offset when ReadMessages was called),
// its size and who to tell of the bytes read.
type mapSource struct {
	f           *os.File
	start, size int64
	read        func(int64) // nil: no one
}

// fileSource returns what mappedMbox needs of r when r is a FileReader or
// an *os.File of a regular file, read from start on; ok is false for any
// other input, or with Options.NoMap.
func (rd *Reader) fileSource(r io.Reader) (src mapSource, ok bool) {
	if rd.Options.NoMap {
		return src, false
	}
	switch r := r.(type) {
	case *os.File:
		src.f = r
	case FileReader:
		src.f, src.read = r.File(), r.Mapped
	}
	if src.f == nil {
		return src, false
	}
	fi, err := src.f.Stat()
	if err != nil || !fi.Mode().IsRegular() {
		return src, false
	}
	if src.start, err = src.f.Seek(0, io.SeekCurrent); err != nil || src.start >= fi.Size() {
		return src, false
	}
	src.size = fi.Size()
	return src, true
}

// mapped maps the file of the mbox ReadMessages reads, when it is one
// it may map: not compressed (rd.plain, set by rd.read), the file that
// fileSource found when ReadMessages began (src). It returns nil for any
// other, or when the file cannot be mapped.
func (rd *Reader) mapped(src mapSource, ok bool) []byte {
	if !ok || !rd.plain {
		return nil
	}
	return mapfile.Map(src.f, src.size)
}

// readMapped reads the input that is src's file from src.start on, its
// bytes in (of data, the file mapped into memory), by read, and does what
// a mapped reading needs around it: tell, given to read, tells src of the
// bytes read as far as an offset of in (what was read with Read before,
// the head rd.read looked at, was counted as it was read; the rest at the
// end); a fault in the mapping (the file shrank as it was read) ends the
// reading with a *MapFaultError (behaviour §1.5), here or in the MessageReader
// that reads a message; the file is left at its end, as a read to its
// end leaves it.
func (rd *Reader) readMapped(src mapSource, data []byte, read func(in []byte, tell func(int64)) error) (err error) {
	in := data[src.start:]
	defer src.f.Seek(src.size, io.SeekStart)
	pos, _ := src.f.Seek(0, io.SeekCurrent)
	told := pos - src.start
	tell := func(to int64) {
		if src.read != nil && to > told {
			src.read(min(to, int64(len(in))) - told)
			told = to
		}
	}
	defer func() {
		if err == nil {
			tell(int64(len(in)))
		}
	}()
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer mapfile.Recover(data, &err)
	return read(in, tell)
}

// mappedMbox reads an mbox through a mapping of its file (readMapped):
// its messages are slices of the mapping, given to the workers without a
// copy (the kernel's copy of each read was an eighth of the CPU of the
// corpus's mbox, a fifth in some states of the page cache). The pages of
// what no message holds any more are let go (mail.NewMboxSplitterOf),
// and the mapping goes once the last message is released.
func (rd *Reader) mappedMbox(src mapSource, data []byte, name string, max int, fn func(*Message) error) error {
	return rd.readMapped(src, data, func(in []byte, tell func(int64)) error {
		sp := mail.NewMboxSplitterOf(in, mapfile.Drop, func() { mapfile.Unmap(data) })
		defer sp.Close()
		for {
			mm, err := sp.Next(nil, max)
			if err != nil {
				if err == io.EOF {
					return nil
				}
				return err
			}
			// (One not Shared, whose text was copied out for a quoted
			// "From " line, is in a buffer of its own.)
			m := &Message{Origin: Origin{File: name, Format: Mbox, Message: mm.No, MessageOffset: mm.Offset}, m: mm, mapped: data}
			tell(mm.Offset + int64(len(mm.Data)))
			if err := fn(m); err != nil {
				return err
			}
		}
	})
}

// mappedWARC reads a WARC file through a mapping of it (readMapped), as
// mappedMbox reads an mbox: its held records' blocks are slices of the
// mapping (warc.NewReaderOf).
func (rd *Reader) mappedWARC(src mapSource, data []byte, name string, max int, fn func(*Message) error) error {
	return rd.readMapped(src, data, func(in []byte, tell func(int64)) error {
		wr := warc.NewReaderOf(in, mapfile.Drop, func() { mapfile.Unmap(data) })
		defer wr.Close()
		return rd.warcRecords(wr, name, max, data, tell, fn)
	})
}
