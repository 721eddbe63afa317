package javabridge

import (
	"context"
	"os"
	"strings"
	"time"

	"github.com/kinrow/kinrow/host/procrun"
)

// Request is what kinrow java-manifest asks for: the player and the
// manifest's settings, as given on its command line ("" and zero values
// for the defaults).
type Request struct {
	// ClassPath is colon-separated (the course's classes and the
	// player's); Player the player's class.
	ClassPath, Player string
	// Name defaults to DefaultName of the class; Java to FindJava; Jar to
	// FindJar beside the running executable.
	Name, Java, Jar string
	Rules           []string // blank entries are skipped
	JVMOptions      []string
	Fresh           bool
	Strength        int
	// Sandbox is how the probe (it runs the player's class) is held.
	Sandbox procrun.SandboxMode
}

// ProbeTimeout bounds the probe's JVM start.
const ProbeTimeout = time.Minute

// MakeManifest probes the player of r through the bridge (one JVM start)
// and returns its engine manifest.
func MakeManifest(ctx context.Context, r Request) ([]byte, error) {
	classPath, err := ClassPath(r.ClassPath)
	if err != nil {
		return nil, err
	}
	if r.Java == "" {
		if r.Java, err = FindJava(); err != nil {
			return nil, err
		}
	}
	if r.Jar == "" {
		exe, _ := os.Executable()
		if r.Jar, err = FindJar(exe); err != nil {
			return nil, err
		}
	}
	ctx, cancel := context.WithTimeout(ctx, ProbeTimeout)
	defer cancel()
	p, err := Probe(ctx, r.Java, r.Jar, classPath, r.Player, r.Sandbox)
	if err != nil {
		return nil, err
	}
	cfg := Config{Name: r.Name, Java: r.Java, Jar: r.Jar, ClassPath: classPath, Player: p,
		JVMOptions: r.JVMOptions, Fresh: r.Fresh, Strength: r.Strength}
	if cfg.Name == "" {
		cfg.Name = DefaultName(p.Class)
	}
	for _, rules := range r.Rules {
		if rules = strings.TrimSpace(rules); rules != "" {
			cfg.Rules = append(cfg.Rules, rules)
		}
	}
	return Manifest(cfg)
}
