# kinrow: `make` builds everything into bin/, `make run` starts the host,
# `make test` runs every test. See README.md.
GO      ?= go
BIN     := bin
# Every directory bots/NAME with a main.go is a bot, built as bin/kinrow-bot-NAME.
BOTS    := $(patsubst bots/%/main.go,%,$(wildcard bots/*/main.go))
BOT_BINS := $(addprefix $(BIN)/kinrow-bot-,$(BOTS))
PBRAIN_BINS := $(BIN)/pbrain-kinrow $(addprefix $(BIN)/pbrain-kinrow-,$(BOTS))
TEST_TIMEOUT ?= 15m

.PHONY: all build run test test-long test-slurm bench fuzz generate vet clean $(BIN)/kinrow $(BOT_BINS) $(BIN)/pbrain-kinrow

all: build

build: $(if $(wildcard cmd/kinrow),$(BIN)/kinrow) $(BOT_BINS) $(PBRAIN_BINS)

$(BIN)/kinrow:
	$(GO) build -o $@ ./cmd/kinrow

$(BOT_BINS): $(BIN)/kinrow-bot-%:
	$(GO) build -o $@ ./bots/$*

# Gomocup brains: copies of kinrow, which, named pbrain-kinrow, is a brain
# playing the default bot, and named pbrain-kinrow-NAME plays bot NAME
# (managers look for pbrain-* files).
$(BIN)/pbrain-kinrow: $(BIN)/kinrow
	cp -f $< $@

$(BIN)/pbrain-kinrow-%: $(BIN)/kinrow
	cp -f $< $@

# The host on stdin/stdout, Connect-4, with the strongest installed bot as the default.
run: build
	$(BIN)/kinrow --rules connect4

# Every test, quick enough for CI (long checks: make test-long; figures: make bench).
test: build vet
	$(GO) test -timeout $(TEST_TIMEOUT) -count=1 ./...

vet:
	$(GO) vet ./...
	@test -z "$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go'))" || { echo "gofmt needed:"; gofmt -l .; exit 1; }

# Long correctness runs against the shared Connect-4 sets.
test-long: build
	KINROW_LONG=1 $(GO) test -timeout 90m -count=1 ./...

# Opt-in: a single-node Slurm (munge, slurmctld, slurmd; state in a temporary
# directory) plays a job array of match shards, merged and checked (docs/SCALE.md).
test-slurm: build
	bash scripts/test-slurm.sh

# Benchmarks behind docs/PERFORMANCE.md.
bench: build
	$(GO) test -run '^$$' -bench . -benchmem -count 5 ./... | tee bench.txt

# A short run of every fuzz target.
fuzz:
	@for pkg in $$($(GO) list ./...); do \
	  for f in $$($(GO) test -list '^Fuzz' $$pkg | grep '^Fuzz'); do \
	    echo "== $$pkg $$f"; $(GO) test -run '^$$' -fuzz "^$$f$$" -fuzztime 15s $$pkg || exit 1; \
	  done; \
	done

# Regenerates the committed protobuf code (installs protoc-gen-go if missing).
generate:
	$(GO) generate ./protocol/botpb/

clean:
	rm -rf $(BIN) bench.txt
