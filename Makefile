# kinrow: `make` builds everything into bin/, `make run` starts the host,
# `make test` runs every test. See README.md.
GO      ?= go
BIN     := bin
# Every directory bots/NAME with a main.go is a bot, built as bin/kinrow-bot-NAME.
BOTS    := $(patsubst bots/%/main.go,%,$(wildcard bots/*/main.go))
BOT_BINS := $(addprefix $(BIN)/kinrow-bot-,$(BOTS))
PBRAIN_BINS := $(BIN)/pbrain-kinrow $(addprefix $(BIN)/pbrain-kinrow-,$(BOTS))
# A package's limit: cmd/kinrow took 879 s of 900 at load 15-20 on 2 cores (5 min idle).
TEST_TIMEOUT ?= 25m

.PHONY: book test-race test-rapfi all build run test test-long test-slurm test-browser screenshots chromium bench fuzz generate vet clean $(BIN)/kinrow $(BIN)/kinrow-box $(BOT_BINS) $(BIN)/pbrain-kinrow java java-skip java-course cross soak test-wine c4solver

# The Java bridge (docs/BOTS.md, "Course players in Java"): built when javac
# is installed (JDK 17 or later; .ci/run installs Debian's
# default-jdk-headless where it is missing), skipped with a note otherwise.
JAVAC   ?= javac
JAR     ?= jar
JAVA_BRIDGE_SRC := $(wildcard java/bridge/kinrow/bridge/*.java)
HAVE_JAVAC := $(shell command -v $(JAVAC) 2>/dev/null)
# Where make java-course puts kinrow's course players (FRAMEWORK=DIR: the
# course's compiled classes).
COURSE_CLASSES ?= $(BIN)/course-classes
COURSE_SRC := java/course/kinrow/course

all: build

build: $(if $(wildcard cmd/kinrow),$(BIN)/kinrow) $(BIN)/kinrow-box $(BOT_BINS) $(PBRAIN_BINS) java

$(BIN)/kinrow:
	$(GO) build -o $@ ./cmd/kinrow

# The first process of each bot's sandbox (host/procrun/boxinit), found
# beside kinrow: it starts in a millisecond, kinrow re-executed in several.
$(BIN)/kinrow-box:
	$(GO) build -o $@ ./cmd/kinrow-box

$(BOT_BINS): $(BIN)/kinrow-bot-%:
	$(GO) build -o $@ ./bots/$*

# Gomocup brains: copies of kinrow, which, named pbrain-kinrow, is a brain
# playing the default bot, and named pbrain-kinrow-NAME plays bot NAME
# (managers look for pbrain-* files).
$(BIN)/pbrain-kinrow: $(BIN)/kinrow
	cp -f $< $@

$(BIN)/pbrain-kinrow-%: $(BIN)/kinrow
	cp -f $< $@

java: $(if $(HAVE_JAVAC),$(BIN)/kinrow-java.jar,java-skip)

java-skip:
	@echo "javac not found: skipped $(BIN)/kinrow-java.jar, the Java bridge (install a JDK 17 or later, e.g. apt-get install default-jdk-headless)"

$(BIN)/kinrow-java.jar: $(JAVA_BRIDGE_SRC)
	@mkdir -p $(BIN)
	rm -rf $@.classes && mkdir -p $@.classes
	$(JAVAC) --release 17 -encoding UTF-8 -Xlint:all -d $@.classes $^
	$(JAR) --create --file $@ --main-class kinrow.bridge.Main -C $@.classes .
	rm -rf $@.classes

# kinrow's players for the course's referees, compiled against the user's
# framework: KinrowCXPlayer when FRAMEWORK has connectx, KinrowMNKPlayer when
# it has mnkgame (both for a jar).
java-course:
	@test -n "$(FRAMEWORK)" || { echo "usage: make java-course FRAMEWORK=DIR (the course's compiled classes, with connectx/ or mnkgame/)"; exit 2; }
	@command -v $(JAVAC) >/dev/null || { echo "javac not found: install a JDK 17 or later (apt-get install default-jdk-headless)"; exit 1; }
	@srcs="$(COURSE_SRC)/KinrowProcess.java"; \
	if [ ! -d "$(FRAMEWORK)" ] || [ -e "$(FRAMEWORK)/connectx/CXPlayer.class" ] || [ -e "$(FRAMEWORK)/connectx/CXPlayer.java" ]; then srcs="$$srcs $(COURSE_SRC)/KinrowCXPlayer.java"; fi; \
	if [ ! -d "$(FRAMEWORK)" ] || [ -e "$(FRAMEWORK)/mnkgame/MNKPlayer.class" ] || [ -e "$(FRAMEWORK)/mnkgame/MNKPlayer.java" ]; then srcs="$$srcs $(COURSE_SRC)/KinrowMNKPlayer.java"; fi; \
	case "$$srcs" in *Player.java*) ;; *) echo "$(FRAMEWORK) has neither connectx/CXPlayer nor mnkgame/MNKPlayer: want the course's compiled classes"; exit 1;; esac; \
	mkdir -p "$(COURSE_CLASSES)" && \
	echo "$(JAVAC) --release 17 -implicit:none -cp $(FRAMEWORK) -d $(COURSE_CLASSES) $$srcs" && \
	$(JAVAC) --release 17 -encoding UTF-8 -implicit:none -cp "$(FRAMEWORK)" -d "$(COURSE_CLASSES)" $$srcs

# The 6x7 opening book shipped inside the alphabeta bot (embedded: the bot's
# sandbox sees no file beside it), rebuilt by kinrow book build: a strategy
# book, the first player's winning moves against every reply up to
# BOOK_PLIES stones and the second player's moves against every first move
# up to BOOK_O_PLIES; resumable (its journal). The book it replaces decides
# what it holds without solving (BOOK_KNOWN, so a deeper book costs only
# its new plies; BOOK_KNOWN= rebuilds from nothing). Its size and build
# time: docs/PERFORMANCE.md, "The opening book".
BOOK_PLIES   ?= 12
BOOK_O_PLIES ?= 11
BOOK_JOBS    ?= 2
BOOK_FILE    := bots/alphabeta/book/books/connectx-6x7x4.book
BOOK_KNOWN   ?= $(BOOK_FILE)
book: $(BIN)/kinrow
	nice -n 5 $(BIN)/kinrow book build --rules connect4 --strategy both --plies $(BOOK_PLIES) --o-plies $(BOOK_O_PLIES) --jobs $(BOOK_JOBS) $(if $(BOOK_KNOWN),--known $(BOOK_KNOWN)) --out $(BOOK_FILE)
	$(GO) build -o $(BIN)/kinrow-bot-alphabeta ./bots/alphabeta

# The host on stdin/stdout, Connect-4, with the strongest installed bot as the default.
run: build
	$(BIN)/kinrow --rules connect4

# Every test, quick enough for CI (long checks: make test-long; figures: make bench).
# The end-to-end packages (real processes on 100 ms clocks) run after the
# others, one at a time, so the unit tests' CPU load does not eat their
# deadlines on a 2-core machine.
E2E_PKGS := ./cmd/kinrow ./scripts
test: build vet
	$(GO) test -timeout $(TEST_TIMEOUT) -count=1 $$($(GO) list ./... | grep -v -e '/cmd/kinrow$$' -e '/scripts$$')
	$(GO) test -timeout $(TEST_TIMEOUT) -count=1 -p 1 $(E2E_PKGS)

# The race detector on the packages whose goroutines share state: the
# referee and its mailboxes, the match workers, solve's scheduler, the
# front ends, the plugin glue, the SDK and the solver's threads.
RACE_PKGS := ./host/referee/... ./host/match ./host/solve ./host/gtpfront ./host/pbrain ./protocol/botapi ./protocol/sdk ./bots/alphabeta/solver
test-race:
	$(GO) test -race -short -count=1 -timeout $(TEST_TIMEOUT) $(RACE_PKGS)

vet:
	$(GO) vet ./...
	@test -z "$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go'))" || { echo "gofmt needed:"; gofmt -l .; exit 1; }

# The viewer's browser tests (host/view) in headless Chromium, installed
# from Debian if missing (they skip without it under make test).
chromium:
	@command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1 || \
	  { echo "installing Debian's chromium for the browser tests"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; }

test-browser: chromium
	$(GO) test -count=1 -run Browser -v ./host/view/

# Rewrites the screenshots the README shows (docs/viewer-*.png).
screenshots: chromium
	KINROW_SCREENSHOTS=$(CURDIR)/docs $(GO) test -count=1 -run BrowserReplay ./host/view/

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

# Opt-in, for benchmarks only (docs/PERFORMANCE.md, "Solving Connect-4"):
# Pascal Pons' Connect-4 solver, the anchor of scripts/solve-bench.sh,
# cloned (unless C4SOLVER_DIR already holds its sources) and built with its
# own Makefile in C4SOLVER_DIR, outside the repository. It is a third-party
# program, never part of make, make test or kinrow's sources.
C4SOLVER_DIR ?= ../scratch/connect4
C4SOLVER_REPO ?= https://github.com/PascalPons/connect4
c4solver:
	@test -f $(C4SOLVER_DIR)/Solver.cpp || git clone --depth 1 $(C4SOLVER_REPO) $(C4SOLVER_DIR)
	$(MAKE) -C $(C4SOLVER_DIR) c4solver
	@echo "Pons' solver: $(abspath $(C4SOLVER_DIR))/c4solver (scripts/solve-bench.sh: C4SOLVER=that path)"

# kinrow and every bot for the other platforms, into bin/cross/GOOS-GOARCH/
# (pbrain-kinrow[-NAME] copies beside them, .exe on Windows): Gomocup's
# managers run pbrain-*.exe files; every package and its tests are vetted
# for each platform too. CI runs it; the build cache keeps it fast.
CROSS ?= windows/amd64 darwin/arm64 linux/arm64
cross:
	@set -e; for t in $(CROSS); do \
	  os=$${t%/*}; arch=$${t#*/}; dir=$(BIN)/cross/$$os-$$arch; ext=; \
	  [ $$os = windows ] && ext=.exe; mkdir -p $$dir; \
	  echo "cross: $$os/$$arch → $$dir"; \
	  GOOS=$$os GOARCH=$$arch CGO_ENABLED=0 $(GO) build -o $$dir/kinrow$$ext ./cmd/kinrow; \
	  if [ $$os = linux ]; then GOOS=$$os GOARCH=$$arch CGO_ENABLED=0 $(GO) build -o $$dir/kinrow-box ./cmd/kinrow-box; fi; \
	  cp -f $$dir/kinrow$$ext $$dir/pbrain-kinrow$$ext; \
	  for b in $(BOTS); do \
	    GOOS=$$os GOARCH=$$arch CGO_ENABLED=0 $(GO) build -o $$dir/kinrow-bot-$$b$$ext ./bots/$$b; \
	    cp -f $$dir/kinrow$$ext $$dir/pbrain-kinrow-$$b$$ext; \
	  done; \
	  GOOS=$$os GOARCH=$$arch CGO_ENABLED=0 $(GO) build ./...; \
	  GOOS=$$os GOARCH=$$arch CGO_ENABLED=0 $(GO) vet ./...; \
	done

# The reliability soak (docs/RELIABILITY.md): SOAK_GAMES games at 50 ms a
# move, concurrency 2, every misbehaving test bot in a gauntlet against
# random, with the host's fds, threads, RSS, goroutines, processes and socket
# directories before and after. Not part of make test.
SOAK_GAMES ?= 10000
soak: build
	KINROW_SOAK=$(SOAK_GAMES) $(GO) test -timeout 0 -count=1 -run '^TestSoak$$' -v ./cmd/kinrow/

# Opt-in: Debian's wine64 runs the Windows pbrain-kinrow.exe through a
# Gomocup session of one game, with the Windows bots beside it. Wine before
# 9 lacks bcryptprimitives.dll, which Go's Windows runtime needs: a
# stand-in (cmd/kinrow/testdata/wine/bcryptprimitives.c, built with
# Debian's mingw-w64) goes into the test's wine prefix.
MINGW_CC ?= x86_64-w64-mingw32-gcc
WINE_STUB := $(BIN)/cross/windows-amd64/bcryptprimitives.dll
test-wine: cross
	@command -v wine64 >/dev/null 2>&1 || test -x /usr/lib/wine/wine64 || command -v wine >/dev/null 2>&1 || \
	  { echo "installing Debian's wine64"; apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends wine64 >/dev/null; }
	@command -v $(MINGW_CC) >/dev/null 2>&1 || \
	  { echo "installing Debian's mingw-w64 for the stand-in bcryptprimitives.dll"; apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends gcc-mingw-w64-x86-64 >/dev/null; }
	$(MINGW_CC) -shared -O2 -o $(WINE_STUB) cmd/kinrow/testdata/wine/bcryptprimitives.c -ladvapi32
	KINROW_WINE=$(CURDIR)/$(BIN)/cross/windows-amd64 $(GO) test -count=1 -run '^TestWine' -v ./cmd/kinrow/

# Opt-in: Rapfi (built from dhbloo/rapfi outside the project; RAPFI=DIR
# holds rapfi.engine.toml beside pbrain-rapfi, its config and weights)
# plays a match under the sandbox (docs/RELIABILITY.md).
test-rapfi: build
	@test -n "$(RAPFI)" || { echo "usage: make test-rapfi RAPFI=DIR (rapfi.engine.toml, pbrain-rapfi, config.toml and weights)"; exit 2; }
	KINROW_RAPFI=$(abspath $(RAPFI)) $(GO) test -count=1 -run '^TestRapfiInSandbox$$' -v ./cmd/kinrow/

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
