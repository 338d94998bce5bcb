package extract

import (
	"hash/maphash"
	"strings"
	"sync"
)

// UniqueSet remembers the URIs reported so far, for Options.Unique, in
// bounded memory: an exact set of up to UniqueExactBytes of keys, then a
// Bloom filter of UniqueFilterBytes. Past the exact set a new URI is
// wrongly taken for one already seen with a small probability (about 1 in
// 2 million after 10 million more distinct URIs, 1 in 170 after 50
// million); a duplicate is never reported twice. It is safe for
// concurrent use, so several scanners (the files of one run) can share it.
type UniqueSet struct {
	mu     sync.Mutex
	exact  map[string]struct{}
	bytes  int
	filter []uint64 // nil until the exact set is full
	seed   maphash.Seed

	exactLimit, filterBytes int
}

const (
	// UniqueExactBytes bounds the keys of the exact set (map overhead
	// aside: about 50 bytes an entry).
	UniqueExactBytes = 64 << 20
	// UniqueFilterBytes is the size of the Bloom filter used past it.
	UniqueFilterBytes = 64 << 20
	bloomHashes       = 7
)

// NewUniqueSet returns an empty set.
func NewUniqueSet() *UniqueSet { return newUniqueSet(UniqueExactBytes, UniqueFilterBytes) }

func newUniqueSet(exactLimit, filterBytes int) *UniqueSet {
	return &UniqueSet{
		exact: make(map[string]struct{}), seed: maphash.MakeSeed(),
		exactLimit: exactLimit, filterBytes: filterBytes,
	}
}

// Add records key and reports whether it is new.
func (u *UniqueSet) Add(key string) bool {
	u.mu.Lock()
	defer u.mu.Unlock()
	if _, dup := u.exact[key]; dup {
		return false
	}
	if u.filter == nil {
		if u.bytes+len(key) <= u.exactLimit {
			// A copy: the key may be a match's string, whose bytes share
			// a chunk with those of the matches around it (Scanner.strs),
			// which the set would keep too.
			u.exact[strings.Clone(key)] = struct{}{}
			u.bytes += len(key)
			return true
		}
		u.filter = make([]uint64, max(1, u.filterBytes/8))
	}
	return u.bloomAdd(key)
}

// bloomAdd sets the key's bits and reports whether any was unset, with
// double hashing (Kirsch and Mitzenmacher) from one 64-bit maphash.
func (u *UniqueSet) bloomAdd(key string) bool {
	h := maphash.String(u.seed, key)
	h1, h2 := h&0xFFFFFFFF, h>>32|1
	bits := uint64(len(u.filter) * 64)
	added := false
	for i := uint64(0); i < bloomHashes; i++ {
		bit := (h1 + i*h2) % bits
		word, mask := bit/64, uint64(1)<<(bit%64)
		if u.filter[word]&mask == 0 {
			u.filter[word] |= mask
			added = true
		}
	}
	return added
}
