package refkey

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/kinrow/kinrow/engine/record"
)

// The key is made at first use, mode 0600, with its public key file, and
// read back the same afterwards; hosts starting at once on an empty
// directory agree on one key.
func TestLoadMakesOneKey(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "kinrow")
	const hosts = 16
	keys := make([]*Key, hosts)
	errs := make([]error, hosts)
	var wg sync.WaitGroup
	for i := range hosts {
		wg.Add(1)
		go func() {
			defer wg.Done()
			keys[i], errs[i] = Load(dir)
		}()
	}
	wg.Wait()
	for i := range hosts {
		if errs[i] != nil {
			t.Fatal(errs[i])
		}
		if !bytes.Equal(keys[i].Private, keys[0].Private) {
			t.Fatalf("host %d made another key", i)
		}
	}
	st, err := os.Stat(filepath.Join(dir, KeyFile))
	if err != nil {
		t.Fatal(err)
	}
	if runtime.GOOS != "windows" && st.Mode().Perm() != 0o600 {
		t.Errorf("key file mode %v, want 0600", st.Mode().Perm())
	}
	ents, _ := os.ReadDir(dir)
	if len(ents) != 2 {
		t.Errorf("the directory holds %d files, want the key and its public file", len(ents))
	}
	again, err := Load(dir)
	if err != nil || !bytes.Equal(again.Private, keys[0].Private) {
		t.Fatalf("read back: %v", err)
	}
	trusted, err := ReadTrusted(filepath.Join(dir, PubFile))
	if err != nil || len(trusted) != 1 || !bytes.Equal(trusted[0], keys[0].Public()) {
		t.Fatalf("public key file: %v %v", trusted, err)
	}
	if !strings.Contains(keys[0].PublicText(), record.EncodeKey(keys[0].Public())) {
		t.Errorf("PublicText %q", keys[0].PublicText())
	}
}

func TestDir(t *testing.T) {
	t.Setenv(EnvDir, "/some/where")
	if d, err := Dir(); err != nil || d != "/some/where" {
		t.Errorf("Dir = %q, %v", d, err)
	}
	t.Setenv(EnvDir, "")
	t.Setenv("XDG_CONFIG_HOME", "/xdg")
	t.Setenv("HOME", "/home/u")
	if d, err := Dir(); runtime.GOOS == "linux" && (err != nil || d != "/xdg/kinrow") {
		t.Errorf("Dir = %q, %v; want /xdg/kinrow", d, err)
	}
}

// Files that are not keys, and a key others may read, are refused.
func TestRefusesBadFiles(t *testing.T) {
	dir := t.TempDir()
	k, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if runtime.GOOS != "windows" {
		os.Chmod(k.Path, 0o644)
		if _, err := Load(dir); err == nil || !strings.Contains(err.Error(), "chmod 600") {
			t.Errorf("a readable key: %v", err)
		}
	}
	write := func(name, data string) string {
		p := filepath.Join(dir, name)
		os.WriteFile(p, []byte(data), 0o600)
		return p
	}
	for _, tc := range []struct{ data, want string }{
		{"", "holds no key"},
		{"# only a comment\n", "holds no key"},
		{"not base64!\n", "key 1: key \"not base64!\" is not an ed25519 public key"},
		{"AAAA\n", "is not an ed25519 public key"},
		{record.EncodeKey(k.Public()) + "\nxyz\n", "key 2:"},
		{strings.Repeat("#", maxFile+1), "not a key file"},
	} {
		if _, err := ReadTrusted(write("t.pub", tc.data)); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("ReadTrusted(%.20q) = %v; want %q", tc.data, err, tc.want)
		}
	}
	bad := t.TempDir()
	os.WriteFile(filepath.Join(bad, KeyFile), []byte("short\n"), 0o600)
	if _, err := Load(bad); err == nil || !strings.Contains(err.Error(), "not an ed25519 seed") {
		t.Errorf("a bad key file: %v", err)
	}
}

// FuzzReadTrusted: a key file of any content is read or refused with an
// error naming the file, never a panic; every key it returns is a public
// key of the right size.
func FuzzReadTrusted(f *testing.F) {
	f.Add("# comment\n" + strings.Repeat("A", 43) + "=\n")
	f.Add("\n\n  " + strings.Repeat("/", 43) + "=  \n#\n")
	f.Add("AAAA")
	f.Add("")
	f.Fuzz(func(t *testing.T, data string) {
		path := filepath.Join(t.TempDir(), "k.pub")
		os.WriteFile(path, []byte(data), 0o600)
		keys, err := ReadTrusted(path)
		if err != nil {
			if !strings.Contains(err.Error(), path) {
				t.Fatalf("error without the file: %v", err)
			}
			return
		}
		if len(keys) == 0 {
			t.Fatal("no keys and no error")
		}
		for _, k := range keys {
			if len(k) != 32 {
				t.Fatalf("key of %d bytes", len(k))
			}
		}
	})
}
