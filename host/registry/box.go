package registry

import (
	"fmt"
	"path/filepath"

	"github.com/kinrow/kinrow/host/botpath"
	"github.com/kinrow/kinrow/host/enginebot"
	"github.com/kinrow/kinrow/host/manifest"
	"github.com/kinrow/kinrow/host/procrun"
)

// BoxInfo is what the box of a bot would hold, as its start makes it
// (kinrow doctor --bot).
type BoxInfo struct {
	// Kind is botpath.Plugin or botpath.Manifest; Path the bot's
	// executable or manifest.
	Kind botpath.Kind
	Path string
	// Exe is the program run.
	Exe string
	// Sandbox is the box's procrun.Sandbox; View lists what it sees.
	Sandbox procrun.Sandbox
	// Memory is the bot's memory cap in bytes (0: none).
	Memory int64
	// Outside lists the paths an engine's command names outside its
	// manifest's directory and read list: not in its box.
	Outside []string
}

// View is what the bot's box sees (procrun.Sandbox.View).
func (b BoxInfo) View() (procrun.BoxView, error) { return b.Sandbox.View(b.Exe, b.Memory) }

// Box describes the box bot name would start in under the registry's
// settings, without starting it: an engine's from its manifest (a broken
// one is an error, as at its start), a plugin's with its socket
// directory, made when it starts, as a pattern.
func (l *Registry) Box(name string) (BoxInfo, error) {
	e, err := l.cfg.Finder.Lookup(name)
	if err != nil {
		return BoxInfo{}, err
	}
	c := l.cfg.Containment
	if e.Kind != botpath.Manifest {
		return BoxInfo{Kind: e.Kind, Path: e.Path, Exe: e.Path, Memory: c.Memory, Sandbox: procrun.Sandbox{
			Mode: c.Sandbox, Network: c.Network, Deny: l.cfg.Deny,
			Private: []string{filepath.Join(l.SocketDir(), "plugin-dir*")}}}, nil
	}
	m, err := manifest.Load(e.Path, e.Name)
	if err != nil {
		return BoxInfo{}, fmt.Errorf("engine %s is broken: %w", e.Name, err)
	}
	exe, err := m.Executable()
	if err != nil {
		return BoxInfo{}, fmt.Errorf("engine %s: %w", e.Name, err)
	}
	argv := append([]string{exe}, m.Command[1:]...)
	memory := m.MaxMemory
	if memory <= 0 {
		memory = c.Memory
	}
	return BoxInfo{Kind: e.Kind, Path: e.Path, Exe: exe, Memory: memory, Outside: enginebot.OutsidePaths(m, argv),
		Sandbox: enginebot.Sandbox(m, argv, enginebot.Config{Sandbox: c.Sandbox, Network: c.Network, Deny: l.cfg.Deny})}, nil
}
