package registry

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kinrow/kinrow/host/botpath"
	"github.com/kinrow/kinrow/host/procrun"
)

// Issue 35: the records being written (Config.Deny) are not in any
// engine's box, nor is a directory holding them: an engine whose manifest
// directory holds them is refused at its start, before its process runs,
// and Box says so; a plugin's box is described with its socket directory.
func TestBoxAndDeny(t *testing.T) {
	dir := t.TempDir()
	records := filepath.Join(dir, "games.jsonl")
	if err := os.WriteFile(filepath.Join(dir, "quiet.engine.toml"), []byte("command = [\"sh\", \"-c\", \"exec cat >/dev/null\"]\nprotocol = \"gomocup\"\nrules = [\"gomoku\"]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	l, err := New(Config{Finder: botpath.Finder{Dirs: []string{dir, binDir}}, Deny: []string{records}})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	b, err := l.Box("quiet")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := b.View(); err == nil || !strings.Contains(err.Error(), "it holds "+records+", a file the host writes") {
		t.Errorf("Box(quiet).View: %v, want the records refused", err)
	}
	p, err := l.Box("random")
	if err != nil {
		t.Fatal(err)
	}
	v, err := p.View()
	if err != nil || !strings.Contains(v.String(), filepath.Join(binDir, "kinrow-bot-random")+"  read-only") ||
		!strings.Contains(v.String(), filepath.Join(l.SocketDir(), "plugin-dir*")+"  writable") {
		t.Errorf("Box(random).View = %s, %v", v, err)
	}
	if len(procrun.SandboxDetect().Parts) == 0 {
		t.Skip("no sandbox here: nothing is bound, nothing refused at the start")
	}
	if _, err := l.Load(context.Background(), "quiet", "quiet", nil); err == nil || !strings.Contains(err.Error(), "a file the host writes (the records of this run)") {
		t.Errorf("Load(quiet) with its records in its directory: %v, want refused", err)
	}
}
