package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/urix-dev/urix/document"
	"github.com/urix-dev/urix/document/mail"
	"github.com/urix-dev/urix/document/warc"
)

// read opens an input, undoes its compression, skips it when binary, and
// reads it in its format.
func (r *run) read(f *fileOutput, in inputFile) (opened bool, err error) {
	var rd io.Reader = os.Stdin
	if in.name != "-" {
		file, err := os.Open(in.name)
		if err != nil {
			return false, err
		}
		defer file.Close()
		if size, ok := r.splittable(in, file); ok {
			r.stats.files.Add(1)
			return true, r.readSplit(f, file, size)
		}
		rd = file
	}
	r.stats.files.Add(1)
	rd = &yieldingReader{r: &countingReader{r: rd, n: &r.stats.bytes}}
	dec, _, err := f.wk.raw.Decompress(rd, r.in.forceZ)
	if err != nil {
		return true, err
	}
	br := f.wk.reader(dec)
	head := r.head(br, in)
	if in.walked && !r.in.text && document.IsBinary(head) {
		if !r.quiet {
			r.warnf("%s: binary file skipped (use -a to read it)", in.name)
		}
		return true, nil
	}
	switch format := r.formatOf(head); format {
	case "text":
		return true, f.text(br, &origin{})
	case "warc":
		return true, r.readWARC(f, br)
	default:
		return true, r.readMail(f, br, format)
	}
}

// headSize is how much of an input is looked at to tell a binary file or
// the format.
const headSize = 8 << 10

// head returns the first bytes of an input, as many as the decisions on it
// need: headSize to tell a binary file (one found by -r), and with --format
// auto no more than decides the format, so that a slow stream (tail -f |
// urix) is not held up waiting for 8 KiB, while the decision is the one
// the first 8 KiB would give. A read error shows again on the first read.
func (r *run) head(br *bufio.Reader, in inputFile) []byte {
	if in.walked && !r.in.text {
		h, _ := br.Peek(headSize)
		return h
	}
	if r.in.format != "auto" {
		return nil
	}
	for want := 1; ; {
		if _, err := br.Peek(want); err != nil {
			h, _ := br.Peek(br.Buffered())
			return h
		}
		h, _ := br.Peek(min(headSize, br.Buffered()))
		if len(h) >= headSize || formatDecided(h) {
			return h
		}
		want = len(h) + 1
	}
}

// formatDecided tells whether more input could change what formatOf says
// of the prefix h.
func formatDecided(h []byte) bool {
	const warc = "WARC/1."
	if len(h) < len(warc) && bytes.HasPrefix([]byte(warc), h) {
		return false
	}
	if bytes.HasPrefix(h, []byte(warc)) {
		return true
	}
	_, ok := mail.DetectEarly(h)
	return ok
}

// formatOf is --format, or for auto what the first bytes look like.
func (r *run) formatOf(head []byte) string {
	if r.in.format != "auto" {
		return r.in.format
	}
	if bytes.HasPrefix(head, []byte("WARC/1.")) {
		return "warc"
	}
	switch mail.Detect(head) {
	case mail.FormatMbox:
		return "mbox"
	case mail.FormatMail, mail.FormatNews:
		return "mail"
	}
	return "text"
}

func (r *run) readMail(f *fileOutput, rd io.Reader, format string) error {
	mf, _, err := mail.ParseFormat(format)
	if err != nil {
		return err
	}
	warn := func(msgNo int, msg string) {
		if !r.quiet {
			r.warnf("%s: message %d: %s", displayName(f.name), msgNo, msg)
		}
	}
	return mail.Walk(rd, mail.Options{Format: mf, Warn: warn}, func(p *mail.Part) error {
		return f.text(p.Body, &origin{
			msgNo: p.MsgNo, msgOffset: p.MsgOffset, messageID: p.MessageID,
			part: p.Path, field: p.Field, html: p.HTML,
		})
	})
}

// readWARC reads the records of a WARC file; a malformed record is
// reported and costs only itself.
func (r *run) readWARC(f *fileOutput, rd io.Reader) error {
	wr := warc.NewReader(rd)
	bad := 0
	for {
		rec, err := wr.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			var fe *warc.FormatError
			if !errors.As(err, &fe) || bad > 1000 {
				return err
			}
			bad++
			if !r.quiet {
				r.warnf("%s: %v", displayName(f.name), err)
			}
			continue
		}
		from := &origin{warc: true, warcTarget: rec.TargetURI, warcID: rec.RecordID, warcOffset: rec.Offset}
		if err := f.text(rec.Body, from); err != nil {
			return err
		}
	}
}

// origin says where in a structured input a piece of text came from.
type origin struct {
	msgNo     int // 1-based message number; 0 when the input is not mail
	msgOffset int64
	messageID string
	part      string
	field     string
	html      bool

	warc       bool
	warcTarget string
	warcID     string
	warcOffset int64
}

// where describes the origin for a message on stderr.
func (o *origin) where() string {
	switch {
	case o.msgNo > 0 && o.field != "":
		return fmt.Sprintf(" in the %s field of message %d", o.field, o.msgNo)
	case o.msgNo > 0:
		return fmt.Sprintf(" in part %s of message %d", o.part, o.msgNo)
	case o.warc:
		return fmt.Sprintf(" in the record at offset %d", o.warcOffset)
	}
	return ""
}
