// Package registry knows the bots a host can run: it finds them on the bot
// path (host/botpath: kinrow-bot-NAME plugins and NAME.engine.toml
// manifests, Java players among the latter), lists them (Names), checks
// them against the lock file beside them (LockFile, --verify-bots,
// WriteLocks for kinrow bots lock), describes them (Info: a plugin is
// started once to ask, cached per executable; an engine from its manifest),
// says whether one plays some rules (CheckPlays) and chooses the default
// bot (Default: the strongest that plays the rules, waiting at most the
// probe timeout for the bots asked in parallel).
//
// It starts what it finds through the one runner of each kind, both on
// host/procrun: plugins through host/pluginbot's Runner, engines through
// host/enginebot. Load and LoadCapped return the host's one bot contract,
// referee.Player; Start returns a plugin's *pluginbot.Bot. Close stops every
// bot and engine still running.
package registry
