// Package manifest reads engine manifests: NAME.engine.toml files in a bot
// directory that describe an external engine kinrow can play as a bot.
//
//	command  = ["./pbrain-rapfi"]          # argv; required
//	protocol = "gomocup"                   # "gomocup" or "kinrow"; required
//	rules    = ["gomoku", "mnk:20x20x5"]   # the games it plays; required
//	suspend  = true                        # SIGSTOP while the opponent thinks
//	strength = 50                          # for the choice of a default bot
//	tolerance = "1s"                       # gomocup: accepted past timeout_turn
//	network  = false                       # under the sandbox: the host's network
//	read     = ["weights"]                 # under the sandbox: more paths to read
//	workdir  = "manifest"                  # or "private": its own /tmp
//	[options]                              # passed to the engine
//	max_memory = 350000000
//
// command[0] that is an absolute path is used as is; one with a slash is
// relative to the manifest's directory; a bare name is the file of that name
// in the manifest's directory if there is one, and is otherwise looked up on
// $PATH (so "python3" works). The engine runs in the manifest's directory
// (workdir = "manifest", the default), or in its private writable /tmp
// (workdir = "private").
//
// Under the host's sandbox (host/procrun) an engine sees read-only the
// system directories, its manifest's directory, its executable's and the
// paths of read; and writable only its private /tmp. The paths its
// command's arguments name are not bound (host/enginebot): one outside the
// manifest's directory is seen only when read lists it. Load resolves the
// manifest's directory and each read path (links followed) and refuses one
// that resolves to what no box may see (procrun.CheckBind: /, /proc, /sys,
// /dev, a home directory, the host's working directory, the shared
// temporary directories, or a directory above them), naming the key, the
// path as written, what it resolves to and why. network = true gives it
// the host's network.
//
// protocol "gomocup" is the Gomocup brain protocol (protocol/gomocup); such
// an engine plays five in a row on m,n,k boards, so its rules must be
// mnk:RxCx5 with sides from 5. Its options are sent as INFO key value
// lines; the host sets timeout_turn, timeout_match, time_left and rule
// itself, so those are refused as options. suspend defaults to true.
// tolerance, a duration from "0s" to "1m" (gomocup only), is how long past
// a move's time its answer is still accepted, as Gomocup's managers add a
// tolerance to timeout_turn; unset, the host's default (a second) applies.
//
// protocol "kinrow" is the host's own text protocol (docs/PROTOCOL.md); its
// options are sent as kinrow-option KEY VALUE commands, so a value may not
// contain '#' (a comment in that protocol). suspend defaults to false.
//
// Option keys are words of letters, digits, '_', '-' and '.'; values are
// strings, numbers or booleans, without control characters. Unknown keys
// at the top level are refused, so a typo is never silently ignored. Every
// error names the manifest, the key and what is accepted.
package manifest
