package testbuild

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sync"
	"testing"
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
			if err := As(filepath.Join(dir, out), pkg); err != nil {
				mu.Lock()
				if firstErr == nil {
					firstErr = err
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

// Packages builds the packages pkgs (import paths relative to the
// repository root, like "./internal/testbots/hang") into dir, each under
// its own directory's name.
func Packages(dir string, pkgs ...string) error {
	cmd := exec.Command("go", append([]string{"build", "-o", dir + string(filepath.Separator)}, pkgs...)...)
	cmd.Dir = Root()
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("go build %v: %w\n%s", pkgs, err, out)
	}
	return nil
}

// As builds the package pkg (relative to the repository root) as the
// executable out.
func As(out, pkg string) error {
	cmd := exec.Command("go", "build", "-o", out, pkg)
	cmd.Dir = Root()
	if b, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("go build %s as %s: %w\n%s", pkg, filepath.Base(out), err, b)
	}
	return nil
}

// Main is the body of a TestMain whose tests need built binaries: it makes
// a temporary directory named after prefix, stores its path in *dir, calls
// build with it, runs the tests when build succeeds, removes the directory
// and exits with the tests' code (1 when the build failed).
func Main(m *testing.M, prefix string, dir *string, build func(dir string) error) {
	d, err := os.MkdirTemp("", prefix)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	*dir = d
	code := 1
	if err := build(d); err != nil {
		fmt.Fprintln(os.Stderr, err)
	} else {
		code = m.Run()
	}
	os.RemoveAll(d)
	os.Exit(code)
}

// ShortTemp returns a fresh directory with a short path (unix socket
// paths have little room), removed at the end of the test.
func ShortTemp(t testing.TB) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "kr")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	return dir
}

// PluginBots is Build for the tests of the hosts that start plugin bots
// (host/pluginbot, host/registry): it builds into dir what Build builds,
// plus the sleeper test bot (one that never completes the plugin
// handshake) as broken/kinrow-bot-zzz under dir, kept apart so that only
// the tests that look there find it. (Those tests point procrun.BoxEnv at
// the kinrow-box in dir, where kinrow would find its sandbox's init: a test
// binary has none beside it.)
func PluginBots(dir, broken string, testBots ...string) error {
	if err := Build(dir, testBots...); err != nil {
		return err
	}
	return As(filepath.Join(dir, broken, "kinrow-bot-zzz"), "./internal/testbots/sleeper")
}
