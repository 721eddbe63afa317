package main

import (
	"crypto/ed25519"
	"fmt"
	"io"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/kinrow/kinrow/engine/record"
	"github.com/kinrow/kinrow/host/refkey"
)

const keyLong = `The referee's key: every record kinrow match writes is signed with it, and
ratings, merge, match --resume and view trust it. It is made at first use in
$KINROW_CONFIG_DIR, else kinrow/ in the user's config directory
($XDG_CONFIG_HOME or ~/.config on Linux). "kinrow key show" prints the public
key file: save it on another host and give it to --trust there to read the
records this host signed. See docs/MATCHES.md.`

// keyCommand is kinrow key: show prints the public key file, path where
// the key is.
func keyCommand(e env) *cobra.Command {
	c := &cobra.Command{Use: "key", Short: "the referee's key that signs records (docs/MATCHES.md)", Long: keyLong,
		Args: cobra.NoArgs, SilenceErrors: true, SilenceUsage: true}
	show := newCommand("show", "print the public key file (for --trust on another host)", keyLong, cobra.NoArgs,
		func(c *cobra.Command, _ []string) error {
			k, err := loadKey()
			if err != nil {
				return err
			}
			_, err = io.WriteString(e.stdout, k.PublicText())
			return err
		})
	path := newCommand("path", "print where the private key is", keyLong, cobra.NoArgs,
		func(c *cobra.Command, _ []string) error {
			k, err := loadKey()
			if err != nil {
				return err
			}
			_, err = fmt.Fprintln(e.stdout, k.Path)
			return err
		})
	c.AddCommand(show, path)
	return c
}

// loadKey loads the referee's key, making it at first use.
func loadKey() (*refkey.Key, error) {
	dir, err := refkey.Dir()
	if err != nil {
		return nil, err
	}
	return refkey.Load(dir)
}

// trustFlags are the flags of the subcommands that read records: which
// signatures they trust and what they do with a record that fails.
type trustFlags struct {
	trust         []string
	allowUnsigned bool
	skipInvalid   bool
}

// register defines --trust, --allow-unsigned and --skip-invalid (unless
// skip is false: ratings defines its own).
func (t *trustFlags) register(fs *pflag.FlagSet, skip bool) {
	fs.StringArrayVar(&t.trust, "trust", nil, "also trust records signed by the keys of `KEYFILE` (what kinrow key show prints on the host that played them; repeatable)")
	fs.BoolVar(&t.allowUnsigned, "allow-unsigned", false, "accept records that carry no signature (written before kinrow signed records), counted on stderr")
	if skip {
		fs.BoolVar(&t.skipInvalid, "skip-invalid", false, "leave out records that are not valid (unsigned, badly signed, by an untrusted key, a game id seen before, a line over the bound), each named on stderr and counted, instead of refusing the file")
	}
}

// trusted are the keys records may be signed by: this host's (made at
// first use) and those of the --trust files.
func (t *trustFlags) trusted() ([]ed25519.PublicKey, error) {
	k, err := loadKey()
	if err != nil {
		return nil, err
	}
	keys := []ed25519.PublicKey{k.Public()}
	for _, path := range t.trust {
		more, err := refkey.ReadTrusted(path)
		if err != nil {
			return nil, usageError{err}
		}
		keys = append(keys, more...)
	}
	return keys, nil
}

// verifier is the verifier of one run (trusted).
func (t *trustFlags) verifier() (*record.Verifier, error) {
	keys, err := t.trusted()
	if err != nil {
		return nil, err
	}
	return record.NewVerifier(keys, t.allowUnsigned), nil
}

// unsignedNote says on w how many unsigned records --allow-unsigned let in.
func unsignedNote(w io.Writer, c *cobra.Command, n int) {
	if n > 0 {
		fmt.Fprintf(w, "%s: %d unsigned %s accepted by --allow-unsigned\n", c.CommandPath(), n, plural(n, "record", "records"))
	}
}

// plural is one or many by n.
func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
