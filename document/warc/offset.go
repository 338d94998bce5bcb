package warc

// SetOffset makes off the offset of the next byte the Reader reads, for
// a Reader of a piece of a file that starts at off: the offsets of its
// records and errors are then those of the whole file. It is called
// before the first Next.
func (r *Reader) SetOffset(off int64) { r.off = off }
