// Package scan is the streaming scanner behind package scan (the public
// face, github.com/urix-dev/urix/scan) and package extract. It exports
// what extract needs and a library user does not: the methods of a reader
// that splits one input between scanners (ScanBefore, QuietPast,
// ResetFrom, QuoteDepthAt, FirstLineBreak, MarkLine, Marked), used by
// extract.Split. Being internal, they are not the module's API. The
// package's rules and its call sequence are documented on package scan.
package scan
