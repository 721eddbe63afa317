package botpath

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func writeBot(t *testing.T, dir, name string, mode os.FileMode) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, name), []byte("#!/bin/sh\n"), mode); err != nil {
		t.Fatal(err)
	}
}

func TestFindAndList(t *testing.T) {
	user, installed := t.TempDir(), t.TempDir()
	writeBot(t, user, "kinrow-bot-random", 0o755)
	writeBot(t, installed, "kinrow-bot-random", 0o755)
	writeBot(t, installed, "kinrow-bot-alphabeta", 0o755)
	writeBot(t, installed, "kinrow-bot-notexec", 0o644)
	writeBot(t, installed, "README", 0o755)
	f := Default(user+"::"+filepath.Join(user, "missing"), filepath.Join(installed, "kinrow"))

	p, err := f.Find("random")
	if err != nil || p != filepath.Join(user, "kinrow-bot-random") {
		t.Errorf("Find(random) = %q, %v; want the user's copy", p, err)
	}
	if p, err := f.Find("alphabeta"); err != nil || filepath.Dir(p) != installed {
		t.Errorf("Find(alphabeta) = %q, %v", p, err)
	}
	var names []string
	for _, e := range f.List() {
		names = append(names, e.Name)
	}
	if got := strings.Join(names, ","); got != "alphabeta,random" {
		t.Errorf("List = %s", got)
	}
}

func TestFindRefusesBadNames(t *testing.T) {
	dir := t.TempDir()
	writeBot(t, dir, "kinrow-bot-random", 0o755)
	f := Finder{Dirs: []string{dir}}
	tests := map[string]string{
		"../../bin/sh": "path separator",
		"..":           "path separator",
		"a/b":          "path separator",
		"":             "empty bot name",
		"x y":          "use letters",
		"sleeper":      "unknown bot",
		"notexec":      "unknown bot",
	}
	for name, want := range tests {
		_, err := f.Find(name)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Find(%q) error = %v; want %q", name, err, want)
		}
	}
	_, err := f.Find("sleeper")
	if !errors.Is(err, ErrNotFound) || !strings.Contains(err.Error(), "bots found: random") {
		t.Errorf("not-found error = %v; want it to list the bots found", err)
	}
}

func TestManifests(t *testing.T) {
	user, installed := t.TempDir(), t.TempDir()
	writeBot(t, user, "rapfi.engine.toml", 0o644)      // a manifest need not be executable
	writeBot(t, installed, "rapfi.engine.toml", 0o644) // shadowed by the user's
	writeBot(t, installed, "kinrow-bot-both", 0o755)   // the plugin wins in one directory
	writeBot(t, installed, "both.engine.toml", 0o644)  //
	writeBot(t, installed, "py.engine.toml", 0o644)    //
	writeBot(t, installed, "bad name.engine.toml", 0o644)
	if err := os.Mkdir(filepath.Join(installed, "dir.engine.toml"), 0o755); err != nil {
		t.Fatal(err)
	}
	f := Finder{Dirs: []string{user, installed}}
	var got []string
	for _, e := range f.List() {
		got = append(got, e.Name+":"+e.Kind.String()+":"+filepath.Base(filepath.Dir(e.Path)))
	}
	want := []string{"both:plugin:" + filepath.Base(installed), "py:engine manifest:" + filepath.Base(installed), "rapfi:engine manifest:" + filepath.Base(user)}
	if strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("List = %v; want %v", got, want)
	}
	tests := []struct {
		name string
		kind Kind
		path string
	}{
		{"rapfi", Manifest, filepath.Join(user, "rapfi.engine.toml")},
		{"both", Plugin, filepath.Join(installed, "kinrow-bot-both")},
		{"py", Manifest, filepath.Join(installed, "py.engine.toml")},
	}
	for _, tc := range tests {
		e, err := f.Lookup(tc.name)
		if err != nil || e.Kind != tc.kind || e.Path != tc.path || e.Name != tc.name {
			t.Errorf("Lookup(%s) = %+v, %v", tc.name, e, err)
		}
		if p, err := f.Find(tc.name); err != nil || p != tc.path {
			t.Errorf("Find(%s) = %q, %v", tc.name, p, err)
		}
	}
	if _, err := f.Lookup("dir"); err == nil || !strings.Contains(err.Error(), "nor dir.engine.toml") {
		t.Errorf("Lookup(dir) = %v; want not found, naming both files", err)
	}
}
