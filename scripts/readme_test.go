package scripts

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/kinrow/kinrow/internal/testbuild"
)

// readmeBin links kinrow, its sandbox's init and the real bots (not the
// test bots TestMain built beside them) into a directory of their own,
// as make leaves bin/: the host finds the bots beside itself.
func readmeBin(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "bin")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	names := []string{"kinrow", "kinrow-box"}
	for _, b := range testbuild.Bots() {
		names = append(names, "kinrow-bot-"+b)
	}
	for _, n := range names {
		if err := os.Link(filepath.Join(binDir, n), filepath.Join(dir, n)); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// volatile are the parts of a record that differ from run to run: move
// times, CPU times and the start.
var volatile = []struct {
	re   *regexp.Regexp
	with string
}{
	{regexp.MustCompile(`"ms":\d+`), `"ms":N`},
	{regexp.MustCompile(`,"cpu_ms":\d+`), ``},
	{regexp.MustCompile(`"start":"[^"]*"`), `"start":"T"`},
}

func normalize(s string) string {
	s = strings.TrimRight(s, "\n") // the script ends with a blank line, the block with none
	for _, v := range volatile {
		s = v.re.ReplaceAllString(s, v.with)
	}
	return s
}

// TestReadmeSession: the README's session is what a real run of the host
// answers (scripts/readme-session.sh), record times aside.
func TestReadmeSession(t *testing.T) {
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	text := string(readme)
	start := strings.Index(text, "```\n$ make run\n")
	if start < 0 {
		t.Fatal("README.md has no session block (```, then $ make run)")
	}
	want := text[start+4:]
	want = want[:strings.Index(want, "```\n")]
	cmd := exec.Command("bash", "readme-session.sh")
	cmd.Env = append(os.Environ(), "KINROW="+filepath.Join(readmeBin(t), "kinrow"), "KINROW_BOT_PATH=", "TMPDIR="+t.TempDir())
	got, err := cmd.Output()
	if err != nil {
		t.Fatalf("readme-session.sh: %v", err)
	}
	if normalize(string(got)) != normalize(want) {
		t.Errorf("README's session differs from a real run's (scripts/readme-session.sh > /tmp/session.txt, then paste):\n%s\nREADME:\n%s", got, want)
	}
}

// TestReadmeExamples runs every command of the README's console blocks
// ("$ COMMAND" and the output it shows; a "..." line stands for any lines)
// with bin/ holding the built binaries, and compares.
func TestReadmeExamples(t *testing.T) {
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	examples := consoleExamples(string(readme))
	if len(examples) < 4 {
		t.Fatalf("%d examples in README.md's console blocks, want at least 4", len(examples))
	}
	work := t.TempDir()
	if err := os.Symlink(readmeBin(t), filepath.Join(work, "bin")); err != nil {
		t.Fatal(err)
	}
	for _, ex := range examples {
		t.Run(ex.cmd, func(t *testing.T) {
			cmd := exec.Command("bash", "-c", "set -o pipefail; "+ex.cmd)
			cmd.Dir = work
			cmd.Env = append(os.Environ(), "KINROW_BOT_PATH=", "TMPDIR="+t.TempDir())
			out, err := cmd.Output()
			if err != nil {
				t.Fatalf("%v\n%s", err, out)
			}
			got := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
			if !linesMatch(got, ex.want) {
				t.Errorf("output:\n%s\nREADME shows:\n%s", out, strings.Join(ex.want, "\n"))
			}
		})
	}
}

type example struct {
	cmd  string
	want []string
}

// consoleExamples reads the "$ COMMAND" lines of text's ```console blocks
// and the output lines under each.
func consoleExamples(text string) []example {
	var exs []example
	for _, block := range strings.Split(text, "```console\n")[1:] {
		block = block[:strings.Index(block, "```")]
		for _, line := range strings.Split(strings.TrimSuffix(block, "\n"), "\n") {
			if cmd, ok := strings.CutPrefix(line, "$ "); ok {
				exs = append(exs, example{cmd: cmd})
			} else if len(exs) > 0 {
				exs[len(exs)-1].want = append(exs[len(exs)-1].want, line)
			}
		}
	}
	return exs
}

// linesMatch compares output lines with the lines shown, a "..." line
// standing for any number of lines.
func linesMatch(got, want []string) bool {
	if len(want) == 0 {
		return len(got) == 0 || len(got) == 1 && got[0] == ""
	}
	if want[0] == "..." {
		for i := 0; i <= len(got); i++ {
			if linesMatch(got[i:], want[1:]) {
				return true
			}
		}
		return false
	}
	return len(got) > 0 && got[0] == want[0] && linesMatch(got[1:], want[1:])
}
