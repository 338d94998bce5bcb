// Package document reads the documents urix searches, whatever form they
// come in, and says where each came from.
//
// An input is a file or a stream. Read undoes its compression (gzip,
// bzip2, xz and zstd, told by their magic bytes), tells its format by its
// first bytes (or takes the one it is given), and yields its documents:
//
//   - plain text: the whole input is one document;
//   - a message (RFC 5322 mail, a news article) or an mbox: each text part
//     of each message, decoded from its transfer encoding and charset
//     (HTML parts give their visible text and link targets), and the
//     values of the header fields that carry URIs (package document/mail);
//   - a WARC file: the block of each record (package document/warc).
//
// Each Document has an Origin: the file, and the message number, its byte
// offset and Message-ID, the MIME part path and header field, or the WARC
// record's number, offset, ID and target URI.
//
// # Use
//
// Every URI of every message of an mbox, with package extract:
//
//	f, err := os.Open("list.mbox")
//	...
//	for doc, err := range document.All(f, "list.mbox", document.Options{}) {
//		if err != nil {
//			return err
//		}
//		for m, err := range extract.All(doc.Body, extract.Options{}) {
//			...
//			fmt.Println(doc.Message, doc.MessageID, m.URI)
//		}
//	}
//
// A Reader does the same with its buffers kept from input to input, for a
// program that reads many files. Walk lists the files of directory trees
// in a stable order, for a recursive search.
//
// # Bounds
//
// Everything here streams: memory is bounded by the buffers of the
// decoders, whatever the size of the input, its lines or its messages. What
// is wrong with a part of an input (a bad message, a malformed WARC record)
// is told to Options.Warn and costs only that part; an error that stops the
// reading of an input (a corrupt compressed stream) names the byte offset,
// and everything before it has been delivered.
package document
