package pipeline

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"cloud.google.com/go/storage"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/util/gcsx"
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/aws/retry"
	"github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/googleapis/gax-go/v2"
	"google.golang.org/api/googleapi"

	// The filesystems of the files read here in ranges: their listing,
	// sizes and whole reads are Beam's.
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/gcs"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/s3"
)

// Ranged reads of GCS and S3 objects (issue 34). Beam 2.77's
// filesystems for gs:// and s3:// open a file only from its start
// (filesystem.Interface.OpenRead), so a range at offset X would transfer
// X bytes first (forwardReader). A remoteReader reads an object where it
// is asked, by HTTP range requests (GCS: Object.NewRangeReader; S3:
// GetObject with a Range), with the clients and default credentials
// that Beam's own filesystems make: so the files of a crawl on GCS or S3
// are split in ranges as local ones are, each range transferring its
// own bytes only.
//
// The engine reads forward, 64 to 128 KiB a call (engine.Ranges from
// the file's start to its end, engine.RunRange from a range's start to
// its end, never past it): each request asks for a window of
// remoteWindowBytes, streamed as the engine reads on, and the next
// window is asked for while this one is read, so that the wait for its
// first byte overlaps the reading. A window ends at the limit the reader
// is opened for (the range's end): the reading of a range of R bytes
// costs ceil(R/remoteWindowBytes) requests, and transfers no byte past it.
// A read elsewhere (backward, or past the window) asks anew.

// remoteWindowBytes is the bytes one range request asks for: large enough
// that a request's latency (tens of ms on GCS) is little beside the
// transfer of its bytes, small enough that a ranged read abandoned half
// way leaves little in flight.
var remoteWindowBytes int64 = 16 << 20

// remoteRetry is how the storage's client retries a request that fails
// in a way that may pass (a 5xx, a 429, a reset) before its error fails
// the bundle (failure.go), for the runner to retry: attempts, and the
// bounds of the exponential backoff between them. Beam's own GCS
// filesystem retries for ever; a bounded retry lets the runner move the
// work elsewhere.
var remoteRetry = struct {
	attempts     int
	initial, max time.Duration
}{5, time.Second, 30 * time.Second}

// remoteScheme tells a path that openRanged reads with range requests.
func remoteScheme(path string) bool {
	return strings.HasPrefix(path, "gs://") || strings.HasPrefix(path, "s3://")
}

// rangedScheme tells a path read at any offset for what that offset
// costs: a local file, a GCS or S3 object. The others only open a
// stream from the start (forwardReader).
func rangedScheme(path string) bool { return isLocal(path) || remoteScheme(path) }

// A rangeGetter asks one object for a range of its bytes.
type rangeGetter interface {
	// get opens bytes off to off+n-1 of the object: the response's
	// body, and the object's size (-1 when the response does not say).
	get(ctx context.Context, off, n int64) (io.ReadCloser, int64, error)
	// Close releases the client.
	Close() error
}

// openRemote opens the object path (gs:// or s3://) to read it at any
// offset, mostly bytes from to to: the first window, from from, is
// asked for here, so that an object that is not there (or unreadable)
// is this error, judged by transient.
func openRemote(ctx context.Context, path string, from, to int64) (*remoteReader, error) {
	g, err := newGetter(ctx, path)
	if err != nil {
		return nil, err
	}
	r := newRemoteReader(ctx, g, remoteWindowBytes, to)
	if err := r.start(from); err != nil {
		r.Close()
		return nil, err
	}
	return r, nil
}

// newGetter makes the client that reads the object path (gs:// or
// s3://).
func newGetter(ctx context.Context, path string) (rangeGetter, error) {
	if strings.HasPrefix(path, "gs://") {
		return newGCSGetter(ctx, path)
	}
	return newS3Getter(ctx, path)
}

// remoteReader is an io.ReaderAt over an object, read by range
// requests of window bytes (a window), the next asked for ahead while
// one is read, up to limit.
type remoteReader struct {
	ctx    context.Context
	get    rangeGetter
	window int64
	limit  int64 // where the reading is expected to end: no window is asked for past it ahead of need

	mu   sync.Mutex
	cur  *remoteWindow // the window read; nil before the first and after an error
	next *remoteWindow // the window after cur, asked for ahead
	size int64         // the object's, once a response says; -1 before
	// read is where the last window ended: the first window, and a
	// window asked for there, continue a forward reading, and the one
	// after it is asked for ahead (not after a window asked for
	// elsewhere: a read back or far on).
	read    int64
	started bool
}

// A remoteWindow is one range request: bytes start to end-1, its
// body read up to pos.
type remoteWindow struct {
	start, end, pos int64
	body            io.ReadCloser
	size            int64 // the object's, as the response says (-1: it does not)
	err             error
	done            chan struct{} // closed once the response (or err) came
	cancel          context.CancelFunc
}

func newRemoteReader(ctx context.Context, g rangeGetter, window, limit int64) *remoteReader {
	return &remoteReader{ctx: ctx, get: g, window: window, limit: limit, size: -1}
}

// start asks for the window at off, and returns its error.
func (r *remoteReader) start(off int64) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	_, err := r.windowAt(off)
	if err == io.EOF {
		err = nil
	}
	return err
}

func (r *remoteReader) ReadAt(p []byte, off int64) (int, error) {
	if off < 0 {
		return 0, fmt.Errorf("remote read at %d: negative offset", off)
	}
	if len(p) == 0 {
		return 0, nil
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	n := 0
	for n < len(p) {
		at := off + int64(n)
		if r.size >= 0 && at >= r.size {
			return n, io.EOF
		}
		w, err := r.windowAt(at)
		if err != nil {
			return n, err
		}
		m, err := w.body.Read(p[n:min(int64(len(p)), int64(n)+w.end-w.pos)])
		w.pos += int64(m)
		n += m
		switch {
		case err == io.EOF && w.pos < w.end && w.size >= 0:
			// Short of what the response said it holds.
			err = io.ErrUnexpectedEOF
		case err == io.EOF && w.pos < w.end:
			r.size, err = w.pos, nil // the object ends here
		case err == io.EOF:
			err = nil
		}
		if err != nil {
			r.drop(&r.cur)
			return n, err
		}
	}
	return n, nil
}

// windowAt is the window that reads at off, its body read up to off:
// cur, or next when cur is read to its end (then a window after it is
// asked for ahead), or a new window. io.EOF when off is at or past the
// object's end.
func (r *remoteReader) windowAt(off int64) (*remoteWindow, error) {
	if w := r.cur; w != nil && off >= w.pos && off < w.end {
		// Forward within the window: its bytes are on their way.
		if err := r.skip(w, off); err != nil {
			return nil, err
		}
		return w, nil
	}
	forward := !r.started || off == r.read
	r.started = true
	r.drop(&r.cur)
	if w := r.next; w != nil && off >= w.start && off < w.end {
		r.cur, r.next = w, nil
	} else {
		r.drop(&r.next)
		r.cur = r.ask(off)
	}
	w := r.cur
	<-w.done
	if err := w.err; err != nil {
		r.drop(&r.cur)
		if status(err) == http.StatusRequestedRangeNotSatisfiable { // the object ends at or before off
			return nil, io.EOF
		}
		return nil, err
	}
	if w.size >= 0 {
		r.size = w.size
		w.end = min(w.end, w.size)
	}
	if off >= w.end {
		r.drop(&r.cur)
		return nil, io.EOF
	}
	if err := r.skip(w, off); err != nil {
		return nil, err
	}
	r.read = w.end
	if forward && w.end < r.limit && (r.size < 0 || w.end < r.size) {
		r.next = r.ask(w.end)
	}
	return w, nil
}

// skip reads w's body on to off (within w).
func (r *remoteReader) skip(w *remoteWindow, off int64) error {
	if off == w.pos {
		return nil
	}
	n, err := io.CopyN(io.Discard, w.body, off-w.pos)
	w.pos += n
	if err == io.EOF {
		err = io.ErrUnexpectedEOF
	}
	if err != nil {
		r.drop(&r.cur)
	}
	return err
}

// ask asks for the window at off, in the background: up to the limit
// when off is before it, else a whole window, within the object.
func (r *remoteReader) ask(off int64) *remoteWindow {
	end := off + r.window
	if off < r.limit {
		end = min(end, r.limit)
	}
	if r.size >= 0 {
		end = min(end, r.size)
	}
	ctx, cancel := context.WithCancel(r.ctx)
	w := &remoteWindow{start: off, end: end, pos: off, size: -1, done: make(chan struct{}), cancel: cancel}
	go func() {
		defer close(w.done)
		w.body, w.size, w.err = r.get.get(ctx, off, end-off)
	}()
	return w
}

// drop abandons the window *w (its request, its body) and clears it.
func (r *remoteReader) drop(w **remoteWindow) {
	if *w == nil {
		return
	}
	(*w).cancel()
	<-(*w).done
	if (*w).body != nil {
		(*w).body.Close()
	}
	*w = nil
}

func (r *remoteReader) Close() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.drop(&r.cur)
	r.drop(&r.next)
	return r.get.Close()
}

// status is the HTTP status of a storage's error: GCS's, S3's
// (smithy-go's ResponseError); 0 when it says none.
func status(err error) int {
	var gerr *googleapi.Error
	if errors.As(err, &gerr) {
		return gerr.Code
	}
	var herr interface{ HTTPStatusCode() int }
	if errors.As(err, &herr) {
		return herr.HTTPStatusCode()
	}
	return 0
}

// gcsGetter reads a GCS object with the client Beam's gcs filesystem
// makes (application default credentials, else none), the object's
// generation pinned once known: an object replaced during the reading
// is an error of the file (404), not a mix of its versions.
type gcsGetter struct {
	client *storage.Client

	mu     sync.Mutex // a window asked for ahead asks on another goroutine
	obj    *storage.ObjectHandle
	pinned bool
}

func newGCSGetter(ctx context.Context, path string) (*gcsGetter, error) {
	bucket, object, err := gcsx.ParseObject(path)
	if err != nil {
		return nil, permanent{err}
	}
	client, err := gcsx.NewClient(ctx, storage.ScopeReadOnly)
	if err != nil {
		if client, err = gcsx.NewUnauthenticatedClient(ctx); err != nil {
			return nil, err
		}
	}
	// The bytes as stored, whose size the listing was given: an object
	// stored with Content-Encoding gzip is not decompressed by GCS
	// (which would ignore the Range), but by the engine.
	obj := client.Bucket(bucket).Object(object).ReadCompressed(true).Retryer(
		storage.WithMaxAttempts(remoteRetry.attempts),
		storage.WithBackoff(gax.Backoff{Initial: remoteRetry.initial, Max: remoteRetry.max, Multiplier: 2}))
	return &gcsGetter{client: client, obj: obj}, nil
}

func (g *gcsGetter) get(ctx context.Context, off, n int64) (io.ReadCloser, int64, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	r, err := g.obj.NewRangeReader(ctx, off, n)
	if err != nil {
		return nil, -1, err
	}
	if !g.pinned && r.Attrs.Generation > 0 {
		g.obj, g.pinned = g.obj.Generation(r.Attrs.Generation), true
	}
	return r, r.Attrs.Size, nil
}

func (g *gcsGetter) Close() error { return g.client.Close() }

// s3Getter reads an S3 object with the client Beam's s3 filesystem
// makes (the AWS SDK's default configuration: credentials, region,
// AWS_ENDPOINT_URL_S3), its ETag pinned once known (If-Match: an object
// replaced during the reading is an error of the file, 412).
type s3Getter struct {
	client      *s3.Client
	bucket, key string

	mu   sync.Mutex // a window asked for ahead asks on another goroutine
	etag *string
}

func newS3Getter(ctx context.Context, path string) (*s3Getter, error) {
	bucket, key, ok := strings.Cut(strings.TrimPrefix(path, "s3://"), "/")
	if !ok || bucket == "" || key == "" {
		return nil, permanent{fmt.Errorf("%s: not an S3 object (s3://BUCKET/KEY)", path)}
	}
	cfg, err := config.LoadDefaultConfig(ctx)
	if err != nil {
		return nil, permanent{err}
	}
	client := s3.NewFromConfig(cfg, func(o *s3.Options) {
		// A range has no checksum of the object to validate: the SDK
		// would log so at each request.
		o.DisableLogOutputChecksumValidationSkipped = true
		o.Retryer = retry.NewStandard(func(so *retry.StandardOptions) {
			so.MaxAttempts = remoteRetry.attempts
			so.MaxBackoff = remoteRetry.max
			so.Backoff = retry.NewExponentialJitterBackoff(remoteRetry.max)
		})
	})
	return &s3Getter{client: client, bucket: bucket, key: key}, nil
}

func (g *s3Getter) get(ctx context.Context, off, n int64) (io.ReadCloser, int64, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	out, err := g.client.GetObject(ctx, &s3.GetObjectInput{
		Bucket:  aws.String(g.bucket),
		Key:     aws.String(g.key),
		Range:   aws.String(fmt.Sprintf("bytes=%d-%d", off, off+n-1)),
		IfMatch: g.etag,
	})
	if err != nil {
		return nil, -1, err
	}
	if g.etag == nil && out.ETag != nil {
		g.etag = out.ETag
	}
	size, err := s3Size(out, off)
	if err != nil {
		out.Body.Close()
		return nil, -1, err
	}
	return out.Body, size, nil
}

// s3Size is the object's size that a response to a range request at
// off says (Content-Range: "bytes FIRST-LAST/SIZE"), -1 when it does
// not; an error when it holds other bytes than those asked for.
func s3Size(out *s3.GetObjectOutput, off int64) (int64, error) {
	cr := aws.ToString(out.ContentRange)
	if cr == "" {
		// The whole object (200): right only from its start.
		if off > 0 {
			return -1, fmt.Errorf("asked for bytes from %d, sent the whole object", off)
		}
		return aws.ToInt64(out.ContentLength), nil
	}
	first, total, ok := strings.Cut(strings.TrimPrefix(cr, "bytes "), "/")
	first, _, _ = strings.Cut(first, "-")
	if !ok || first != strconv.FormatInt(off, 10) {
		return -1, fmt.Errorf("asked for bytes from %d, sent %q", off, cr)
	}
	size, err := strconv.ParseInt(total, 10, 64)
	if err != nil {
		return -1, nil // "*": not said
	}
	return size, nil
}

func (g *s3Getter) Close() error { return nil }

// openS3 opens an S3 object to read it whole. Beam's s3 filesystem says
// the error of its GetObject as text only (v2.77: "%v"), so that a
// missing object (404) would be taken for the storage's moment
// (transient), and its bundle retried for ever: here it keeps its
// status.
func openS3(ctx context.Context, path string) (io.ReadCloser, error) {
	g, err := newS3Getter(ctx, path)
	if err != nil {
		return nil, err
	}
	out, err := g.client.GetObject(ctx, &s3.GetObjectInput{Bucket: aws.String(g.bucket), Key: aws.String(g.key)})
	if err != nil {
		return nil, err
	}
	return out.Body, nil
}
