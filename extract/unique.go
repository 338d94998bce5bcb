package extract

import (
	"hash/maphash"
	"runtime/debug"
	"sync"
	"unsafe"
)

// UniqueSet remembers the URIs reported so far, for Options.Unique, in
// bounded memory: an exact set of up to UniqueExactBytes, counted as the
// set really holds them (the keys' bytes, and the map's slots at its
// lowest load: uniqueSlotBytes), then, in
// its place, a Bloom filter of UniqueFilterBytes holding the same keys.
// Past the exact set a new URI is wrongly taken for one already seen with
// a small probability (about 1 in 2 million after 10 million more
// distinct URIs, 1 in 170 after 50 million); a duplicate is never
// reported twice. It is safe for concurrent use, so several scanners
// (the files of one run) can share it.
//
// The exact set counted only its keys' bytes: with Go's map and each
// key's allocation, 64 MiB of keys held 150 MB, and the filter came on
// top of it (peak RSS 402 MB at 16 million distinct URIs, 158 MB at one
// million).
type UniqueSet struct {
	mu sync.Mutex
	// exact holds strings that point into arena's blocks: no allocation,
	// and no size class rounding, for each key.
	exact  map[string]struct{}
	arena  []byte   // the block being filled
	bytes  int      // what exact and its blocks hold
	filter []uint64 // nil until the exact set is full
	seed   maphash.Seed

	exactLimit, filterBytes int
}

const (
	// UniqueExactBytes bounds the exact set: its keys and its map.
	UniqueExactBytes = 64 << 20
	// UniqueFilterBytes is the size of the Bloom filter used past it.
	UniqueFilterBytes = 64 << 20
	bloomHashes       = 7

	// uniqueSlotBytes is what the map takes for a key, at most. A slot
	// of a map[string]struct{} is 24 bytes (the string header, padded
	// for the zero-size value that ends it), a group of eight slots has
	// 8 control bytes: 25 bytes a slot. A Go map (swiss tables, Go 1.24)
	// is between 7/16 and 7/8 full (a table grows, or splits in two, when
	// 7/8 full): 57 bytes a key at its emptiest, and a little for its
	// directory of tables. (Measured: 44 bytes a key on average.)
	uniqueSlotBytes = 58
	// uniqueBlock is the size of the blocks keys are copied into.
	uniqueBlock = 256 << 10
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
	if u.filter != nil {
		return u.bloomAdd(key)
	}
	if _, dup := u.exact[key]; dup {
		return false
	}
	cost := uniqueSlotBytes
	if len(key) > cap(u.arena)-len(u.arena) {
		cost += max(uniqueBlock, len(key)) // a new block
	}
	if u.bytes+cost > u.exactLimit {
		u.toFilter()
		return u.bloomAdd(key)
	}
	u.exact[u.keep(key)] = struct{}{}
	u.bytes += cost
	return true
}

// keep copies key into the arena: the key may be a match's string, whose
// bytes share a chunk with those of the matches around it (Scanner.strs),
// which the set would keep too. A block, once full, is never written
// again: the strings into it stay as they are.
func (u *UniqueSet) keep(key string) string {
	if len(key) > cap(u.arena)-len(u.arena) {
		u.arena = make([]byte, 0, max(uniqueBlock, len(key)))
	}
	at := len(u.arena)
	u.arena = append(u.arena, key...)
	if len(key) == 0 {
		return ""
	}
	return unsafe.String(&u.arena[at], len(key))
}

// toFilter puts the exact set's keys in a new Bloom filter, which takes
// its place. The memory of the set is given back to the system around it
// (debug.FreeOSMemory, once in a set's life): the filter is one 64 MiB
// allocation, which the heap's freed pages, scattered, would not hold,
// and without it the exact set, the filter and the garbage collector's
// headroom were all resident at once.
func (u *UniqueSet) toFilter() {
	debug.FreeOSMemory()
	u.filter = make([]uint64, max(1, u.filterBytes/8))
	for k := range u.exact {
		u.bloomAdd(k)
	}
	u.exact, u.arena, u.bytes = nil, nil, 0
	debug.FreeOSMemory()
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
