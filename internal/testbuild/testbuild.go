package testbuild

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sync"
)

// Root returns the repository root (where go.mod is).
func Root() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..")
}

// Bots lists the bots under bots/ (directories with a main.go).
func Bots() []string {
	files, _ := filepath.Glob(filepath.Join(Root(), "bots", "*", "main.go"))
	var names []string
	for _, f := range files {
		names = append(names, filepath.Base(filepath.Dir(f)))
	}
	return names
}

// Build builds bin/kinrow's equivalent (with kinrow-box, its sandbox's
// init, beside it) and every bot into dir, plus the
// named test bots from internal/testbots (as kinrow-bot-NAME).
func Build(dir string, testBots ...string) error {
	root := Root()
	targets := map[string]string{"kinrow": "./cmd/kinrow", "kinrow-box": "./cmd/kinrow-box"}
	for _, b := range Bots() {
		targets["kinrow-bot-"+b] = "./bots/" + b
	}
	for _, b := range testBots {
		targets["kinrow-bot-"+b] = "./internal/testbots/" + b
	}
	var wg sync.WaitGroup
	var mu sync.Mutex
	var firstErr error
	sem := make(chan struct{}, 2)
	for out, pkg := range targets {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			cmd := exec.Command("go", "build", "-o", filepath.Join(dir, out), pkg)
			cmd.Dir = root
			if b, err := cmd.CombinedOutput(); err != nil {
				mu.Lock()
				if firstErr == nil {
					firstErr = fmt.Errorf("go build %s: %w\n%s", pkg, err, b)
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	return firstErr
}

// Chromium returns the path of a headless-capable Chromium for the
// browser tests: $KINROW_CHROMIUM, else the first of Debian's and
// Google's names on PATH; false when there is none (the tests skip).
func Chromium() (string, bool) {
	if p := os.Getenv("KINROW_CHROMIUM"); p != "" {
		return p, true
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "headless-shell"} {
		if p, err := exec.LookPath(name); err == nil {
			return p, true
		}
	}
	return "", false
}
