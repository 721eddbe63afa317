package main

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/kinrow/kinrow/engine/record"
	"github.com/kinrow/kinrow/host/javabridge"
	"github.com/kinrow/kinrow/protocol/gtp"
)

// Issue 23: a course player that writes an answer on the bridge's
// protocol stream must never have it taken by the host. The forger
// (java/testplayers CXForger) writes "= 1" (column 1, which it never
// plays itself while another column is free) at each of its moves on one
// channel: /proc/self/fd/3, /dev/fd/3, FileDescriptor.out, System.out,
// or, reading the host's commands off the bridge's input, answers each
// genmove with its own id; with the guard (JDK 17 to 23) it also tries
// each thing the guard refuses. Without the guard
// (-Djava.security.manager=disallow, as on JDK 24 and later, where no
// security manager can be installed) its writes reach the host, which
// refuses them as unsigned: a protocol error, its own forfeit. Either
// way no move 1 of the forger is ever in a record.
func TestJavaForgedAnswersNeverTaken(t *testing.T) {
	d := javaSetup(t)
	channels := []string{"proc", "devfd", "fdout", "sysout", "steal"}
	probes := []string{"mem", "fd", "thread-self-fd", "root-mem", "devfd", "stdin", "exec", "native", "unsafe", "heapdump", "guard", "link"}
	for _, guard := range []bool{true, false} {
		name := map[bool]string{true: "guard", false: "no guard"}[guard]
		t.Run(name, func(t *testing.T) {
			bots := map[string][]string{}
			for _, ch := range channels {
				bots[ch] = []string{"-Dkinrow.forge=" + ch}
			}
			if guard {
				bots["probe"] = []string{"-Dkinrow.forge=probe"}
			} else {
				for ch, opts := range bots {
					bots[ch] = append(opts, "-Djava.security.manager=disallow")
				}
			}
			dir := forgerManifests(t, d, bots)
			args := []string{"--rules", "connect4", "--bot", "random"}
			for ch := range bots {
				args = append(args, "--bot", "f"+ch)
			}
			args = append(args, "--gauntlet", "--games", "2", "--movetime", "2s", "--concurrency", "2")
			recs, log := runForgerMatch(t, dir, args...)
			games := map[string]int{}
			for _, rec := range recs {
				forger, color := rec.Players.X, "x"
				if forger == "random" {
					forger, color = rec.Players.O, "o"
				}
				ch := strings.TrimPrefix(forger, "f")
				games[ch]++
				for _, m := range rec.Moves {
					if m.Color == color && m.Move == "1" {
						t.Errorf("%s (%s): the forged move 1 was taken: %+v", forger, name, rec.Moves)
					}
				}
				if rec.Winner != nil && *rec.Winner == forger && rec.Reason == record.ReasonForfeit {
					t.Errorf("%s (%s) won by random's forfeit: %s", forger, name, rec.Detail)
				}
				reachesHost := !guard && (ch == "proc" || ch == "devfd")
				switch {
				case reachesHost:
					// Its first forged answer is read while the host waits
					// for its move: refused as unsigned, its forfeit.
					if rec.Reason != record.ReasonForfeit || rec.Forfeit != record.ForfeitProtocolError ||
						!strings.Contains(rec.Detail, "did not sign") || rec.Winner == nil || *rec.Winner != "random" {
						t.Errorf("%s (%s): %s %s %q; want its forfeit by protocol error for an answer it did not sign", forger, name, rec.Reason, rec.Forfeit, rec.Detail)
					}
				case ch == "steal" && !guard:
					// It takes commands from the bridge: whatever happens, it
					// only loses (checked above).
				default:
					// Nothing reached the host: a normal game.
					if rec.Reason != record.ReasonWin && rec.Reason != record.ReasonDraw {
						t.Errorf("%s (%s): game ended by %s %s: %s", forger, name, rec.Reason, rec.Forfeit, rec.Detail)
					}
				}
			}
			for ch := range bots {
				if games[ch] != 2 {
					t.Errorf("f%s played %d games, want 2", ch, games[ch])
				}
			}
			// What each attempt did, as the forger logged it (the engine's
			// stderr is in kinrow's log at debug level).
			want := map[string]string{"fdout": "wrote", "sysout": "wrote"}
			if guard {
				want["proc"], want["devfd"] = "refused", "refused"
				want["steal FileDescriptor.in"], want["steal /proc/self/fd/0"] = "refused", "refused"
				for _, p := range probes {
					want["probe "+p] = "refused"
				}
			} else {
				// proc and devfd wrote: their forfeits say so (the host may kill
				// the JVM before it logs).
				want["steal"] = "reading the host's commands"
			}
			for what, result := range want {
				if !strings.Contains(log, "CXForger "+what+": "+result) {
					t.Errorf("%s: the log lacks %q", name, "CXForger "+what+": "+result)
				}
			}
			if strings.Contains(log, "ALLOWED") {
				t.Errorf("%s: the guard let something through:\n%s", name, grepLines(log, "ALLOWED"))
			}
			checkNoJVM(t)
		})
	}
}

// runForgerMatch is runJavaMatch bounded in time: kinrow match with the
// bot directory dir, JVM-sized start timeouts, killed after three minutes
// (a forger must never hang the host); it returns the records and
// kinrow's stderr.
func runForgerMatch(t *testing.T, dir string, args ...string) ([]*record.Record, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	out := filepath.Join(t.TempDir(), "games.jsonl")
	cmd := kinrowCmd(t, append([]string{"match", "--out", out, "--format", "json", "--bot-start-timeout", "60s", "--log-level", "debug"}, args...)...)
	cmd.Env = append(cmd.Env, "KINROW_BOT_PATH="+dir)
	var stdout, stderr strings.Builder
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("kinrow match: %v\n%s", err, stderr.String())
		}
	case <-ctx.Done():
		cmd.Process.Kill()
		<-done
		t.Fatalf("kinrow match still running after 3 minutes\n%s", stderr.String())
	}
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("kinrow match stderr:\n%s", stderr.String())
		}
	})
	recs := readRecordsFile(t, out)
	return recs, stderr.String()
}

// forgerManifests writes a manifest per forger ("f" + name, CXForger with
// those JVM options) into a fresh bot directory.
func forgerManifests(t *testing.T, d javaDirs, bots map[string][]string) string {
	t.Helper()
	java, err := exec.LookPath("java")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for name, opts := range bots {
		text, err := javabridge.Manifest(javabridge.Config{Name: "f" + name, Java: java, Jar: d.jar, ClassPath: []string{d.fw, d.tp},
			Player:     javabridge.Player{Kind: javabridge.ConnectX, Class: "kinrow.testplayers.CXForger", JavaFeature: 17},
			JVMOptions: opts, Rules: []string{"connect4"}})
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "f"+name+".engine.toml"), text, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func grepLines(s, sub string) string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if strings.Contains(l, sub) {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}

// The bridge signs every answer once the host's first command gave it a
// key: the host's own client (random ids, signatures required) drives a
// whole game through it, a failure answer included; a second key is
// refused (signed with the first). A bridge whose first command was not
// kinrow-key refuses a key later and answers with plain ids.
func TestJavaBridgeSignsAnswers(t *testing.T) {
	d := javaSetup(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	start := func(t *testing.T) *gtp.Client {
		cmd := exec.Command("java", "-cp", d.jar+":"+d.fw+":"+d.tp, javabridge.MainClass, "--player", "kinrow.testplayers.CXRandom")
		cmd.Dir = t.TempDir()
		var stderr strings.Builder
		cmd.Stderr = &stderr
		in, out := startPiped(t, cmd)
		t.Cleanup(func() {
			in.Close()
			done := waited(cmd)
			select {
			case <-done:
			case <-time.After(10 * time.Second):
				cmd.Process.Kill()
				<-done
			}
			if t.Failed() {
				t.Logf("bridge stderr:\n%s", stderr.String())
			}
		})
		c := gtp.NewClient(in, out)
		if err := c.RequireIDs(); err != nil {
			t.Fatal(err)
		}
		return c
	}
	do := func(t *testing.T, c *gtp.Client, want string, name string, args ...string) gtp.Response {
		t.Helper()
		r, err := c.Do(ctx, name, args...)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if got := map[bool]string{true: "=", false: "?"}[r.OK] + r.Text; !regexp.MustCompile("^(" + want + ")$").MatchString(got) {
			t.Fatalf("%s %v: %q, want %q", name, args, got, want)
		}
		return r
	}
	key, err := gtp.NewAnswerKey()
	if err != nil {
		t.Fatal(err)
	}

	t.Run("signed", func(t *testing.T) {
		c := start(t)
		r, signed, err := c.Authenticate(ctx, key, "kinrow-key", key.String())
		if err != nil || !signed || !r.OK {
			t.Fatalf("kinrow-key: %+v, signed %v, %v; want a signed success", r, signed, err)
		}
		do(t, c, "=2", "protocol_version")
		do(t, c, "=", "rules", "connect4")
		do(t, c, "=", "kinrow-movetime", "900")
		do(t, c, "=", "kinrow-side", "x")
		m := do(t, c, "=[1-7]", "genmove", "x")
		do(t, c, "\\?illegal move: column 9 off the board.*", "play", "o", "9")
		do(t, c, "=", "play", "o", m.Text)
		do(t, c, "=[1-7]", "genmove", "x")
		do(t, c, "=", "undo")
		// A key can be given once, first.
		other, _ := gtp.NewAnswerKey()
		if r, _, err := c.Authenticate(ctx, other, "kinrow-key", other.String()); err != nil || r.OK || !strings.Contains(r.Text, "first command") {
			t.Fatalf("a second kinrow-key: %+v, %v; want a refusal signed with the first key", r, err)
		}
		do(t, c, "=", "quit")
	})

	t.Run("not first", func(t *testing.T) {
		c := start(t)
		do(t, c, "=2", "protocol_version")
		r, signed, err := c.Authenticate(ctx, key, "kinrow-key", key.String())
		if err != nil || signed || r.OK || !strings.Contains(r.Text, "first command") {
			t.Fatalf("kinrow-key after protocol_version: %+v, signed %v, %v; want a plain refusal", r, signed, err)
		}
		do(t, c, "=", "rules", "connect4")
		do(t, c, "=", "quit")
	})
}

// A forger without the guard, seen by the host's client directly: the
// answer "= 1" it writes on descriptor 3 while the client waits for its
// move is read first and refused as unsigned.
func TestJavaUnsignedAnswerRefused(t *testing.T) {
	d := javaSetup(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.Command("java", "-Djava.security.manager=disallow", "-Dkinrow.forge=proc", "-cp", d.jar+":"+d.fw+":"+d.tp,
		javabridge.MainClass, "--player", "kinrow.testplayers.CXForger", "--protocol-fd", "3")
	cmd.Dir = t.TempDir()
	// Descriptor 3 is the protocol's output, as the manifest's command
	// gives it; stdout is the log.
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.ExtraFiles = []*os.File{pw}
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr strings.Builder
	cmd.Stdout, cmd.Stderr = &stderr, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	pw.Close()
	defer func() {
		in.Close()
		cmd.Process.Kill()
		cmd.Wait() // before stderr is read
		pr.Close()
		if t.Failed() {
			t.Logf("bridge output:\n%s", stderr.String())
		}
	}()
	c := gtp.NewClient(in, pr)
	if err := c.RequireIDs(); err != nil {
		t.Fatal(err)
	}
	key, _ := gtp.NewAnswerKey()
	if _, signed, err := c.Authenticate(ctx, key, "kinrow-key", key.String()); err != nil || !signed {
		t.Fatalf("kinrow-key: signed %v, %v", signed, err)
	}
	for _, cmd := range [][]string{{"rules", "connect4"}, {"kinrow-movetime", "900"}, {"kinrow-side", "x"}} {
		if r, err := c.Do(ctx, cmd[0], cmd[1:]...); err != nil || !r.OK {
			t.Fatalf("%v: %+v, %v", cmd, r, err)
		}
	}
	r, err := c.Do(ctx, "genmove", "x")
	if !errors.Is(err, gtp.ErrUnsignedAnswer) {
		t.Fatalf("genmove with a forger writing on descriptor 3: %+v, %v; want the forged answer refused as unsigned", r, err)
	}
	if !strings.Contains(err.Error(), `"1"`) {
		t.Errorf("the refused answer is not the forgery: %v", err)
	}
}
