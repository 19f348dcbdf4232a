// Package safeio reads the files ladder is given (YAML inputs, the cache
// snapshot, the run memo) without trusting what they are: only regular
// files are read, never more than a size limit, and a named pipe, device or
// socket is refused before anything could block on it.
//
// Errors are *fs.PathError values whose Err says what is wrong ("a named
// pipe, not a regular file", "larger than the 64 MiB limit ..."), so that
// callers that print the reason without the file name keep doing so.
package safeio

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strconv"
)

// MaxInputSize is the limit on one input file (an automaton, interface or
// proof file): far above any real specification, small enough that a
// runaway file cannot exhaust memory.
const MaxInputSize = 64 << 20

// ErrTooLarge is the error (wrapped) of a file over its limit.
var ErrTooLarge = errors.New("file too large")

// ErrNotRegular is the error (wrapped) of a file that is not a regular file.
var ErrNotRegular = errors.New("not a regular file")

// ReadFile reads the regular file name, at most limit bytes (limit > 0).
// A file of any other type (directory, named pipe, device, socket) is an
// error checked before the file is opened, and again on the opened file, which
// is opened without blocking; a file larger than limit is an error naming
// the limit.
func ReadFile(name string, limit int64) ([]byte, error) {
	fi, err := os.Stat(name)
	if err != nil {
		return nil, err
	}
	if err := regular(name, fi); err != nil {
		return nil, err
	}
	if fi.Size() > limit {
		return nil, tooLarge(name, fi.Size(), limit)
	}
	f, err := openNonblock(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	// The file may have been replaced between Stat and Open.
	if fi, err = f.Stat(); err != nil {
		return nil, err
	}
	if err := regular(name, fi); err != nil {
		return nil, err
	}
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, &fs.PathError{Op: "read", Path: name, Err: err}
	}
	if int64(len(data)) > limit {
		return nil, tooLarge(name, -1, limit)
	}
	return data, nil
}

// regular returns an error unless fi describes a regular file.
func regular(name string, fi fs.FileInfo) error {
	if fi.Mode().IsRegular() {
		return nil
	}
	return &fs.PathError{Op: "read", Path: name, Err: fmt.Errorf("%w: %s", ErrNotRegular, TypeName(fi.Mode()))}
}

// TypeName describes the type of a file that is not regular.
func TypeName(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe (FIFO)"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a block device"
	case m&fs.ModeSymlink != 0:
		return "a symbolic link"
	case m&fs.ModeIrregular != 0:
		return "an irregular file"
	}
	return "not a regular file"
}

func tooLarge(name string, size, limit int64) error {
	what := "more than " + FormatBytes(limit)
	if size >= 0 {
		what = strconv.FormatInt(size, 10) + " bytes"
	}
	return &fs.PathError{Op: "read", Path: name, Err: fmt.Errorf("%w: %s, over the limit of %s", ErrTooLarge, what, FormatBytes(limit))}
}

// FormatBytes formats n bytes in binary units: "64 MiB", "1.5 GiB", "512 B".
func FormatBytes(n int64) string {
	const unit = 1024
	if n < unit {
		return strconv.FormatInt(n, 10) + " B"
	}
	units := []string{"KiB", "MiB", "GiB", "TiB", "PiB", "EiB"}
	v := float64(n) / unit
	i := 0
	for v >= unit && i < len(units)-1 {
		v /= unit
		i++
	}
	if v == float64(int64(v)) {
		return fmt.Sprintf("%d %s", int64(v), units[i])
	}
	return fmt.Sprintf("%.1f %s", v, units[i])
}

// ParseBytes parses a size such as "1GiB", "512MiB", "2G", "300M", "4096"
// (bytes). K, M, G, T with or without "iB" or "B" are binary units.
func ParseBytes(s string) (int64, error) {
	num := s
	mult := int64(1)
	for _, u := range []struct {
		suffix string
		mult   int64
	}{
		{"KiB", 1 << 10}, {"MiB", 1 << 20}, {"GiB", 1 << 30}, {"TiB", 1 << 40},
		{"KB", 1 << 10}, {"MB", 1 << 20}, {"GB", 1 << 30}, {"TB", 1 << 40},
		{"K", 1 << 10}, {"M", 1 << 20}, {"G", 1 << 30}, {"T", 1 << 40}, {"B", 1},
	} {
		if len(s) > len(u.suffix) && s[len(s)-len(u.suffix):] == u.suffix {
			num, mult = s[:len(s)-len(u.suffix)], u.mult
			break
		}
	}
	f, err := strconv.ParseFloat(num, 64)
	if err != nil || f < 0 || f != f {
		return 0, fmt.Errorf("%q is not a size (e.g. 512MiB, 2GiB)", s)
	}
	v := f * float64(mult)
	if v >= 1<<62 {
		return 0, fmt.Errorf("%q is too large", s)
	}
	return int64(v), nil
}
