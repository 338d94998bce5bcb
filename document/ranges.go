package document

import (
	"errors"
	"io"

	"github.com/urix-dev/urix/document/mail"
	"github.com/urix-dev/urix/document/warc"
)

// Ranges of one input: a reading of an mbox or a WARC file may start at
// a message or record, and go to the end of another, apart from the rest
// of the input, and give the documents one reading of the whole input
// gives there, with the same numbers and offsets (their Origins). A
// first pass, Boundaries, lists the places where such a reading may
// start; ReadRange reads from one. A caller (package engine's Ranges)
// hands the pieces between them to different goroutines or machines.
//
// Where a reading may start:
//
//   - an mbox, at the "From " line of any message after the first: the
//     splitter's state there is the one it has at the input's start
//     (at a line start, with no line before it), and it cuts the stream
//     where Read's walk does (mail.MboxSplitter is that walk's
//     splitter);
//   - a WARC file, at any record that was read whole (not one a
//     malformed record's resynchronisation passed): the reader's state
//     between two records is none;
//   - either, gzipped, only where a gzip member starts at such a place
//     (a WARC file as crawlers write it, a member a record): a member
//     decodes on its own (RFC 1952 2.2). A file of one compressed stream
//     (one gzip member, bzip2, xz, zstd) has no such place but its
//     start.
//
// Any other input (text, one message, news) has none: what stands
// before a line of text can change what is found in it (an unclosed <,
// a quoted reply's depth, a URI over a line break).

// A Boundary is a place in an input where a reading may start apart
// from what comes before (see Boundaries). Its zero value is the input's
// start.
type Boundary struct {
	// Offset is where the reading starts in the input as stored: the
	// offset of the gzip member that starts there when it is compressed,
	// else Decoded.
	Offset int64
	// Decoded is where the message or record starts in the decoded
	// input: its Origin's MessageOffset or RecordOffset.
	Decoded int64
	// Number is its number: Origin.Message or Origin.Record.
	Number int
	// Format is the input's format, Mbox or WARC.
	Format Format
}

// Boundaries reads one input as Read would (Options.Format, compression
// and all; not Workers) and calls fn for each place after its start where
// a reading may start apart from what comes before, in input order. It
// reads every byte of the input (a gzipped input is decoded: a member's
// end is known only by decoding it) but searches no text. It returns
// fn's first error, or the error that ends the reading of the input (a
// read error, a corrupt or truncated compressed stream), after the
// boundaries before it.
func (rd *Reader) Boundaries(r io.Reader, name string, fn func(Boundary) error) error {
	type member struct{ in, out int64 }
	var members []member // gzip members started, not yet passed by the reading
	rd.raw.onMember = func(in, out int64) { members = append(members, member{in, out}) }
	workers := rd.Options.Workers
	rd.Options.Workers = 0
	defer func() { rd.raw.onMember, rd.Options.Workers = nil, workers }()
	return rd.read(r, name, func(br io.Reader, format Format) error {
		if rd.raw.Fallback() != nil {
			return nil // a compressed-looking text
		}
		at := func(off int64, no int) error {
			b := Boundary{Offset: off, Decoded: off, Number: no, Format: format}
			if !rd.plain {
				// Compressed: only where a member starts (members
				// are decoded ahead of the reading, so the one that
				// holds off's first byte is already known).
				for len(members) > 0 && members[0].out < off {
					members = members[1:]
				}
				if len(members) == 0 || members[0].out != off {
					return nil
				}
				b.Offset = members[0].in
			}
			return fn(b)
		}
		switch format {
		case WARC:
			wr := warc.NewReader(br)
			for n := 1; ; n++ { // as warcRecords numbers them: every record
				rec, err := wr.Next()
				var fe *warc.FormatError
				switch {
				case err == io.EOF:
					return nil
				case errors.As(err, &fe):
					continue
				case err != nil:
					return err
				}
				if n > 1 {
					if err := at(rec.Offset, n); err != nil {
						return err
					}
				}
			}
		case Mbox:
			sp := mail.NewMboxSplitter(br)
			var buf []byte
			for {
				mm, err := sp.Next(buf[:0], 64<<10)
				if err == io.EOF {
					return nil
				}
				if err != nil {
					return err
				}
				if !mm.Shared() {
					buf = mm.Data
				}
				mm.Release()
				if mm.No > 1 && !mm.NoFrom {
					if err := at(mm.Offset, mm.No); err != nil {
						return err
					}
				}
			}
		}
		return nil
	})
}

// ReadRange reads a piece of an input that starts at b (a Boundary of
// Boundaries, or the zero Boundary for the input's start) and ends at
// another or at the input's end, r reading its bytes as stored from
// b.Offset on, as Read reads the whole input: fn is given the documents
// that Read gives in that piece, with the same Origins (message and
// record numbers and offsets in the whole input), and Options.Warn the
// same warnings; an error is given as Read gives it there (the offsets
// of a corrupt gzip member are those of the whole input).
func (rd *Reader) ReadRange(r io.Reader, name string, b Boundary, fn func(*Document) error) error {
	if b == (Boundary{}) {
		return rd.Read(r, name, fn)
	}
	saved := rd.Options
	rd.Options.Format, rd.Options.Workers, rd.Options.SkipBinary = b.Format, 0, false
	rd.raw.from = b
	defer func() { rd.Options, rd.raw.from = saved, Boundary{} }()
	return rd.read(r, name, func(br io.Reader, format Format) error {
		w := &MessageReader{Warn: rd.Options.Warn, AnchorText: rd.Options.AnchorText}
		switch format {
		case WARC:
			wr := warc.NewReader(br)
			wr.SetOffset(b.Decoded)
			return rd.warcRecords(wr, name, -1, nil, nil, func(m *Message) error {
				if m.Origin.Record > 0 {
					m.Origin.Record += b.Number - 1
				}
				return w.Documents(m, fn)
			})
		case Mbox:
			return rd.mboxFrom(br, name, b, w, fn)
		}
		return rd.readAs(br, name, format, fn)
	})
}

// mboxFrom reads the messages of an mbox from b on, numbered from there,
// as ReadMessages cuts them and its workers read them.
func (rd *Reader) mboxFrom(br io.Reader, name string, b Boundary, w *MessageReader, fn func(*Document) error) error {
	return splitMbox(br, name, DefaultMaxMessage, b.Number-1, b.Decoded, func(m *Message) error {
		err := w.Documents(m, fn)
		m.Release()
		return err
	})
}

// memberStarts tells Buffer.onMember of the gzip member that starts
// where the decoder stands.
func (d *decoder) memberStarts() {
	if d.onMember != nil {
		d.onMember(d.inOffset(), d.out)
	}
}
