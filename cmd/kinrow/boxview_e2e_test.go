//go:build linux

package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// hostSecret is a file in the system's temporary directory, readable by
// every uid (so only the sandbox's mount namespace keeps a bot from it),
// and its content.
func hostSecret(t *testing.T) (dir, file, content string) {
	t.Helper()
	dir, err := os.MkdirTemp("", "kinrow-boxview-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	content = "host-secret-" + token(t)
	file = filepath.Join(dir, "secret.txt")
	if err := os.WriteFile(file, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir, file, content
}

// intruderManifest is a bot directory holding intruderengine.engine.toml
// with args after the program and extra lines.
func intruderManifest(t *testing.T, extra string, args ...string) string {
	t.Helper()
	exe, err := intruderEngine()
	if err != nil {
		t.Fatal(err)
	}
	argv := fmt.Sprintf("%q", exe)
	for _, a := range args {
		argv += fmt.Sprintf(", %q", a)
	}
	return manifests(t, map[string]string{"intruderengine": "command = [" + argv + "]\nprotocol = \"kinrow\"\nrules = [\"tictactoe\"]\n" + extra})
}

// Issue 35: a directory (--cache=/tmp) or a file an engine's command names
// as an argument was bound into its box silently: the intruder read a host
// file it was given, or one in the directory it was given. Now only the
// manifest's directory and its read list are bound; the host logs which
// argument path is not, and how to allow it. With --sandbox=off the
// intruder reads the file (the attack is real).
func TestSandboxArgumentPaths(t *testing.T) {
	for _, tc := range []string{"file", "directory"} {
		for _, mode := range offAndSandbox {
			t.Run(tc+"/"+mode, func(t *testing.T) {
				if mode != modeOff {
					needSandbox(t)
				}
				dir, secret, content := hostSecret(t)
				arg, named := secret, secret
				if tc == "directory" {
					arg, named = "--cache="+filepath.Dir(dir), filepath.Dir(dir) // the system's temporary directory
				}
				bots := intruderManifest(t, "", arg)
				in := intrudeIn(t, "engine", bots, mode, "files", map[string]string{"secret": secret}, nil)
				expect(t, mode, strings.Contains(in.log, content), "read a host file its command names", in)
				if mode != modeOff && (!strings.Contains(in.log, "is not in its box: add it to the manifest's read") || !strings.Contains(in.log, "path="+named)) {
					t.Errorf("the host's log does not say that %s is not bound and how to allow it:\n%s", named, in.log)
				}
				if mode != modeOff && !strings.Contains(in.log, "box sees: ") {
					t.Errorf("the host's debug log has no box sees line:\n%s", in.log)
				}
			})
		}
	}
}

// Issue 35: a read path that is a link to / (here relative, ../..-style)
// bound the host's root into the engine's box, where it read any host file
// (the records being written among them). Now the manifest is refused
// before any game, the error naming the manifest, the key, the path as
// written and what it resolves to; the host's file is never read.
func TestSandboxReadLinkToRootRefused(t *testing.T) {
	_, secret, content := hostSecret(t)
	bots := intruderManifest(t, "read = [\"up\"]\n")
	up := strings.Repeat("../", strings.Count(bots, "/")+1)
	if err := os.Symlink(up, filepath.Join(bots, "up")); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "games.jsonl")
	cmd := kinrowCmd(t, "match", "--rules", "tictactoe", "--bot", "intruderengine", "--bot", "random", "--games", "2",
		"--movetime", "5s", "--bot-start-timeout", "30s", "--out", out, "--log-level", "debug",
		"--bot-opt", "intruderengine:attack=files", "--bot-opt", "intruderengine:secret="+filepath.Join(bots, "up", secret))
	cmd.Env = append(cmd.Env, "KINROW_BOT_PATH="+bots)
	b, err := cmd.CombinedOutput()
	log := string(b)
	want := `manifest ` + filepath.Join(bots, "intruderengine.engine.toml") + `: read[0] "up": "` + filepath.Join(bots, "up") + `" resolves to /, refused: it is the host's whole file system`
	if err == nil || !strings.Contains(log, want) {
		t.Errorf("kinrow match with read = [\"up\"] (up -> %s): %v, want refused: %s\n%s", up, err, want, log)
	}
	if strings.Contains(log, content) { // through up: the host's root
		t.Errorf("the engine read the host's file through its link to /:\n%s", log)
	}
}

// Issue 35: nothing in the log said what a box sees. At debug level the
// host logs one "box sees:" line per bot it starts, plugin or engine,
// naming what is bound (here the plugin's executable and its socket
// directory), the same lines kinrow doctor --bot prints.
func TestBoxSeesLogged(t *testing.T) {
	needSandbox(t)
	out := filepath.Join(t.TempDir(), "games.jsonl")
	b, err := kinrowCmd(t, "match", "--rules", "tictactoe", "--bot", "random", "--bot", "random", "--games", "2",
		"--out", out, "--log-level", "debug").CombinedOutput()
	if err != nil {
		t.Fatalf("kinrow match: %v\n%s", err, b)
	}
	n := 0
	for _, l := range strings.Split(string(b), "\n") {
		if !strings.Contains(l, ": box sees: ") {
			continue
		}
		n++
		for _, want := range []string{filepath.Join(binDir, "kinrow-bot-random") + "  read-only", "/plugin-dir", "  writable, its own (tmpfs of 1 MiB; nothing of the host's disk; gone with it);", "network: none", "working directory: /tmp"} {
			if !strings.Contains(l, want) {
				t.Errorf("box sees line without %q: %s", want, l)
			}
		}
	}
	if n < 2 {
		t.Errorf("%d box sees lines for two plugin bots:\n%s", n, b)
	}
}

// Issue 35: an engine whose manifest's read names the directory the match
// writes its records into read them (and could have forged them, or read
// the other side's games). kinrow match --out denies the records, and the
// directories holding them, to every engine's box: the engine never
// starts, its games are forfeits saying why, and the records stay unread.
func TestMatchDeniesItsRecords(t *testing.T) {
	needSandbox(t)
	records := t.TempDir()
	out := filepath.Join(records, "games.jsonl")
	bots := intruderManifest(t, fmt.Sprintf("read = [%q]\n", records))
	cmd := kinrowCmd(t, "match", "--rules", "tictactoe", "--bot", "intruderengine", "--bot", "random", "--games", "2",
		"--movetime", "2s", "--bot-start-timeout", "30s", "--out", out, "--log-level", "debug",
		"--bot-opt", "intruderengine:attack=files", "--bot-opt", "intruderengine:secret="+out)
	cmd.Env = append(cmd.Env, "KINROW_BOT_PATH="+bots)
	b, _ := cmd.CombinedOutput()
	log := string(b)
	if strings.Contains(log, "intruder: files: got") {
		t.Errorf("the engine read the records being written:\n%s", log)
	}
	if !strings.Contains(log, records) || !strings.Contains(log, "refused") {
		t.Errorf("the host does not say the records' directory %s was refused to the engine's box:\n%s", records, log)
	}
}
