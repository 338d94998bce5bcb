package pipeline

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/ptest"
	"github.com/urix-dev/urix/engine"
)

// fakeStore is GCS and S3 on an httptest.Server, as their clients ask
// for an object: GCS's XML reads (GET /BUCKET/OBJECT, with a Range) and
// JSON metadata (GET /storage/v1/b/BUCKET/o/OBJECT: its size), S3's
// path-style GET and HEAD /BUCKET/KEY (the endpoint is an IP address).
// It counts the reads of each object, and answers 503 when told to.
type fakeStore struct {
	srv *httptest.Server

	mu      sync.Mutex
	objects map[string][]byte // by "BUCKET/NAME"
	gets    map[string]int    // GETs of an object's bytes
	ranges  []string          // the Range of each GET, in order
	fail    map[string]failing
}

// failing: the next pass reads of an object succeed, the count after
// them answer 503.
type failing struct{ pass, count int }

func newFakeStore(t *testing.T) *fakeStore {
	s := &fakeStore{objects: map[string][]byte{}, gets: map[string]int{}, fail: map[string]failing{}}
	s.srv = httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(s.srv.Close)
	// The clients of GCS and S3, Beam's filesystems' and remoteReader's,
	// ask this server.
	t.Setenv("STORAGE_EMULATOR_HOST", s.srv.URL)
	t.Setenv("AWS_ENDPOINT_URL_S3", s.srv.URL)
	t.Setenv("AWS_REGION", "us-east-1")
	t.Setenv("AWS_ACCESS_KEY_ID", "test")
	t.Setenv("AWS_SECRET_ACCESS_KEY", "test")
	t.Setenv("AWS_CONFIG_FILE", filepath.Join(t.TempDir(), "none"))
	t.Setenv("AWS_SHARED_CREDENTIALS_FILE", filepath.Join(t.TempDir(), "none"))
	t.Setenv("AWS_EC2_METADATA_DISABLED", "true")
	// Retried quickly: a test waits no backoff.
	saved := remoteRetry
	remoteRetry.attempts, remoteRetry.initial, remoteRetry.max = 3, time.Millisecond, time.Millisecond
	t.Cleanup(func() { remoteRetry = saved })
	return s
}

func (s *fakeStore) put(name string, data []byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.objects[name] = data
}

func (s *fakeStore) failNext(name string, pass, count int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.fail[name] = failing{pass, count}
}

// reads is how many GETs of its bytes an object had, and resets it.
func (s *fakeStore) reads(name string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := s.gets[name]
	s.gets[name] = 0
	return n
}

func (s *fakeStore) serve(w http.ResponseWriter, r *http.Request) {
	if rest, ok := strings.CutPrefix(r.URL.Path, "/storage/v1/b/"); ok {
		bucket, object, _ := strings.Cut(rest, "/o/")
		name := bucket + "/" + object
		if r.URL.Query().Get("alt") == "media" {
			s.media(w, r, name)
			return
		}
		s.mu.Lock()
		data, ok := s.objects[name]
		s.mu.Unlock()
		if !ok {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusNotFound)
			fmt.Fprint(w, `{"error":{"code":404,"message":"No such object"}}`)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"kind":"storage#object","bucket":%q,"name":%q,"size":"%d","generation":"1","metageneration":"1"}`, bucket, object, len(data))
		return
	}
	name, err := url.PathUnescape(strings.TrimPrefix(r.URL.Path, "/"))
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	s.media(w, r, name)
}

// media answers a read of an object's bytes (GET or HEAD, a Range or
// not), as GCS and S3 do: 206 and Content-Range for a range, 416 for
// one past the end, 404 (S3: NoSuchKey) for no object.
func (s *fakeStore) media(w http.ResponseWriter, r *http.Request, name string) {
	s.mu.Lock()
	data, ok := s.objects[name]
	f := s.fail[name]
	failed := false
	if r.Method == http.MethodGet {
		s.gets[name]++
		s.ranges = append(s.ranges, r.Header.Get("Range"))
		if f.pass > 0 {
			f.pass--
		} else if f.count > 0 {
			f.count--
			failed = true
		}
		s.fail[name] = f
	}
	s.mu.Unlock()
	w.Header().Set("Content-Type", "application/xml")
	switch {
	case failed:
		w.WriteHeader(http.StatusServiceUnavailable)
		fmt.Fprint(w, `<?xml version="1.0" encoding="UTF-8"?><Error><Code>SlowDown</Code><Message>Please reduce your request rate.</Message></Error>`)
		return
	case !ok:
		w.WriteHeader(http.StatusNotFound)
		fmt.Fprint(w, `<?xml version="1.0" encoding="UTF-8"?><Error><Code>NoSuchKey</Code><Message>The specified key does not exist.</Message></Error>`)
		return
	}
	w.Header().Set("ETag", `"v1"`)
	w.Header().Set("X-Goog-Generation", "1")
	w.Header().Set("Content-Type", "application/octet-stream")
	http.ServeContent(w, r, "", time.Time{}, bytes.NewReader(data))
}

// schemes are the two remote filesystems remoteReader reads.
var schemes = []string{"gs", "s3"}

// openWindows opens path with windows of window bytes, read up to limit.
func openWindows(t *testing.T, path string, window, limit int64) *remoteReader {
	t.Helper()
	g, err := newGetter(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	r := newRemoteReader(context.Background(), g, window, limit)
	t.Cleanup(func() { r.Close() })
	return r
}

// TestRemoteReaderAt: a remoteReader reads every offset and length of
// an object as a bytes.Reader of its bytes does, in any order (back,
// within a window, across windows, past the end, past the limit).
func TestRemoteReaderAt(t *testing.T) {
	store := newFakeStore(t)
	r := rand.New(rand.NewPCG(36, 1))
	data := make([]byte, 300)
	for i := range data {
		data[i] = byte(r.IntN(256))
	}
	store.put("bucket/small", data)
	want := bytes.NewReader(data)
	type read struct{ off, n int64 }
	var reads []read
	for off := int64(0); off <= int64(len(data))+1; off++ {
		for _, n := range []int64{1, 31, 32, 33, 100, 300} {
			reads = append(reads, read{off, n})
		}
	}
	for _, scheme := range schemes {
		path := scheme + "://bucket/small"
		// Past the end, first (the object's size not yet known: 416).
		if n, err := openWindows(t, path, 32, 150).ReadAt(make([]byte, 10), int64(len(data))+5); n != 0 || err != io.EOF {
			t.Errorf("%s: a first read past the end: %d bytes, %v; want EOF", path, n, err)
		}
		for _, order := range []string{"forward", "shuffled"} {
			rd := openWindows(t, path, 32, 150)
			if order == "shuffled" {
				r.Shuffle(len(reads), func(i, j int) { reads[i], reads[j] = reads[j], reads[i] })
			}
			for _, rr := range reads {
				got, exp := make([]byte, rr.n), make([]byte, rr.n)
				n, err := rd.ReadAt(got, rr.off)
				wn, werr := want.ReadAt(exp, rr.off)
				if n != wn || !bytes.Equal(got[:n], exp[:wn]) || (err == nil) != (werr == nil) || err != nil && err != io.EOF {
					t.Fatalf("%s, %s: ReadAt(%d bytes, %d): %d bytes, %v; want %d bytes, %v", path, order, rr.n, rr.off, n, err, wn, werr)
				}
			}
		}
	}
}

// TestRemoteReaderRequests: a forward reading of a large object asks for
// a window a request (16 MiB), and a range of it stops at its end: a
// 40 MiB object read from start to end in the engine's 128 KiB reads
// costs 3 requests, its bytes 20 MiB to 36 MiB 1, 20 MiB + 1 to its end
// 2: no more with a window asked for ahead.
func TestRemoteReaderRequests(t *testing.T) {
	store := newFakeStore(t)
	data := bytes.Repeat([]byte("0123456789abcdef"), 40<<20/16)
	store.put("bucket/large", data)
	for _, scheme := range schemes {
		path := scheme + "://bucket/large"
		for _, c := range []struct{ from, to, requests int64 }{
			{0, int64(len(data)), 3},
			{20 << 20, 36 << 20, 1},
			{20<<20 + 1, 40 << 20, 2},
		} {
			rd, err := openRemote(context.Background(), path, c.from, c.to)
			if err != nil {
				t.Fatal(err)
			}
			var got bytes.Buffer
			if _, err := io.Copy(&got, bufioLike(io.NewSectionReader(rd, c.from, c.to-c.from), 128<<10)); err != nil {
				t.Fatal(err)
			}
			rd.Close()
			if !bytes.Equal(got.Bytes(), data[c.from:c.to]) {
				t.Errorf("%s, bytes %d-%d: read %d bytes, not the object's", path, c.from, c.to, got.Len())
			}
			if n := store.reads("bucket/large"); int64(n) != c.requests {
				t.Errorf("%s, bytes %d-%d: %d requests, want %d", path, c.from, c.to, n, c.requests)
			}
		}
	}
}

// TestRemoteReadAhead: while a window of a forward reading is read, the
// next is asked for (its latency overlaps the reading); not after a read
// elsewhere (back, or far on), nor past the limit.
func TestRemoteReadAhead(t *testing.T) {
	store := newFakeStore(t)
	data := bytes.Repeat([]byte("0123456789abcdef"), 1<<10)
	store.put("bucket/ahead", data)
	// waitReads waits for the object's n-th read; false if it does not
	// come (the reads are counted once the reader is closed).
	waitReads := func(n int) bool {
		for range 5000 {
			store.mu.Lock()
			got := store.gets["bucket/ahead"]
			store.mu.Unlock()
			if got >= n {
				return true
			}
			time.Sleep(time.Millisecond)
		}
		return false
	}
	for _, scheme := range schemes {
		path := scheme + "://bucket/ahead"
		rd := openWindows(t, path, 4<<10, 12<<10)
		p := make([]byte, 10)
		if _, err := rd.ReadAt(p, 0); err != nil {
			t.Fatal(err)
		}
		if !waitReads(2) {
			t.Errorf("%s: the window at 4 KiB was not asked for while the first was read", path)
		}
		if _, err := rd.ReadAt(p, 9<<10); err != nil { // far on: the window at 12 KiB is not asked for
			t.Fatal(err)
		}
		if _, err := rd.ReadAt(p, 13<<10); err != nil { // past the limit: a window of its own
			t.Fatal(err)
		}
		rd.Close()
		if n := store.reads("bucket/ahead"); n != 4 {
			t.Errorf("%s: %d requests, want 4 (0, 4 KiB ahead, 9 KiB, 13 KiB)", path, n)
		}
	}
}

// bufioLike reads r n bytes a call, as the engine does.
func bufioLike(r io.Reader, n int) io.Reader {
	return readerFunc(func(p []byte) (int, error) { return r.Read(p[:min(len(p), n)]) })
}

type readerFunc func([]byte) (int, error)

func (f readerFunc) Read(p []byte) (int, error) { return f(p) }

// TestRemoteRanges: the engine lists the ranges of an mbox and a WARC
// file gzipped a member a record on GCS and S3 as those of their bytes,
// and reads each range as it reads it from the bytes, a window (here 64
// KiB) a request.
func TestRemoteRanges(t *testing.T) {
	store := newFakeStore(t)
	r := rand.New(rand.NewPCG(36, 2))
	files := map[string][]byte{
		"x.mbox":    []byte(mbox(r, 400)),
		"x.warc.gz": gzipMembers(t, warcRecords(r, 300)...),
	}
	o, err := engineOptions(nil)
	if err != nil {
		t.Fatal(err)
	}
	const window = 64 << 10
	for name, data := range files {
		store.put("bucket/"+name, data)
		size := int64(len(data))
		target := size / 5
		want, err := engine.Ranges(name, bytes.NewReader(data), size, o, target)
		if err != nil || len(want) < 4 {
			t.Fatalf("%s: %d ranges, %v", name, len(want), err)
		}
		for _, scheme := range schemes {
			path := scheme + "://bucket/" + name
			rd := openWindows(t, path, window, size)
			got, err := engine.Ranges(name, rd, size, o, target)
			if err != nil || !slices.Equal(got, want) {
				t.Errorf("%s: ranges %v, %v; want %v", path, got, err, want)
			}
			if n, most := store.reads("bucket/"+name), int((size+window-1)/window); n != most {
				t.Errorf("%s: listed in %d requests, want %d", path, n, most)
			}
			for _, rg := range want {
				var gotOut, wantOut bytes.Buffer
				ro := o
				ro.Stdout = &gotOut
				rd := openWindows(t, path, window, rg.End)
				res := engine.RunRange(rg, rd, ro)
				ro.Stdout = &wantOut
				engine.RunRange(rg, bytes.NewReader(data), ro)
				if res.ReadErr != nil || gotOut.String() != wantOut.String() || wantOut.Len() == 0 {
					t.Errorf("%s, bytes %d-%d: %d bytes of results (%v), want %d", path, rg.Start, rg.End, gotOut.Len(), res.ReadErr, wantOut.Len())
				}
				length := rg.End - rg.Start
				if n, want := store.reads("bucket/"+name), int((length+window-1)/window); n != want {
					t.Errorf("%s, bytes %d-%d: %d requests, want %d", path, rg.Start, rg.End, n, want)
				}
			}
		}
	}
}

// smallWindows makes the windows of remoteReader window bytes for the
// test.
func smallWindows(t *testing.T, window int64) {
	saved := remoteWindowBytes
	remoteWindowBytes = window
	t.Cleanup(func() { remoteWindowBytes = saved })
}

// runRange runs fn over one range as a bundle, and returns what it
// emitted: the results (read from its files), the held messages.
func runRange(t *testing.T, fn *rangeSearchFn, rg fileRange) (results, held []string, err error) {
	t.Helper()
	ctx := context.Background()
	names, keys := newCollect(), newCollect()
	hold := func(file, m string) {
		if file != rg.Path {
			t.Errorf("held for %q, want %q", file, rg.Path)
		}
		held = append(held, m)
	}
	fn.StartBundle(ctx, names.line, keys.key, hold)
	if err := fn.ProcessElement(ctx, rg, names.line, keys.key, hold); err != nil {
		return nil, held, err
	}
	if err := fn.FinishBundle(ctx, names.line, keys.key, hold); err != nil {
		t.Fatal(err)
	}
	for _, name := range names.lines {
		data, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		results = append(results, lines(string(data))...)
	}
	return results, held, nil
}

// TestRemoteTransient: a 503 of GCS or S3 is retried by the client
// (remoteRetry); one that lasts (past its attempts) is the storage's
// error that may pass, at the opening or half way through: the listing
// fails (to be listed again, not read whole), a range's bundle fails,
// telling nothing, and its retry reads what a clean read does.
func TestRemoteTransient(t *testing.T) {
	store := newFakeStore(t)
	smallWindows(t, 4<<10)
	r := rand.New(rand.NewPCG(36, 3))
	data := []byte(mbox(r, 60))
	store.put("bucket/x.mbox", data)
	o, err := engineOptions(nil)
	if err != nil {
		t.Fatal(err)
	}
	ranges, err := engine.Ranges("x.mbox", bytes.NewReader(data), int64(len(data)), o, int64(len(data))/3)
	if err != nil || len(ranges) < 3 {
		t.Fatalf("%d ranges, %v", len(ranges), err)
	}
	rg := ranges[1]
	if rg.End-rg.Start < 3*remoteWindowBytes {
		t.Fatalf("a range of %d bytes: want several windows", rg.End-rg.Start)
	}
	for _, scheme := range schemes {
		path := scheme + "://bucket/x.mbox"
		// One 503: the client's retry reads it.
		store.failNext("bucket/x.mbox", 0, 1)
		rd, err := openRemote(context.Background(), path, 0, int64(len(data)))
		if err != nil {
			t.Fatalf("%s, one 503: %v", path, err)
		}
		got, err := io.ReadAll(io.NewSectionReader(rd, 0, int64(len(data))))
		rd.Close()
		if err != nil || !bytes.Equal(got, data) {
			t.Errorf("%s, one 503: read %d bytes, %v; want the object's %d", path, len(got), err, len(data))
		}
		// 503s past the client's attempts: at the opening, then at
		// the second window.
		for _, pass := range []int{0, 1} {
			store.failNext("bucket/x.mbox", pass, 100)
			rd, err := openRemote(context.Background(), path, 0, int64(len(data)))
			if err == nil {
				_, err = io.ReadAll(io.NewSectionReader(rd, 0, int64(len(data))))
				rd.Close()
			}
			if !transient(err) || status(err) != http.StatusServiceUnavailable {
				t.Errorf("%s, 503s after %d reads: %v, want the storage's 503, transient", path, pass, err)
			}
		}
		// The listing fails, to be listed again (not read whole).
		list := &listRangesFn{Target: int64(len(data)) / 3}
		if err := list.Setup(); err != nil {
			t.Fatal(err)
		}
		for _, pass := range []int{0, 1} {
			store.failNext("bucket/x.mbox", pass, 100)
			err := list.ProcessElement(context.Background(), inputPath{Path: path}, func(inputPath) {}, func(fileRange) {})
			if !transient(err) {
				t.Errorf("%s listed, 503s after %d reads: %v, want the storage's error", path, pass, err)
			}
		}
		fn := &rangeSearchFn{Prefix: filepath.Join(t.TempDir(), "res"), Compress: None}
		if err := fn.Setup(); err != nil {
			t.Fatal(err)
		}
		frg := newFileRange(path, 1, rg)
		for _, pass := range []int{0, 1} {
			store.failNext("bucket/x.mbox", pass, 100)
			results, held, err := runRange(t, fn, frg)
			if err == nil || !transient(err) || len(results)+len(held) != 0 {
				t.Errorf("%s, range %d-%d, 503s after %d reads: %v, %d results, held %q; want the bundle failed", path, rg.Start, rg.End, pass, err, len(results), held)
			}
		}
		store.failNext("bucket/x.mbox", 0, 0)
		results, held, err := runRange(t, fn, frg)
		var want bytes.Buffer
		ro := o
		ro.Stdout = &want
		engine.RunRange(frg.engineRange(), bytes.NewReader(data), ro)
		if err != nil || len(held) != 0 || !slices.Equal(results, lines(want.String())) || len(results) == 0 {
			t.Errorf("%s, retried: %d results, held %q, %v; want the range's %d", path, len(results), held, err, len(lines(want.String())))
		}
	}
}

// TestRemoteMissing: an object that is not there (404) is an error of
// its file, not the storage's moment: a range of it is the file's error
// line, and so is the object read whole; the listing leaves it to be
// read whole (the search tells it).
func TestRemoteMissing(t *testing.T) {
	newFakeStore(t)
	for _, scheme := range schemes {
		path := scheme + "://bucket/gone.mbox"
		_, err := openRemote(context.Background(), path, 0, 100)
		if err == nil || transient(err) {
			t.Errorf("%s: %v, want an error of the file", path, err)
		}
		fn := &rangeSearchFn{Prefix: filepath.Join(t.TempDir(), "res"), Compress: None}
		if err := fn.Setup(); err != nil {
			t.Fatal(err)
		}
		_, held, err := runRange(t, fn, fileRange{Path: path, Index: 2, Start: 100, End: 200})
		if err != nil || len(held) != 1 || !strings.Contains(held[0], `"Error":"urix: `+path+`: `) {
			t.Errorf("%s: held %q, %v; want the file's error", path, held, err)
		}
		// Read whole: the file's error line.
		search := &searchFn{Prefix: filepath.Join(t.TempDir(), "res"), Compress: None}
		if err := search.Setup(); err != nil {
			t.Fatal(err)
		}
		c := newCollect()
		ctx := context.Background()
		search.StartBundle(ctx, c.line, c.key, c.msg)
		err = search.ProcessElement(ctx, inputPath{Path: path}, c.line, c.key, c.msg)
		if err != nil || len(c.msgs) != 1 || !strings.Contains(c.msgs[0], `"level":"error"`) {
			t.Errorf("%s, read whole: told %q, %v; want the file's error", path, c.msgs, err)
		}
		list := &listRangesFn{Target: 1}
		if err := list.Setup(); err != nil {
			t.Fatal(err)
		}
		if got := listOne(t, list, inputPath{Path: path}); len(got.ranges) != 0 || len(got.whole) != 1 {
			t.Errorf("%s: listed %+v, want the path alone", path, got)
		}
	}
}

// TestRemoteAsCLI runs the pipeline on prism over an mbox and WARC files
// gzipped a member a record on GCS and S3 (fakeStore), in small ranges,
// and wants them read in ranges (the urix/ranges counter: the engine's
// ranges of the files; one, with a corrupt member, is one range, read
// whole), the results and the errors what the CLI's --json says of the
// same local files.
func TestRemoteAsCLI(t *testing.T) {
	store := newFakeStore(t)
	smallWindows(t, 8<<10)
	dir := t.TempDir()
	writeCollection(t, dir)
	names := []string{"list.mbox", "crawl.warc.gz", "corrupt-member.warc.gz"}
	const rangeBytes = 4 << 10
	var locals []string
	var wantRanges int64
	for _, name := range names {
		local := filepath.Join(dir, name)
		data, err := os.ReadFile(local)
		if err != nil {
			t.Fatal(err)
		}
		store.put("bucket/"+name, data)
		locals = append(locals, local)
		if n := len(engineRanges(t, local, nil, rangeBytes)); n > 1 {
			wantRanges += int64(n) // a file of one range is read whole
		}
	}
	cliLines, cliErrs := runCLI(t, locals)
	for _, scheme := range schemes {
		t.Run(scheme, func(t *testing.T) {
			var paths []string
			// The CLI's lines with the objects' names for the files'.
			remote := func(l string) string {
				for _, name := range names {
					l = strings.ReplaceAll(l, filepath.Join(dir, name), scheme+"://bucket/"+name)
				}
				return l
			}
			for _, name := range names {
				paths = append(paths, scheme+"://bucket/"+name)
				store.reads("bucket/" + name)
			}
			out := filepath.Join(t.TempDir(), "res")
			p, s := beam.NewPipelineWithRoot()
			if err := Build(s, Config{Inputs: paths, Output: out, Compress: None, RangeBytes: rangeBytes}); err != nil {
				t.Fatal(err)
			}
			res, err := ptest.RunWithMetrics(p)
			if err != nil {
				t.Fatal(err)
			}
			n := counters(res)
			if n["ranges"] != wantRanges || wantRanges < 10 || n["files"] != int64(len(names)) {
				t.Errorf("read %d ranges of %d files, want %d of %d", n["ranges"], n["files"], wantRanges, len(names))
			}
			var wantLines, wantErrs []string
			for _, l := range cliLines {
				wantLines = append(wantLines, remote(l))
			}
			for _, l := range cliErrs {
				wantErrs = append(wantErrs, remote(l))
			}
			slices.Sort(wantLines)
			slices.Sort(wantErrs)
			diffLines(t, "results", readOutput(t, out, "", None), wantLines)
			gotErrs, _, _ := messagesAsCLI(t, readOutput(t, out, "errors", None))
			diffLines(t, "errors", gotErrs, wantErrs)
			for _, name := range names {
				t.Logf("%s://bucket/%s: %d reads", scheme, name, store.reads("bucket/"+name))
			}
		})
	}
}
