package registry

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/kinrow/kinrow/engine"
	"github.com/kinrow/kinrow/host/botpath"
	"github.com/kinrow/kinrow/host/enginebot"
)

// Engine manifests sit beside plugins: listed (broken ones with their
// reason), described, loaded, chosen as default for exactly their rules.
func TestLoaderWithManifests(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		// A "brain" that reads and ignores everything: enough to load.
		"quiet.engine.toml": "command = [\"sh\", \"-c\", \"exec cat >/dev/null\"]\nprotocol = \"gomocup\"\nrules = [\"gomoku\"]\nstrength = 1000\n",
		"nocmd.engine.toml": "protocol = \"gomocup\"\nrules = [\"gomoku\"]\n",
		"proto.engine.toml": "command = [\"sh\"]\nprotocol = \"uci\"\nrules = [\"gomoku\"]\n",
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	l, err := New(Config{Finder: botpath.Finder{Dirs: []string{dir, binDir}}})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	ctx := context.Background()
	names := strings.Join(l.Names(), "\n")
	for _, want := range []string{"\nquiet\n", "nocmd (broken: manifest " + filepath.Join(dir, "nocmd.engine.toml") + ": command: missing", `proto (broken: manifest`, `unknown protocol "uci"`, "\nrandom"} {
		if !strings.Contains("\n"+names+"\n", want) {
			t.Errorf("Names lacks %q:\n%s", want, names)
		}
	}
	if info, err := l.Info(ctx, "quiet"); err != nil || info.Strength != 1000 || info.Kinds[0] != "mnk" || info.MaxRows != 15 {
		t.Errorf("Info(quiet) = %+v, %v", info, err)
	}
	for _, name := range []string{"nocmd", "proto"} {
		want := map[string]string{"nocmd": "command: missing", "proto": `unknown protocol "uci"`}[name]
		if _, err := l.Info(ctx, name); err == nil || !strings.Contains(err.Error(), "engine "+name+" is broken") || !strings.Contains(err.Error(), want) {
			t.Errorf("Info(%s) error = %v", name, err)
		}
		if _, err := l.Load(ctx, name, name, nil); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Load(%s) error = %v", name, err)
		}
	}
	if _, err := l.Start(ctx, "quiet", "quiet", nil); err == nil || !strings.Contains(err.Error(), "not a plugin bot") {
		t.Errorf("Start(quiet) = %v; want refused", err)
	}
	gomoku, _ := engine.ParseRules("gomoku")
	big, _ := engine.ParseRules("mnk:20x20x5")
	if err := l.CheckPlays(ctx, "quiet", gomoku); err != nil {
		t.Errorf("CheckPlays(quiet, gomoku) = %v", err)
	}
	if err := l.CheckPlays(ctx, "quiet", big); err == nil || !strings.Contains(err.Error(), "quiet does not play mnk:20x20x5 (it plays mnk:15x15x5") {
		t.Errorf("CheckPlays(quiet, 20x20) = %v", err)
	}
	if err := l.CheckPlays(ctx, "random", engine.Connect4()); err != nil {
		t.Errorf("CheckPlays(random, connect4) = %v", err)
	}
	if d, err := l.Default(ctx, gomoku); err != nil || d != "quiet" {
		t.Errorf("Default(gomoku) = %q, %v; want the strong engine", d, err)
	}
	if d, err := l.Default(ctx, big); err != nil || d == "quiet" {
		t.Errorf("Default(mnk:20x20x5) = %q, %v; the engine does not list it", d, err)
	}
	// A loaded engine the caller never closes is stopped by the loader.
	p, err := l.Load(ctx, "quiet", "quiet#2", map[string]string{"game_type": "1"})
	if err != nil {
		t.Fatal(err)
	}
	eng := p.(*enginebot.Engine)
	if p.Name() != "quiet#2" || !alive(eng.PID()) {
		t.Fatalf("loaded %q, alive %v", p.Name(), alive(eng.PID()))
	}
	if _, err := l.Load(ctx, "quiet", "quiet", map[string]string{"rule": "4"}); err == nil || !strings.Contains(err.Error(), "the host sets INFO rule itself") {
		t.Errorf("Load with option rule: %v", err)
	}
	l.Close()
	deadline := time.Now().Add(2 * time.Second)
	for alive(eng.PID()) && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if alive(eng.PID()) {
		t.Errorf("engine %d still runs after the loader's Close", eng.PID())
	}
}
