package main

import (
	"bytes"
	"crypto/ed25519"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kinrow/kinrow/host/refkey"
)

// hostKey is the referee's key of the kinrow the tests run (TestMain
// points KINROW_CONFIG_DIR at the build directory).
func hostKey(t *testing.T) *refkey.Key {
	t.Helper()
	k, err := refkey.Load(os.Getenv(refkey.EnvDir))
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// signWith returns the record m as a line signed by priv, as
// record.SignedLine writes it (its key set, its sig member last).
func signWith(t *testing.T, priv ed25519.PrivateKey, m map[string]any) string {
	t.Helper()
	delete(m, "sig")
	m["key"] = base64.StdEncoding.EncodeToString(priv.Public().(ed25519.PublicKey))
	body, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	sig := base64.StdEncoding.EncodeToString(ed25519.Sign(priv, body))
	return string(body[:len(body)-1]) + `,"sig":"` + sig + `"}`
}

// signAsHost signs m with the host's own key: what a user holding the key
// file can do.
func signAsHost(t *testing.T, m map[string]any) string {
	t.Helper()
	return signWith(t, hostKey(t).Private, m)
}

// playedRecords plays a tic-tac-toe match of 6 games between random and
// random#2 into a new file and returns its path and its lines.
func playedRecords(t *testing.T, dir string, extra ...string) (string, []string) {
	t.Helper()
	path := filepath.Join(dir, "real.jsonl")
	runOK(t, kinrowCmd(t, append(matchArgs(path), extra...)...))
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	if len(lines) != 6 {
		t.Fatalf("%d records", len(lines))
	}
	return path, lines
}

// matchArgs are the arguments of the match playedRecords plays.
func matchArgs(out string) []string {
	return []string{"match", "--rules", "tictactoe", "--bot", "random", "--bot", "random",
		"--games", "6", "--seed", "5", "--movetime", "50ms", "--out", out}
}

// runAny runs kinrow with args and returns its combined output and exit
// status.
func runAny(t *testing.T, cmd *exec.Cmd) (string, int) {
	t.Helper()
	out, err := cmd.CombinedOutput()
	if ee, ok := err.(*exec.ExitError); ok {
		return string(out), ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return string(out), 0
}

// decodeLine is a record line as a map.
func decodeLine(t *testing.T, line string) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(line), &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// forfeitLine is a hand-written forfeit: o wins because x "timed out",
// with no move, as the forger wrote 30 of them.
func forfeitLine(x, o string, round, game int, schedule string) string {
	num := ""
	if game > 0 {
		num = fmt.Sprintf(`,"round":%d,"game":%d,"schedule":%q`, round, game, schedule)
	}
	return fmt.Sprintf(`{"rules":"mnk:3x3x3","players":{"x":%q,"o":%q},"moves":[],"result":"O+","reason":"forfeit","forfeit":"timeout","detail":"x (%s) timed out after 50 ms","winner":%q,"start":"2026-11-28T12:00:00Z"%s}`,
		x, o, x, o, num)
}

// Issue 35: forfeits written by hand into a real match's --out file (30 of
// them, the forger winning each, no move to replay) are refused by
// ratings, merge and view, naming the file and the first forged line;
// --skip-invalid leaves them out and counts them: the ratings are those of
// the real games. --resume refuses forged forfeits that claim games of its
// schedule, and with --skip-invalid plays those games.
func TestForgedForfeitsAreRefused(t *testing.T) {
	dir := t.TempDir()
	real, lines := playedRecords(t, dir)
	var forged strings.Builder
	for _, l := range lines {
		forged.WriteString(l + "\n")
	}
	for range 30 {
		forged.WriteString(forfeitLine("random", "forger", 0, 0, "") + "\n")
	}
	path := filepath.Join(dir, "forged.jsonl")
	os.WriteFile(path, []byte(forged.String()), 0o644)
	want := path + ":7: unsigned record"

	realRatings, _ := runAny(t, kinrowCmd(t, "ratings", real))
	for _, tc := range []struct {
		args []string
		code int
	}{
		{[]string{"ratings", path}, 1},
		{[]string{"merge", filepath.Join(dir, "merged.jsonl"), path}, 2},
		{[]string{"view", "--listen", "127.0.0.1:0", path}, 1},
	} {
		out, code := runAny(t, kinrowCmd(t, tc.args...))
		if code != tc.code || !strings.Contains(out, want) || strings.Contains(out, "forger  ") {
			t.Errorf("%v: exit %d, output %q; want exit %d and %q", tc.args[:1], code, out, tc.code, want)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "merged.jsonl")); !os.IsNotExist(err) {
		t.Errorf("a refused merge wrote its output")
	}
	// --skip-invalid: the real games alone, the 30 forged ones counted.
	out, code := runAny(t, kinrowCmd(t, "ratings", "--skip-invalid", path))
	if code != 0 || !strings.Contains(out, "left out 30 invalid records (--skip-invalid)") || strings.Contains(out, "forger") ||
		!strings.Contains(out, "mnk:3x3x3: 6 games, 2 bots") {
		t.Errorf("ratings --skip-invalid: exit %d\n%s", code, out)
	}
	if !strings.Contains(out, strings.TrimSpace(realRatings)) {
		t.Errorf("ratings --skip-invalid differ from the real games' ratings:\n%s\nwant\n%s", out, realRatings)
	}
	merged := filepath.Join(dir, "merged.jsonl")
	out, code = runAny(t, kinrowCmd(t, "merge", "--skip-invalid", merged, path))
	if data, _ := os.ReadFile(merged); code != 0 || strings.Count(string(data), "\n") != 6 || strings.Contains(string(data), "forger") ||
		!strings.Contains(out, "left out 30 invalid records") {
		t.Errorf("merge --skip-invalid: exit %d\n%s\n%s", code, out, data)
	}
	base, _ := startView(t, "--skip-invalid", path)
	if code, body := httpGet(t, base+"/api/games"); code != 200 || !strings.Contains(body, `"total":6`) || !strings.Contains(body, "forged.jsonl:7: unsigned record") {
		t.Errorf("view --skip-invalid: %d %s", code, body)
	}

	// --resume: games 5 and 6 replaced by forged forfeits for them.
	sched := decodeLine(t, lines[0])["schedule"].(string)
	var partial strings.Builder
	var kept int
	for _, l := range lines {
		m := decodeLine(t, l)
		if g := int(m["game"].(float64)); g <= 4 {
			partial.WriteString(l + "\n")
			kept++
		} else {
			p := m["players"].(map[string]any)
			partial.WriteString(forfeitLine(p["x"].(string), p["o"].(string), 1, g, sched) + "\n")
		}
	}
	resumed := filepath.Join(dir, "resumed.jsonl")
	os.WriteFile(resumed, []byte(partial.String()), 0o644)
	out, code = runAny(t, kinrowCmd(t, matchArgs(resumed)...))
	if code != 2 || !strings.Contains(out, "give --resume") {
		t.Errorf("match without --resume: exit %d\n%s", code, out)
	}
	out, code = runAny(t, kinrowCmd(t, append(matchArgs(resumed), "--resume")...))
	if code != 2 || !strings.Contains(out, resumed+":"+fmt.Sprint(kept+1)+": unsigned record") {
		t.Errorf("--resume: exit %d\n%s", code, out)
	}
	out, code = runAny(t, kinrowCmd(t, append(matchArgs(resumed), "--resume", "--skip-invalid")...))
	if code != 0 || !strings.Contains(out, "left out 2 invalid records (--skip-invalid)") || !strings.Contains(out, "mnk:3x3x3: 6 games") {
		t.Errorf("--resume --skip-invalid: exit %d\n%s", code, out)
	}
	// The two games were played: their signed records follow the forged lines.
	out, code = runAny(t, kinrowCmd(t, "ratings", "--skip-invalid", resumed))
	if code != 0 || !strings.Contains(out, "6 games") || !strings.Contains(out, "left out 2 invalid records") {
		t.Errorf("ratings of the resumed file: exit %d\n%s", code, out)
	}
}

// Issue 35: one game copied under new game numbers counts once. Copied as
// it is, its signature no longer covers the new number (bad signature);
// signed again by someone holding the host's key, its game id is seen
// twice (duplicate game id), in one file or across the files of one run.
func TestCopiedGameCountsOnce(t *testing.T) {
	dir := t.TempDir()
	real, lines := playedRecords(t, dir)
	write := func(name string, extra ...string) string {
		p := filepath.Join(dir, name)
		os.WriteFile(p, []byte(strings.Join(append(append([]string{}, lines...), extra...), "\n")+"\n"), 0o644)
		return p
	}
	var copied, resigned []string
	for g := 7; g <= 9; g++ {
		m := decodeLine(t, lines[0])
		m["game"] = g
		b, _ := json.Marshal(m)
		copied = append(copied, string(b))
		resigned = append(resigned, signAsHost(t, decodeLineWith(t, lines[0], "game", g)))
	}
	plain := write("copied.jsonl", copied...)
	again := write("resigned.jsonl", resigned...)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"ratings", plain}, plain + ":7: bad signature"},
		{[]string{"ratings", again}, again + ":7: duplicate game id"},
		{[]string{"ratings", real, real}, real + ":1: duplicate game id"},
		{[]string{"merge", filepath.Join(dir, "m.jsonl"), real, real}, real + ":1: duplicate game id"},
	} {
		out, code := runAny(t, kinrowCmd(t, tc.args...))
		if code == 0 || !strings.Contains(out, tc.want) {
			t.Errorf("%v: exit %d, output %q; want %q", tc.args[:1], code, out, tc.want)
		}
	}
	out, code := runAny(t, kinrowCmd(t, "ratings", "--skip-invalid", again))
	if code != 0 || !strings.Contains(out, "mnk:3x3x3: 6 games") || !strings.Contains(out, "left out 3 invalid records") {
		t.Errorf("ratings --skip-invalid: exit %d\n%s", code, out)
	}
}

// decodeLineWith is line as a map with key set to v.
func decodeLineWith(t *testing.T, line, key string, v any) map[string]any {
	m := decodeLine(t, line)
	m[key] = v
	return m
}

// A shard played on another host (another key) is refused until --trust
// names that host's public key file (kinrow key show there); a record
// whose result was flipped after signing is refused whatever is trusted.
func TestOtherKeyNeedsTrustAndTamperingIsRefused(t *testing.T) {
	dir := t.TempDir()
	elsewhere := filepath.Join(dir, "elsewhere")
	shard := filepath.Join(dir, "shard.jsonl")
	cmd := kinrowCmd(t, matchArgs(shard)...)
	cmd.Env = append(cmd.Env, refkey.EnvDir+"="+elsewhere)
	runOK(t, cmd)
	show := kinrowCmd(t, "key", "show")
	show.Env = append(show.Env, refkey.EnvDir+"="+elsewhere)
	pub := filepath.Join(dir, "elsewhere.pub")
	os.WriteFile(pub, []byte(runOK(t, show)), 0o644)
	out, code := runAny(t, kinrowCmd(t, "ratings", shard))
	if code != 1 || !strings.Contains(out, shard+":1: untrusted key") || !strings.Contains(out, "--trust") {
		t.Errorf("ratings of another host's shard: exit %d\n%s", code, out)
	}
	out, code = runAny(t, kinrowCmd(t, "ratings", "--trust", pub, shard))
	if code != 0 || !strings.Contains(out, "6 games") {
		t.Errorf("ratings --trust: exit %d\n%s", code, out)
	}
	out, code = runAny(t, kinrowCmd(t, "merge", "--trust", pub, filepath.Join(dir, "merged.jsonl"), shard))
	if code != 0 {
		t.Errorf("merge --trust: exit %d\n%s", code, out)
	}
	// The merged file keeps the shard's signatures: it verifies as the shard did.
	if out, code = runAny(t, kinrowCmd(t, "ratings", "--trust", pub, filepath.Join(dir, "merged.jsonl"))); code != 0 {
		t.Errorf("ratings of the merged file: exit %d\n%s", code, out)
	}
	if out, code = runAny(t, kinrowCmd(t, "ratings", "--trust", filepath.Join(dir, "shard.jsonl"), shard)); code != 2 || !strings.Contains(out, "--trust") {
		t.Errorf("--trust of a file that is no key: exit %d\n%s", code, out)
	}
	// A result flipped: x's win made o's.
	data, _ := os.ReadFile(shard)
	lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	flipped := -1
	for i, l := range lines {
		if strings.Contains(l, `"result":"X+"`) {
			m := decodeLine(t, l)
			p := m["players"].(map[string]any)
			l = strings.Replace(l, `"result":"X+"`, `"result":"O+"`, 1)
			l = strings.Replace(l, fmt.Sprintf(`"winner":%q`, p["x"]), fmt.Sprintf(`"winner":%q`, p["o"]), 1)
			lines[i], flipped = l, i+1
			break
		}
	}
	if flipped < 0 {
		t.Skip("no game won by x to flip")
	}
	tampered := filepath.Join(dir, "tampered.jsonl")
	os.WriteFile(tampered, []byte(strings.Join(lines, "\n")+"\n"), 0o644)
	out, code = runAny(t, kinrowCmd(t, "ratings", "--trust", pub, tampered))
	if want := fmt.Sprintf("%s:%d: bad signature", tampered, flipped); code != 1 || !strings.Contains(out, want) {
		t.Errorf("a flipped result: exit %d, %s; want %q", code, out, want)
	}
}

// Issue 35: a bot name with escape sequences in a records file is printed
// escaped by ratings (the screen is not cleared, no line is faked).
func TestRatingsPrintsNamesEscaped(t *testing.T) {
	evil := "evil\x1b[2J\x1b[Hfake line\r\nrank 1"
	var file strings.Builder
	for i := range 6 {
		x, o := evil, "good"
		if i%2 == 1 {
			x, o = o, x
		}
		m := decodeLine(t, noMoveGame("X", "O", []string{"X+", "O+", "0"}[i%3]))
		m["players"] = map[string]any{"x": x, "o": o}
		switch m["result"] {
		case "X+":
			m["winner"] = x
		case "O+":
			m["winner"] = o
		}
		m["id"] = fmt.Sprintf("%032x", i+1)
		file.WriteString(signAsHost(t, m) + "\n")
	}
	path := filepath.Join(t.TempDir(), "evil.jsonl")
	os.WriteFile(path, []byte(file.String()), 0o644)
	stdout, stderr, code := runRatings(t, path)
	if code != 0 || strings.ContainsAny(stdout, "\x1b\r") || !strings.Contains(stdout, `evil\x1b[2J\x1b[Hfake line\r\nrank 1`) {
		t.Errorf("exit %d, stderr %q, stdout %q", code, stderr, stdout)
	}
}

// Issue 35: a 100 MB record line is refused naming the bound, and reading
// it costs a bounded amount of memory (the process's peak RSS, with wide
// headroom: it was 360 MB when the file was read whole).
func TestHugeRecordLineIsBounded(t *testing.T) {
	dir := t.TempDir()
	_, lines := playedRecords(t, dir)
	path := filepath.Join(dir, "huge.jsonl")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	fmt.Fprintf(f, "%s\n{\"rules\":\"", lines[0])
	block := bytes.Repeat([]byte("a"), 1<<20)
	for range 100 {
		f.Write(block)
	}
	fmt.Fprintf(f, "\"}\n")
	f.Close()
	cmd := kinrowCmd(t, "ratings", path)
	out, err := cmd.CombinedOutput()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 || !strings.Contains(string(out), path+":2: record line too long: record line 2 is over 16 MiB") {
		t.Fatalf("%v\n%s", err, out)
	}
	if rss, ok := maxRSS(cmd); ok && rss > 120<<20 {
		t.Errorf("peak RSS %d MiB reading a 100 MiB line (the bound is 16 MiB)", rss>>20)
	} else if ok {
		t.Logf("peak RSS %d MiB", rss>>20)
	}
}

// Records written before kinrow signed them are read with --allow-unsigned,
// which stderr counts; without it they are refused.
func TestUnsignedRecordsNeedTheFlag(t *testing.T) {
	var file strings.Builder
	for _, res := range []string{"X+", "O+", "0"} {
		file.WriteString(noMoveGame("a", "b", res))
		file.WriteString(noMoveGame("b", "a", res))
	}
	path := filepath.Join(t.TempDir(), "old.jsonl")
	os.WriteFile(path, []byte(file.String()), 0o644)
	if _, stderr, code := runRatings(t, path); code != 1 || !strings.Contains(stderr, path+":1: unsigned record") || !strings.Contains(stderr, "--allow-unsigned") {
		t.Errorf("without --allow-unsigned: exit %d, %s", code, stderr)
	}
	stdout, stderr, code := runRatings(t, "--allow-unsigned", path)
	if code != 0 || !strings.Contains(stdout, "6 games") || !strings.Contains(stderr, "kinrow ratings: 6 unsigned records accepted by --allow-unsigned") {
		t.Errorf("--allow-unsigned: exit %d, %s\n%s", code, stderr, stdout)
	}
}

// kinrow key show prints the public key file (the key as records name
// it), and kinrow key path where the private key is.
func TestKeyShowAndPath(t *testing.T) {
	k := hostKey(t)
	show, stderr, code := kinrowRun(t, "key", "show")
	if code != 0 || show != k.PublicText() || !strings.Contains(show, "\n"+base64.StdEncoding.EncodeToString(k.Public())+"\n") {
		t.Errorf("key show: exit %d, %s%q", code, stderr, show)
	}
	path, stderr, code := kinrowRun(t, "key", "path")
	if code != 0 || strings.TrimSpace(path) != filepath.Join(os.Getenv(refkey.EnvDir), refkey.KeyFile) {
		t.Errorf("key path: exit %d, %s%q", code, stderr, path)
	}
}
