package enginebot

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/kinrow/kinrow/host/manifest"
)

// Issue 35: a directory or a file an engine's command names as an
// argument (--cache=/tmp, a host file) was bound into its box silently.
// Now the box gets the manifest's directory, the program's and the read
// list only; an argument's path outside the manifest's directory is not
// bound and is listed (OutsidePaths) for the start-up warning, unless read
// lists it.
func TestSandboxBindsNoArgumentPaths(t *testing.T) {
	base := t.TempDir()
	dir, outside, listedDir := filepath.Join(base, "bot"), filepath.Join(base, "host"), filepath.Join(base, "books")
	for _, d := range []string{filepath.Join(dir, "weights"), outside, listedDir} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{filepath.Join(outside, "secret"), filepath.Join(outside, "lib.jar"), filepath.Join(listedDir, "book"), filepath.Join(dir, "a.jar")} {
		if err := os.WriteFile(f, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(outside, filepath.Join(dir, "ext")); err != nil {
		t.Fatal(err)
	}
	m := &manifest.Manifest{Name: "e", Dir: dir, Read: []string{listedDir}}
	argv := []string{filepath.Join(dir, "engine"), "--cache=/tmp", "weights", "--config=" + filepath.Join(outside, "secret"),
		"-cp", "a.jar:" + filepath.Join(outside, "lib.jar"), "ext/secret", "/usr/bin", "--book=" + filepath.Join(listedDir, "book"), outside}
	sb := Sandbox(m, argv, Config{Deny: []string{"/records.jsonl"}})
	if want := []string{dir, listedDir}; !slices.Equal(sb.Read, want) {
		t.Errorf("Read = %q, want %q (no argument's path)", sb.Read, want)
	}
	if sb.WorkDir != dir || !slices.Equal(sb.Deny, []string{"/records.jsonl"}) {
		t.Errorf("WorkDir %q, Deny %q", sb.WorkDir, sb.Deny)
	}
	want := []string{"/tmp", filepath.Join(outside, "secret"), filepath.Join(outside, "lib.jar"), filepath.Join(dir, "ext", "secret"), outside}
	if got := OutsidePaths(m, argv); !slices.Equal(got, want) {
		t.Errorf("OutsidePaths = %q, want %q", got, want)
	}
}
