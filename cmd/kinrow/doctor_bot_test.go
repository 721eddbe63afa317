package main

import (
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"
)

// doctorBotLines runs kinrow doctor --bot name with the bots of botPath and
// returns the lines under "box sees:" and those after them, the system
// directories' line checked and left out.
func doctorBotLines(t *testing.T, botPath, name string) (head, box []string) {
	t.Helper()
	out := runOK(t, kinrowIn(shortTempDir(t, "kd"), botPath, "warn", "doctor", "--bot", name))
	t.Logf("kinrow doctor --bot %s:\n%s", name, out)
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	for i, l := range lines {
		if l == "box sees:" {
			head, box = lines[:i], lines[i+1:]
			break
		}
	}
	if len(box) == 0 || !strings.Contains(box[0], "/usr") || !strings.HasSuffix(box[0], "  read-only (system directories)") {
		t.Fatalf("no box, or no system directories first:\n%s", out)
	}
	return head, box[1:]
}

// matchLines checks got against want, line by line, each want a regular
// expression matched whole.
func matchLines(t *testing.T, got, want []string) {
	t.Helper()
	ok := len(got) == len(want)
	for i := 0; ok && i < len(want); i++ {
		ok = regexp.MustCompile("^" + want[i] + "$").MatchString(got[i])
	}
	if !ok {
		t.Errorf("lines:\n%s\nwant (regular expressions):\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// Issue 35: nothing said what a box sees. kinrow doctor --bot NAME lists
// it, computed by the code that makes the box: for a plugin (its
// executable, its socket directory) and for an engine (its manifest's
// directory, each read path with what it resolves to, the memory cap's
// /tmp, the paths its command names that it does not see).
func TestDoctorBot(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the boxes are Linux's: these paths are a Linux host's")
	}
	q := regexp.QuoteMeta
	t.Run("plugin", func(t *testing.T) {
		head, box := doctorBotLines(t, "", "random")
		exe := filepath.Join(binDir, "kinrow-bot-random")
		matchLines(t, head, []string{"bot random: plugin", "  program: " + q(exe), "sandbox: .+"})
		matchLines(t, box, []string{
			q("  /tmp  writable, its own (tmpfs of 256 MiB; $HOME and $TMPDIR; gone with it)"),
			q("  /proc  its own (its own processes only)"),
			q("  /dev  its own (null, zero, full, random, urandom; /dev/shm)"),
			"  " + q(exe) + "  read-only",
			`  /.*/kinrow-bots-\d+-\d+/plugin-dir\*  writable, its own \(tmpfs of 1 MiB; nothing of the host.s disk; gone with it\)`,
			q("  network: none (a loopback of its own)"),
			q("  working directory: /tmp"),
		})
	})
	t.Run("engine", func(t *testing.T) {
		base := shortTempDir(t, "kdb")
		dir, books, host := filepath.Join(base, "bot"), filepath.Join(base, "books"), filepath.Join(base, "host")
		for _, d := range []string{filepath.Join(dir, "weights"), books, host} {
			if err := os.MkdirAll(d, 0o755); err != nil {
				t.Fatal(err)
			}
		}
		if err := os.WriteFile(filepath.Join(dir, "engine"), []byte("#!/bin/sh\n"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(host, "secret"), nil, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(books, filepath.Join(dir, "books")); err != nil {
			t.Fatal(err)
		}
		manifest := `command = ["./engine", "--cache=` + host + `", "` + filepath.Join(host, "secret") + `", "--weights=weights"]
protocol = "kinrow"
rules = ["connect4"]
read = ["books"]
max_memory = "64M"
`
		if err := os.WriteFile(filepath.Join(dir, "e.engine.toml"), []byte(manifest), 0o644); err != nil {
			t.Fatal(err)
		}
		head, box := doctorBotLines(t, dir, "e")
		matchLines(t, head, []string{"bot e: engine, manifest " + q(filepath.Join(dir, "e.engine.toml")), "  program: " + q(filepath.Join(dir, "engine")), "sandbox: .+"})
		matchLines(t, box, []string{
			q("  /tmp  writable, its own (tmpfs of 64 MiB; $HOME and $TMPDIR; gone with it)"),
			q("  /proc  its own (its own processes only)"),
			q("  /dev  its own (null, zero, full, random, urandom; /dev/shm)"),
			"  " + q(dir) + "  read-only",
			"  " + q(filepath.Join(dir, "books")+" -> "+books) + "  link \\(as given\\)",
			"  " + q(books+"  read-only (given as "+filepath.Join(dir, "books")+")"),
			q("  network: none (a loopback of its own)"),
			"  working directory: " + q(dir),
			"not in its box: " + q(host) + " .*add it to the manifest's read.*",
			"not in its box: " + q(filepath.Join(host, "secret")) + " .*",
		})
	})
	t.Run("refused", func(t *testing.T) {
		dir := shortTempDir(t, "kdr")
		if err := os.Symlink("/", filepath.Join(dir, "all")); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "w.engine.toml"), []byte("command = [\"/bin/true\"]\nprotocol = \"kinrow\"\nrules = [\"connect4\"]\nread = [\"all\"]\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		out, err := kinrowIn(shortTempDir(t, "kd"), dir, "warn", "doctor", "--bot", "w").CombinedOutput()
		if err == nil || !strings.Contains(string(out), `read[0] "all": "`+filepath.Join(dir, "all")+`" resolves to /, refused: it is the host's whole file system`) {
			t.Errorf("kinrow doctor --bot w: %v\n%s", err, out)
		}
	})
}
