package z3

/*
#cgo LDFLAGS: -lz3
#include "shim.h"
*/
import "C"

import (
	"errors"
	"fmt"
	"runtime"
	"sort"
	"sync"
	"unsafe"
)

// Version returns the version of the linked libz3, e.g. "4.8.12".
func Version() string {
	var major, minor, build, rev C.uint
	C.Z3_get_version(&major, &minor, &build, &rev)
	return fmt.Sprintf("%d.%d.%d", major, minor, build)
}

// EstimatedAllocSize returns Z3's process-wide estimate of the memory it has
// allocated, in bytes (Z3_get_estimated_alloc_size). It covers all contexts.
func EstimatedAllocSize() uint64 {
	return uint64(C.Z3_get_estimated_alloc_size())
}

// ErrorCode is a Z3 error code (Z3_error_code) or one of the codes this
// package adds for failures detected around the Z3 call.
type ErrorCode int

// Z3's own error codes.
const (
	ErrSort           ErrorCode = C.Z3_SORT_ERROR
	ErrIndexOutOfBnd  ErrorCode = C.Z3_IOB
	ErrInvalidArg     ErrorCode = C.Z3_INVALID_ARG
	ErrParser         ErrorCode = C.Z3_PARSER_ERROR
	ErrNoParser       ErrorCode = C.Z3_NO_PARSER
	ErrInvalidPattern ErrorCode = C.Z3_INVALID_PATTERN
	ErrMemout         ErrorCode = C.Z3_MEMOUT_FAIL
	ErrFileAccess     ErrorCode = C.Z3_FILE_ACCESS_ERROR
	ErrInternalFatal  ErrorCode = C.Z3_INTERNAL_FATAL
	ErrInvalidUsage   ErrorCode = C.Z3_INVALID_USAGE
	ErrDecRef         ErrorCode = C.Z3_DEC_REF_ERROR
	ErrException      ErrorCode = C.Z3_EXCEPTION
)

// Codes added by this package.
const (
	// ErrNull: Z3 returned a null object without setting an error code.
	ErrNull ErrorCode = C.LZ_ERR_NULL
	// ErrCxx: a C++ exception escaped the Z3 API and was caught by the shim.
	ErrCxx ErrorCode = C.LZ_ERR_CXX
	// ErrEval: Z3_model_eval could not evaluate the term.
	ErrEval ErrorCode = C.LZ_ERR_EVAL
	// ErrParam: unknown solver parameter or value of the wrong type.
	ErrParam ErrorCode = C.LZ_ERR_PARAM
	// ErrUsage: the Go caller passed something invalid (a zero AST, a value
	// from another context, ...). Nothing was sent to Z3.
	ErrUsage ErrorCode = -1
)

// String returns a short name for the code.
func (c ErrorCode) String() string {
	switch c {
	case ErrSort:
		return "sort error"
	case ErrIndexOutOfBnd:
		return "index out of bounds"
	case ErrInvalidArg:
		return "invalid argument"
	case ErrParser:
		return "parser error"
	case ErrNoParser:
		return "no parser"
	case ErrInvalidPattern:
		return "invalid pattern"
	case ErrMemout:
		return "out of memory"
	case ErrFileAccess:
		return "file access error"
	case ErrInternalFatal:
		return "internal fatal error"
	case ErrInvalidUsage:
		return "invalid usage"
	case ErrDecRef:
		return "dec_ref error"
	case ErrException:
		return "exception"
	case ErrNull:
		return "null result"
	case ErrCxx:
		return "C++ exception"
	case ErrEval:
		return "evaluation failed"
	case ErrParam:
		return "bad parameter"
	case ErrUsage:
		return "usage error"
	}
	return fmt.Sprintf("error %d", int(c))
}

// Error is the error type returned for every Z3 failure: the operation, the
// Z3 error code and the message from Z3_get_error_msg.
type Error struct {
	Op   string    // the operation of this package that failed, e.g. "Eq"
	Code ErrorCode // Z3 error code, or one of this package's codes
	Msg  string    // Z3's message (Z3_get_error_msg), possibly multi-line
}

// Error implements the error interface.
func (e *Error) Error() string {
	if e.Msg == "" {
		return fmt.Sprintf("z3: %s: %v", e.Op, e.Code)
	}
	return fmt.Sprintf("z3: %s: %v: %s", e.Op, e.Code, e.Msg)
}

// ErrClosed is returned by operations on a closed Context, or on a Solver or
// Model that was closed (directly or with its Context).
var ErrClosed = errors.New("z3: context, solver or model is closed")

func usageErr(op, format string, args ...any) error {
	return &Error{Op: op, Code: ErrUsage, Msg: fmt.Sprintf(format, args...)}
}

// shimErr converts a shim's (err, msg) pair to an *Error, freeing msg.
func shimErr(op string, code C.int, msg *C.char) error {
	m := ""
	if msg != nil {
		m = C.GoString(msg)
		C.free(unsafe.Pointer(msg))
	}
	if code == 0 {
		return nil
	}
	return &Error{Op: op, Code: ErrorCode(code), Msg: m}
}

// Config holds context-level Z3 parameters (Z3_mk_config /
// Z3_set_param_value). A nil *Config means Z3's defaults.
type Config struct {
	// Params are context parameters by name, e.g. "proof": "true",
	// "unsat_core": "true", "model_validate": "true". Names and value
	// types are checked against the context parameters of Z3 4.8.12; an
	// unknown name or a bad value makes NewContext fail (Z3 itself would
	// only print a warning). Prefer SolverConfig for limits.
	Params map[string]string
}

// contextParams are the parameters Z3_set_param_value accepts in Z3 4.8.12
// (context_params::collect_param_descrs), with their value types.
var contextParams = map[string]paramType{
	"timeout": uintParam, "rlimit": uintParam, "type_check": boolParam,
	"well_sorted_check": boolParam, "model": boolParam, "model_validate": boolParam,
	"dump_models": boolParam, "auto_config": boolParam, "proof": boolParam,
	"debug_ref_count": boolParam, "trace": boolParam, "trace_file_name": stringParam,
	"unsat_core": boolParam, "smtlib2_compliant": boolParam, "encoding": stringParam,
	"dot_proof_file": stringParam,
}

type paramType int

const (
	boolParam paramType = iota
	uintParam
	stringParam
)

// validParamValue reports whether v is acceptable for a parameter of type
// t. Z3_set_param_value only prints a warning for bad values.
func validParamValue(t paramType, v string) bool {
	switch t {
	case boolParam:
		return v == "true" || v == "false"
	case uintParam:
		if v == "" || len(v) > 10 {
			return false
		}
		n := uint64(0)
		for i := 0; i < len(v); i++ {
			if v[i] < '0' || v[i] > '9' {
				return false
			}
			n = n*10 + uint64(v[i]-'0')
		}
		return n <= 1<<32-1
	}
	return true
}

// Context is a Z3 context (Z3_context created with Z3_mk_context_rc). All
// values created from a Context belong to it and must only be combined with
// values of the same Context. Methods are safe for concurrent use; they are
// serialized by a per-context mutex.
type Context struct {
	mu sync.Mutex
	c  C.Z3_context // nil once closed; written under mu and cmu

	cmu sync.Mutex // guards c for Interrupt, which must not wait for mu

	q       *releaseQueue
	cleanup runtime.Cleanup

	datatypes map[string]bool // names declared by EnumSort/DatatypeSort; guarded by mu
}

// releaseQueue collects references dropped by runtime cleanups; they are
// released under the context lock. Once closed (context deleted) it drops
// everything. It also counts the references that the context's live
// handles hold (wrap), so that Close can release them before it deletes
// the context: Z3 4.8.12 takes about ten times longer to delete a context
// in which terms are still referenced (the tracking literals of a tracked
// check, say) than one whose terms were released first.
type releaseQueue struct {
	mu     sync.Mutex
	closed bool
	refs   []C.lz_ref
	live   map[unsafe.Pointer]int // AST-like references held by handles
}

func (q *releaseQueue) add(kind C.int, p unsafe.Pointer) {
	q.mu.Lock()
	if !q.closed {
		q.refs = append(q.refs, C.lz_ref{kind: kind, p: p})
	}
	q.mu.Unlock()
}

// hold counts one more reference to p held by a handle.
func (q *releaseQueue) hold(p unsafe.Pointer) {
	q.mu.Lock()
	if q.live == nil {
		q.live = map[unsafe.Pointer]int{}
	}
	q.live[p]++
	q.mu.Unlock()
}

func (q *releaseQueue) take() []C.lz_ref {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.takeLocked()
}

// takeLocked returns the queued references, which no handle holds any
// more, and empties the queue; q.mu is held.
func (q *releaseQueue) takeLocked() []C.lz_ref {
	r := q.refs
	q.refs = nil
	for _, ref := range r {
		if ref.kind != C.LZ_REF_AST {
			continue
		}
		if n := q.live[ref.p]; n > 1 {
			q.live[ref.p] = n - 1
		} else {
			delete(q.live, ref.p)
		}
	}
	return r
}

// drain closes q and returns every reference still to be released: those
// queued and those live handles hold.
func (q *releaseQueue) drain() []C.lz_ref {
	q.mu.Lock()
	defer q.mu.Unlock()
	r := q.takeLocked()
	for p, n := range q.live {
		for range n {
			r = append(r, C.lz_ref{kind: C.LZ_REF_AST, p: p})
		}
	}
	q.closed, q.refs, q.live = true, nil, nil
	return r
}

func (q *releaseQueue) close() {
	q.mu.Lock()
	q.closed = true
	q.refs, q.live = nil, nil
	q.mu.Unlock()
}

type ctxCore struct {
	c C.Z3_context
	q *releaseQueue
}

// NewContext creates a reference-counted Z3 context with no error handler.
func NewContext(cfg *Config) (*Context, error) {
	var keys, vals []*C.char
	if cfg != nil {
		names := make([]string, 0, len(cfg.Params))
		for k, v := range cfg.Params {
			t, known := contextParams[k]
			if !known {
				return nil, usageErr("NewContext", "unknown context parameter %q", k)
			}
			if !validParamValue(t, v) {
				return nil, usageErr("NewContext", "bad value %q for context parameter %q", v, k)
			}
			names = append(names, k)
		}
		sort.Strings(names)
		for _, k := range names {
			keys = append(keys, C.CString(k))
			vals = append(vals, C.CString(cfg.Params[k]))
		}
	}
	defer func() {
		for i := range keys {
			C.free(unsafe.Pointer(keys[i]))
			C.free(unsafe.Pointer(vals[i]))
		}
	}()
	// The C arrays of C strings are allocated in C memory so no Go memory
	// holding C pointers is passed.
	n := len(keys)
	ck := cStringArray(keys)
	cv := cStringArray(vals)
	defer C.free(unsafe.Pointer(ck))
	defer C.free(unsafe.Pointer(cv))
	r := C.lz_mk_context(C.int(n), ck, cv)
	if err := shimErr("NewContext", r.err, r.msg); err != nil {
		return nil, err
	}
	ctx := &Context{c: C.Z3_context(r.p), q: &releaseQueue{}}
	ctx.cleanup = runtime.AddCleanup(ctx, func(core ctxCore) {
		core.q.close()
		C.Z3_del_context(core.c)
	}, ctxCore{c: ctx.c, q: ctx.q})
	return ctx, nil
}

// cStringArray copies a slice of C strings into a malloc'd C array.
func cStringArray(s []*C.char) **C.char {
	size := C.size_t(len(s)+1) * C.size_t(unsafe.Sizeof((*C.char)(nil)))
	p := (**C.char)(C.malloc(size))
	arr := unsafe.Slice(p, len(s)+1)
	copy(arr, s)
	arr[len(s)] = nil
	return p
}

// Close deletes the Z3 context and everything created in it. Values of the
// context become inert: their methods return ErrClosed or zero values.
// Close waits for a running operation (such as Check) to finish; use
// Interrupt first to stop it early. Close is idempotent.
func (ctx *Context) Close() {
	ctx.mu.Lock()
	defer ctx.mu.Unlock()
	if ctx.c == nil {
		return
	}
	ctx.cleanup.Stop()
	// the references handles still hold, released first: deleting the
	// context is then cheaper (releaseQueue)
	refs := ctx.q.drain()
	ctx.cmu.Lock()
	c := ctx.c
	ctx.c = nil
	ctx.cmu.Unlock()
	if len(refs) > 0 {
		C.lz_release(c, &refs[0], C.int(len(refs)))
	}
	C.Z3_del_context(c)
}

// Interrupt asks Z3 to stop the operation currently running in the context
// (Z3_interrupt); the interrupted Check returns Unknown with reason
// "canceled". It does not wait for the context lock and is a no-op on a
// closed context.
func (ctx *Context) Interrupt() {
	ctx.cmu.Lock()
	defer ctx.cmu.Unlock()
	if ctx.c != nil {
		C.Z3_interrupt(ctx.c)
	}
}

// lock takes the context lock, fails with ErrClosed on a closed context, and
// releases references queued by cleanups. On success the caller must call
// ctx.mu.Unlock.
func (ctx *Context) lock() (C.Z3_context, error) {
	if ctx == nil {
		return nil, ErrClosed
	}
	ctx.mu.Lock()
	if ctx.c == nil {
		ctx.mu.Unlock()
		return nil, ErrClosed
	}
	if refs := ctx.q.take(); len(refs) > 0 {
		C.lz_release(ctx.c, &refs[0], C.int(len(refs)))
	}
	return ctx.c, nil
}

// handle owns one Z3 reference to an AST-like object (AST, sort, function
// declaration, pattern). A cleanup queues the dec_ref on its context.
type handle struct {
	ctx *Context
	p   C.Z3_ast
}

type relArg struct {
	q    *releaseQueue
	kind C.int
	p    unsafe.Pointer
}

func releaseRef(a relArg) { a.q.add(a.kind, a.p) }

// wrap takes ownership of an inc_ref'd AST-like pointer. Called with the
// context lock held.
func (ctx *Context) wrap(p unsafe.Pointer) *handle {
	h := &handle{ctx: ctx, p: C.Z3_ast(p)}
	ctx.q.hold(p)
	runtime.AddCleanup(h, releaseRef, relArg{q: ctx.q, kind: C.LZ_REF_AST, p: p})
	return h
}

// checkHandle validates that h is non-nil and belongs to ctx.
func (ctx *Context) checkHandle(op, what string, h *handle) error {
	if h == nil {
		return usageErr(op, "zero %s", what)
	}
	if h.ctx != ctx {
		return usageErr(op, "%s belongs to a different context", what)
	}
	return nil
}

// result turns a shim lz_ptr holding an AST-like object into a handle.
func (ctx *Context) result(op string, r C.lz_ptr) (*handle, error) {
	if err := shimErr(op, r.err, r.msg); err != nil {
		return nil, err
	}
	if r.p == nil {
		return nil, nil
	}
	return ctx.wrap(r.p), nil
}

// goString converts a shim lz_str, freeing its memory.
func goString(op string, r C.lz_str) (string, error) {
	if err := shimErr(op, r.err, r.msg); err != nil {
		return "", err
	}
	if r.s == nil {
		return "", nil
	}
	s := C.GoString(r.s)
	C.free(unsafe.Pointer(r.s))
	return s, nil
}

// withCStrings runs f with C copies of the given strings.
func withCString(s string, f func(*C.char)) {
	cs := C.CString(s)
	defer C.free(unsafe.Pointer(cs))
	f(cs)
}
