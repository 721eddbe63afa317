package match

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/kinrow/kinrow/engine"
	"github.com/kinrow/kinrow/engine/record"
	"github.com/kinrow/kinrow/host/recordfmt"
)

// GameExport writes every finished game of a match in the formats of
// --out-format beside the --out records, as games end: FILE.txt (one
// move string a game, an openings file), FILE.sgf (one SGF collection)
// and FILE.psq/ (a PSQ file a game, as Piskvork keeps them), FILE being
// --out without its extension.
type GameExport struct {
	formats []string
	base    string
}

// exportFormats are the formats --out-format accepts.
var exportFormats = []string{"text", "sgf", "psq"}

// NewGameExport checks --out-format's list against the rules and the
// files: a file that already holds games is refused unless the run
// resumes, as --out is.
func NewGameExport(list, out string, rules engine.Rules, resume bool) (*GameExport, error) {
	if out == "" {
		return nil, errors.New("--out-format needs --out (the files are named after it)")
	}
	e := &GameExport{base: strings.TrimSuffix(out, filepath.Ext(out))}
	for _, f := range strings.Split(list, ",") {
		f = strings.TrimSpace(f)
		switch {
		case !slices.Contains(exportFormats, f):
			return nil, fmt.Errorf("--out-format %q: accepted are %s (comma-separated)", f, strings.Join(exportFormats, ", "))
		case f != "text" && !rules.Game().Holds(f):
			return nil, fmt.Errorf("--out-format %s: %s holds m,n,k games only, not %s (text holds Connect-X)", f, strings.ToUpper(f), rules)
		}
		path := e.path(f, nil)
		if !resume {
			if err := RefuseNonEmpty(path, "give --resume to add to it, or another --out"); err != nil {
				return nil, fmt.Errorf("--out-format %s: %w", f, err)
			}
		}
		e.formats = append(e.formats, f)
	}
	return e, nil
}

// Hook chains e onto cfg.OnGame: every finished game is written; a game
// that cannot be is logged (it is in --out all the same).
func (e *GameExport) Hook(cfg *Config) {
	onGame := cfg.OnGame
	cfg.OnGame = func(done, total int, rec *record.Record) {
		if onGame != nil {
			onGame(done, total, rec)
		}
		if err := e.Write(rec); err != nil {
			cfg.Logger.Error("--out-format: the game is in --out, not in the exported files", "round", rec.Round, "game", rec.Game, "error", err)
		}
	}
}

// path is where format f of rec goes (rec nil: the file or directory).
func (e *GameExport) path(f string, rec *record.Record) string {
	switch f {
	case "text":
		return e.base + ".txt"
	case "sgf":
		return e.base + ".sgf"
	}
	dir := e.base + ".psq"
	if rec == nil {
		return dir
	}
	return filepath.Join(dir, fmt.Sprintf("round%d-game%d.psq", rec.Round, rec.Game))
}

// Write adds rec to every format's file.
func (e *GameExport) Write(rec *record.Record) error {
	g, err := recordfmt.FromRecord(rec)
	if err != nil {
		return err
	}
	for _, f := range e.formats {
		var b bytes.Buffer
		switch f {
		case "text":
			err = recordfmt.WriteText(&b, fmt.Sprintf("round %d game %d", rec.Round, rec.Game), g)
		case "sgf":
			err = recordfmt.WriteSGF(&b, g)
		case "psq":
			err = recordfmt.WritePSQ(&b, g)
		}
		if err != nil {
			return fmt.Errorf("%s: %w", f, err)
		}
		path := e.path(f, rec)
		flags := os.O_WRONLY | os.O_CREATE | os.O_APPEND
		if f == "psq" {
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				return err
			}
			flags = os.O_WRONLY | os.O_CREATE | os.O_TRUNC // one game a file
		}
		file, err := os.OpenFile(path, flags, 0o644)
		if err != nil {
			return err
		}
		_, err = file.Write(b.Bytes())
		if cerr := file.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return fmt.Errorf("write %s: %w", path, err)
		}
	}
	return nil
}
