# ladder — make targets. `make prove` and `make test` install what is missing.

GO      ?= go
BIN     := bin/ladder
SUDO    := $(shell [ "$$(id -u)" = "0" ] || echo sudo)
FUZZTIME ?= 5s
FUZZLONG ?= 5m

.PHONY: all deps test-deps bench-deps build test test-long vet lint race fmt-check fuzz fuzz-long prove audit bench clean

all: build

# deps installs the system packages building and proving need when they are
# missing: libz3-dev and g++ (the cgo binding and its C++ shim) and graphviz
# (ladder graph --format svg and the drawing in the HTML report).
deps:
	@missing=""; \
	[ -f /usr/include/z3.h ] || missing="$$missing libz3-dev"; \
	command -v g++ >/dev/null 2>&1 || missing="$$missing g++"; \
	command -v dot >/dev/null 2>&1 || missing="$$missing graphviz"; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  $(SUDO) apt-get update -qq && $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing; \
	fi

# test-deps installs what make test needs beyond deps when it is missing: z3
# (the command line, for the .smt2 cross-check and ladder audit), cvc5 (the
# second solver of ladder audit), chromium (the HTML report
# is loaded in headless Chromium) and nginx (the remote-cache client is
# tested against a real nginx with WebDAV, started on 127.0.0.1 by the test;
# Debian's package may also start a system nginx on port 80, which the test
# does not use).
test-deps: deps
	@missing=""; \
	command -v z3 >/dev/null 2>&1 || missing="$$missing z3"; \
	command -v chromium >/dev/null 2>&1 || missing="$$missing chromium"; \
	command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ] || missing="$$missing nginx"; \
	command -v cvc5 >/dev/null 2>&1 || missing="$$missing cvc5"; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  $(SUDO) apt-get update -qq && $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing; \
	fi

# bench-deps installs what make bench needs beyond deps when it is missing:
# spin (SPIN, compared with ladder's explorer by scripts/bench-spin.sh; its
# pan verifiers are compiled with the C compiler deps installs) and time
# (/usr/bin/time, for the peak memory of each run).
bench-deps:
	@missing=""; \
	command -v spin >/dev/null 2>&1 || missing="$$missing spin"; \
	[ -x /usr/bin/time ] || missing="$$missing time"; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  $(SUDO) apt-get update -qq && $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing; \
	fi

build: deps
	$(GO) build -trimpath -o $(BIN) ./cmd/ladder

fmt-check:
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi

vet:
	$(GO) vet ./...

# lint runs staticcheck (from the module proxy, at a fixed version).
STATICCHECK ?= honnef.co/go/tools/cmd/staticcheck@v0.8.2
lint:
	$(GO) run $(STATICCHECK) ./...

# race runs the tests of the packages that run workers, and of the loader,
# which parses files in parallel, under the race detector (short mode: the
# solver-heavy cases are left to the plain run).
race:
	$(GO) test -race -short -count=1 ./internal/explore ./internal/driver ./internal/cache ./internal/crosscheck ./ioa/load

# test runs formatting, vet and staticcheck, every Go test (among them the
# hostile-input suite, cmd/ladder/hostile_test.go: special files, absurd
# bounds and flags, exhausted memory and time, cache faults, each with a
# deadline; and the remote-cache test against nginx, which fails rather than
# skips when nginx is missing, LADDER_REQUIRE_NGINX=1), the worker packages
# under the race detector, and each fuzz target briefly.
test: test-deps fmt-check vet lint
	LADDER_REQUIRE_NGINX=1 LADDER_REQUIRE_AUDIT=1 $(GO) test -count=1 ./...
	@$(MAKE) --no-print-directory race
	@$(MAKE) --no-print-directory fuzz FUZZTIME=$(FUZZTIME)

# fuzz runs every fuzz target for FUZZTIME each.
fuzz:
	./scripts/fuzz.sh $(FUZZTIME)

# fuzz-long runs every fuzz target for minutes each (FUZZLONG, default 5m).
fuzz-long:
	./scripts/fuzz.sh $(FUZZLONG)

# prove checks, explores, cross-checks and proves everything shipped in the
# repository, and writes the HTML report of the repository to bin/report/.
prove: build
	./$(BIN) check
	./$(BIN) check docs/examples
	./scripts/explore-all.sh ./$(BIN)
	./scripts/crosscheck-all.sh ./$(BIN)
	./$(BIN) prove --html bin/report
	./$(BIN) prove docs/examples

# audit re-checks every proved obligation of the repository with the z3
# command line and cvc5 (ladder audit; docs/prove.md), after proving what
# the cache does not hold.
audit: build test-deps
	./$(BIN) audit

# test-long runs the tests that take minutes: the inference test (TMS2 and
# NOrec inferred from scratch, the NOrec edge proved with the inferred
# invariants). make bench runs it too.
test-long: build
	LADDER_LONG_TESTS=1 $(GO) test -count=1 -timeout 30m -run 'TestInferNOrecTMS2' ./internal/infer

# bench runs the Go benchmarks once each, then the prover benchmark over the
# repository's proofs (cold, warm, after an edit), which prints one JSON line,
# then the comparison of the explorer with SPIN on TMS2
# (scripts/bench-spin.sh), which prints one JSON line per instance.
bench: build bench-deps
	$(GO) test -run='^$$' -bench=. -benchtime=1x ./...
	./scripts/bench.sh ./$(BIN)
	@$(MAKE) --no-print-directory test-long

clean:
	rm -rf bin .ladder
