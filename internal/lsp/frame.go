// This file implements the guard on what a client sends: the server reads
// every message through a frameReader, which lets through only messages
// whose header lines and declared body length are within bounds, so that
// a hostile or broken client cannot make the server buffer an endless
// header line or allocate a body of gigabytes.

package lsp

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// Limits on one message from the client.
const (
	// maxHeaderLine is the longest header line read.
	maxHeaderLine = 4 << 10
	// maxHeaderLines is the most header lines of one message.
	maxHeaderLines = 32
	// maxBody is the largest body: above any document ladder reads
	// (safeio.MaxInputSize is 64 MiB) with room for JSON escaping.
	maxBody = 160 << 20
)

// errFrame is the error (wrapped) of a message outside the bounds; the
// connection ends with it.
var errFrame = errors.New("lsp: message refused")

// frameReader passes the client's messages through unchanged while
// checking their framing: header lines of at most maxHeaderLine bytes, at
// most maxHeaderLines of them, a Content-Length of at most maxBody. It
// hands out the body only as it arrives, so that nothing is allocated for
// a length that is never sent.
type frameReader struct {
	r    *bufio.Reader
	pend []byte // the checked header of the current message, to hand out
	left int64  // bytes of the current body still to hand out
	err  error
}

func newFrameReader(r io.Reader) *frameReader {
	return &frameReader{r: bufio.NewReaderSize(r, maxHeaderLine)}
}

func (f *frameReader) Read(p []byte) (int, error) {
	if f.err != nil {
		return 0, f.err
	}
	if len(f.pend) == 0 && f.left == 0 {
		if err := f.header(); err != nil {
			f.err = err
			return 0, err
		}
	}
	if len(f.pend) > 0 {
		n := copy(p, f.pend)
		f.pend = f.pend[n:]
		return n, nil
	}
	if int64(len(p)) > f.left {
		p = p[:f.left]
	}
	n, err := f.r.Read(p)
	f.left -= int64(n)
	if err != nil {
		f.err = err
	}
	return n, err
}

// header reads and checks the next message's header lines.
func (f *frameReader) header() error {
	var b strings.Builder
	length := int64(-1)
	for i := 0; ; i++ {
		if i == maxHeaderLines {
			return fmt.Errorf("%w: more than %d header lines", errFrame, maxHeaderLines)
		}
		line, err := f.r.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) {
			return fmt.Errorf("%w: a header line longer than %d bytes", errFrame, maxHeaderLine)
		}
		if err != nil {
			return err // io.EOF: the client closed the connection
		}
		b.Write(line)
		text := strings.TrimRight(string(line), "\r\n")
		if text == "" {
			break
		}
		name, value, ok := strings.Cut(text, ":")
		if ok && strings.EqualFold(strings.TrimSpace(name), "Content-Length") {
			n, err := strconv.ParseInt(strings.TrimSpace(value), 10, 64)
			if err != nil || n < 0 {
				return fmt.Errorf("%w: Content-Length %q", errFrame, strings.TrimSpace(value))
			}
			if n > maxBody {
				return fmt.Errorf("%w: Content-Length %d is over the limit of %d MiB", errFrame, n, maxBody>>20)
			}
			length = n
		}
	}
	if length < 0 {
		return fmt.Errorf("%w: no Content-Length", errFrame)
	}
	f.pend, f.left = []byte(b.String()), length
	return nil
}

// guarded is the connection with its reads through a frameReader.
type guarded struct {
	io.Reader
	io.WriteCloser
}
