package registry

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/kinrow/kinrow/host/botpath"
	"github.com/kinrow/kinrow/host/manifest"
	"github.com/kinrow/kinrow/host/referee"
)

// LockFile is the name of the lock file beside the bots: one line per
// executable, its SHA-256 in hex, two spaces and its path relative to the
// lock file's directory (the format of sha256sum, so `sha256sum -c
// kinrow-bots.lock` checks it too). Lines starting with # are comments.
const LockFile = "kinrow-bots.lock"

// maxLockBytes bounds a lock file.
const maxLockBytes = 1 << 20

// ParseLock reads a lock file's text: file path → SHA-256 in lower-case
// hex. A malformed line is an error naming its number, what it holds and
// what is accepted.
func ParseLock(data []byte) (map[string]string, error) {
	if len(data) > maxLockBytes {
		return nil, fmt.Errorf("lock file is %d bytes: at most %d are accepted", len(data), maxLockBytes)
	}
	sums := map[string]string{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 4096), maxLockBytes)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimRight(sc.Text(), "\r")
		if strings.TrimSpace(line) == "" || strings.HasPrefix(line, "#") {
			continue
		}
		// "SUM  NAME", or "SUM *NAME" (sha256sum's binary mode).
		sum, name, ok := "", "", len(line) > 66
		if ok {
			sum, name = line[:64], line[66:]
			ok = line[64:66] == "  " || line[64:66] == " *"
		}
		if !ok || strings.TrimSpace(name) == "" {
			return nil, fmt.Errorf("lock file line %d %q: want a SHA-256 (64 hex digits), two spaces and a file name, as sha256sum writes", n, referee.Quote(line))
		}
		if _, err := hex.DecodeString(sum); err != nil {
			return nil, fmt.Errorf("lock file line %d: %q is not 64 hex digits", n, sum)
		}
		name = filepath.Clean(name)
		if prev, dup := sums[name]; dup && prev != strings.ToLower(sum) {
			return nil, fmt.Errorf("lock file line %d: %s is listed twice with different sums", n, name)
		}
		sums[name] = strings.ToLower(sum)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("lock file: %w", err)
	}
	return sums, nil
}

// FileSHA256 is the SHA-256 of a file's contents in lower-case hex.
func FileSHA256(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", fmt.Errorf("read %s: %w", path, err)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// checkLocked checks executable exe of bot name against the lock file in
// dir: refused if its sum differs or the lock file does not list it; with
// no lock file, refused only when required. When it checked a sum it
// returns the file it hashed, open: the caller runs that very file (procrun
// executes it through its descriptor), so one swapped in after the check
// is never run; nil when there was nothing to check.
func checkLocked(name, dir, exe string, required bool) (*os.File, error) {
	lockPath := filepath.Join(dir, LockFile)
	data, err := os.ReadFile(lockPath)
	if errors.Is(err, fs.ErrNotExist) {
		if required {
			return nil, fmt.Errorf("bot %s: refused: --verify-bots needs %s (write it with `kinrow bots lock`)", name, lockPath)
		}
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("bot %s: read the lock file: %w", name, err)
	}
	sums, err := ParseLock(data)
	if err != nil {
		return nil, fmt.Errorf("bot %s: %s: %w", name, lockPath, err)
	}
	rel, err := filepath.Rel(dir, exe)
	if err != nil {
		rel = exe
	}
	want, ok := sums[filepath.Clean(rel)]
	if !ok {
		return nil, fmt.Errorf("bot %s: refused: %s does not list %s (run `kinrow bots lock` again to add it)", name, lockPath, rel)
	}
	f, err := os.Open(exe)
	if err != nil {
		return nil, fmt.Errorf("bot %s: checksum: %w", name, err)
	}
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		f.Close()
		return nil, fmt.Errorf("bot %s: checksum: read %s: %w", name, exe, err)
	}
	if got := hex.EncodeToString(h.Sum(nil)); got != want {
		f.Close()
		return nil, fmt.Errorf("bot %s: refused: %s has SHA-256 %s, but %s says %s", name, exe, got, lockPath, want)
	}
	return f, nil
}

// verify checks plugin entry e against its lock file; the file it hashed
// comes back open (nil when nothing was checked).
func (l *Registry) verify(e botpath.Entry) (*os.File, error) {
	return checkLocked(e.Name, filepath.Dir(e.Path), e.Path, l.cfg.Verify)
}

// verifyEngine checks an engine's executable against the lock file beside
// its manifest, as verify does.
func (l *Registry) verifyEngine(m *manifest.Manifest) (*os.File, error) {
	exe, err := m.Executable()
	if err != nil {
		return nil, fmt.Errorf("engine %s (%s): %w", m.Name, m.Path, err)
	}
	return checkLocked(m.Name, filepath.Dir(m.Path), exe, l.cfg.Verify)
}

// WriteLocks writes a lock file in each directory holding bots the finder
// lists, with the SHA-256 of every plugin executable and every engine
// manifest's executable there; it returns the files written.
func WriteLocks(f botpath.Finder) ([]string, error) {
	byDir := map[string]map[string]string{}
	add := func(dir, exe string) error {
		sum, err := FileSHA256(exe)
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(dir, exe)
		if err != nil {
			rel = exe
		}
		if byDir[dir] == nil {
			byDir[dir] = map[string]string{}
		}
		byDir[dir][rel] = sum
		return nil
	}
	for _, e := range f.List() {
		dir := filepath.Dir(e.Path)
		if e.Kind == botpath.Manifest {
			m, err := manifest.Load(e.Path, e.Name)
			if err != nil {
				return nil, fmt.Errorf("engine %s is broken: %w", e.Name, err)
			}
			exe, err := m.Executable()
			if err != nil {
				return nil, fmt.Errorf("engine %s: %w", e.Name, err)
			}
			if err := add(dir, exe); err != nil {
				return nil, fmt.Errorf("engine %s: %w", e.Name, err)
			}
			continue
		}
		if err := add(dir, e.Path); err != nil {
			return nil, fmt.Errorf("bot %s: %w", e.Name, err)
		}
	}
	var written []string
	dirs := make([]string, 0, len(byDir))
	for d := range byDir {
		dirs = append(dirs, d)
	}
	sort.Strings(dirs)
	for _, d := range dirs {
		names := make([]string, 0, len(byDir[d]))
		for n := range byDir[d] {
			names = append(names, n)
		}
		sort.Strings(names)
		var b strings.Builder
		b.WriteString("# kinrow bots lock: SHA-256 of each bot's executable (kinrow bots lock; sha256sum -c checks it)\n")
		for _, n := range names {
			fmt.Fprintf(&b, "%s  %s\n", byDir[d][n], n)
		}
		path := filepath.Join(d, LockFile)
		if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
			return written, fmt.Errorf("write %s: %w", path, err)
		}
		written = append(written, path)
	}
	return written, nil
}
