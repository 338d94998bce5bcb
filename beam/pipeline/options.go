// Package pipeline is urix's extraction (behaviour §1-§7, §9) as an Apache
// Beam pipeline: the files matched by patterns on any Beam filesystem are
// read whole by the project's document reader, spread one element per
// document (a message, a WARC record), searched by package extract, and
// written as the JSON Lines of `urix --json`, sharded, with counts per
// scheme, host, registrable domain and normalized URI beside them.
package pipeline

import (
	"fmt"
	"strings"

	"github.com/urix-dev/urix/document"
	"github.com/urix-dev/urix/extract"
)

// Options are the CLI's extraction options. They travel with the
// pipeline's DoFns to the workers (Beam serializes the exported fields of
// a DoFn), so they hold only plain values; Extract makes the
// extract.Options of them.
type Options struct {
	Schemes   []string // --scheme: only these (behaviour §2)
	AnyScheme bool     // --any-scheme
	WWW       bool     // --www
	Email     bool     // --email
	Hyphen    string   // --hyphen: keep (the default when empty), drop or both
	BareBreak string   // --bare-break: keep (the default when empty), join or both
	MaxLength int      // --max-length; 0 means the CLI's default, 64 KiB
	ASCII     bool     // --ascii
	FoldWidth bool     // --fold-width
	// Invalid keeps only the invalid URIs, as `urix --invalid --json`
	// does; without it only the valid ones are results.
	Invalid bool
	// Format is the input format name (--format): text, mail, mbox, news,
	// warc or auto (the default when empty).
	Format string
	// Decompress makes an input that is not compressed an error (-z).
	Decompress bool
}

// DefaultMaxLength is the CLI's --max-length default (behaviour §1).
const DefaultMaxLength = 64 << 10

// Check tells what is wrong with the options, in the CLI's words.
func (o Options) Check() error {
	if _, err := o.Extract(); err != nil {
		return err
	}
	if _, err := o.documentFormat(); err != nil {
		return err
	}
	return nil
}

// Extract returns the options of package extract, mapped from the flags
// as the CLI maps them (cmd_extract.go, extractOptions): the scheme lists
// split at commas and trimmed, the hyphen mode by name.
func (o Options) Extract() (extract.Options, error) {
	opts := extract.Options{
		AnyScheme: o.AnyScheme,
		WWW:       o.WWW,
		Email:     o.Email,
		MaxLength: o.MaxLength,
		ASCII:     o.ASCII,
		FoldWidth: o.FoldWidth,
	}
	if opts.MaxLength == 0 {
		opts.MaxLength = DefaultMaxLength
	}
	for _, list := range o.Schemes {
		for _, name := range strings.Split(list, ",") {
			if name = strings.TrimSpace(name); name != "" {
				opts.Schemes = append(opts.Schemes, name)
			}
		}
	}
	var err error
	if opts.Hyphen, err = extract.ParseHyphenMode(o.Hyphen); err != nil {
		return opts, err
	}
	if opts.BareBreak, err = extract.ParseBareBreakMode(o.BareBreak); err != nil {
		return opts, err
	}
	if opts.MaxLength <= 0 {
		return opts, fmt.Errorf("--max-length %d: want a positive number of bytes", opts.MaxLength)
	}
	return opts, nil
}

func (o Options) documentFormat() (document.Format, error) {
	if o.Format == "" {
		return document.Auto, nil
	}
	f, err := document.ParseFormat(o.Format)
	if err != nil {
		return f, fmt.Errorf("--format %q: want text, mail, mbox, news, warc or auto", o.Format)
	}
	return f, nil
}

func (o Options) documentOptions() (document.Options, error) {
	f, err := o.documentFormat()
	// AnchorText: the results are those of urix --json, which give text.
	return document.Options{Format: f, RequireCompressed: o.Decompress, AnchorText: true}, err
}
