package refkey

import (
	"bufio"
	"bytes"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/kinrow/kinrow/engine/record"
)

// EnvDir names the environment variable that, when set, is the directory
// of the key instead of the user's config directory.
const EnvDir = "KINROW_CONFIG_DIR"

// The files of the key in its directory.
const (
	// KeyFile holds the private key (its 32-byte seed in standard
	// base64, after a comment line), mode 0600.
	KeyFile = "referee.key"
	// PubFile holds the public key as records name it, after a comment
	// line: the file to copy to another host and give to --trust there.
	PubFile = "referee.pub"
)

// maxFile bounds what is read of a key file: a key is a line.
const maxFile = 64 << 10

// Dir is the directory of the referee's key: $KINROW_CONFIG_DIR when set,
// else kinrow in the user's config directory (os.UserConfigDir:
// $XDG_CONFIG_HOME or ~/.config on Linux, ~/Library/Application Support
// on macOS, %AppData% on Windows).
func Dir() (string, error) {
	if d := os.Getenv(EnvDir); d != "" {
		return d, nil
	}
	d, err := os.UserConfigDir()
	if err != nil {
		return "", fmt.Errorf("referee key: no config directory (set $%s): %w", EnvDir, err)
	}
	return filepath.Join(d, "kinrow"), nil
}

// Key is the referee's key.
type Key struct {
	// Path is the private key's file.
	Path    string
	Private ed25519.PrivateKey
}

// Public returns the public key.
func (k *Key) Public() ed25519.PublicKey { return k.Private.Public().(ed25519.PublicKey) }

// PublicText is the public key file's content: a comment line and the key
// as records name it (record.EncodeKey).
func (k *Key) PublicText() string {
	return fmt.Sprintf("# kinrow referee key (ed25519); give this file to --trust to read records signed by it\n%s\n",
		record.EncodeKey(k.Public()))
}

// Load reads the key in dir, making it first when there is none (also its
// public key file). Two hosts starting at once agree on one key: each
// writes its own key to a file of its own and links it to KeyFile, which
// only the first link makes; the other reads that one.
func Load(dir string) (*Key, error) {
	path := filepath.Join(dir, KeyFile)
	k, err := read(path)
	if err == nil || !errors.Is(err, fs.ErrNotExist) {
		return k, err
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("referee key: %w", err)
	}
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		return nil, fmt.Errorf("referee key: %w", err)
	}
	text := "# kinrow referee private key (ed25519 seed): keep it to yourself; whoever holds it signs records as this host\n" +
		base64.StdEncoding.EncodeToString(priv.Seed()) + "\n"
	if err := createOnce(path, []byte(text), 0o600); err != nil {
		return nil, err
	}
	k, err = read(path) // ours, or the key another host linked first
	if err != nil {
		return nil, err
	}
	if err := createOnce(filepath.Join(dir, PubFile), []byte(k.PublicText()), 0o644); err != nil {
		return nil, err
	}
	return k, nil
}

// createOnce makes path with data and mode unless it exists, atomically:
// the data is written and synced to a temporary file of the same
// directory, then linked to path (a link never replaces a file).
func createOnce(path string, data []byte, mode os.FileMode) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return fmt.Errorf("referee key: %w", err)
	}
	defer os.Remove(tmp.Name())
	err = tmp.Chmod(mode)
	if err == nil {
		_, err = tmp.Write(data)
	}
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("referee key: write %s: %w", tmp.Name(), err)
	}
	err = os.Link(tmp.Name(), path)
	if err == nil || errors.Is(err, fs.ErrExist) {
		return nil
	}
	// A file system without hard links: created exclusively instead (a
	// host reading it at that very moment may find it short, and says so).
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, mode)
	if errors.Is(err, fs.ErrExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("referee key: %w", err)
	}
	_, err = f.Write(data)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("referee key: write %s: %w", path, err)
	}
	return nil
}

// read reads a private key file.
func read(path string) (*Key, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("referee key: %w", err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("referee key: %w", err)
	}
	if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("referee key: %s is not a regular file", path)
	}
	if runtime.GOOS != "windows" && st.Mode().Perm()&0o077 != 0 {
		return nil, fmt.Errorf("referee key: %s has mode %v: others may read it and sign records as this host (chmod 600 %s)",
			path, st.Mode().Perm(), path)
	}
	lines, err := keyLines(f, path)
	if err != nil {
		return nil, err
	}
	if len(lines) != 1 {
		return nil, fmt.Errorf("referee key: %s: want one line with the key's seed in base64, found %d", path, len(lines))
	}
	seed, err := base64.StdEncoding.Strict().DecodeString(lines[0])
	if err != nil || len(seed) != ed25519.SeedSize {
		return nil, fmt.Errorf("referee key: %s: not an ed25519 seed (%d bytes in standard base64)", path, ed25519.SeedSize)
	}
	return &Key{Path: path, Private: ed25519.NewKeyFromSeed(seed)}, nil
}

// keyLines returns the lines of a key file that are not blank or comments
// (#), trimmed.
func keyLines(r io.Reader, name string) ([]string, error) {
	data, err := io.ReadAll(io.LimitReader(r, maxFile+1))
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", name, err)
	}
	if len(data) > maxFile {
		return nil, fmt.Errorf("%s: over %d bytes: not a key file", name, maxFile)
	}
	var out []string
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		l := strings.TrimSpace(sc.Text())
		if l != "" && !strings.HasPrefix(l, "#") {
			out = append(out, l)
		}
	}
	return out, nil
}

// ReadTrusted reads a public key file (what `kinrow key show` prints, or a
// host's PubFile): one or more keys as records name them, one a line;
// blank lines and lines starting with # are left out.
func ReadTrusted(path string) ([]ed25519.PublicKey, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("--trust: %w", err)
	}
	defer f.Close()
	lines, err := keyLines(f, path)
	if err != nil {
		return nil, fmt.Errorf("--trust: %w", err)
	}
	if len(lines) == 0 {
		return nil, fmt.Errorf("--trust: %s holds no key (want the lines kinrow key show prints)", path)
	}
	var keys []ed25519.PublicKey
	for i, l := range lines {
		k, err := record.ParseKey(l)
		if err != nil {
			return nil, fmt.Errorf("--trust: %s: key %d: %w", path, i+1, err)
		}
		keys = append(keys, k)
	}
	return keys, nil
}
