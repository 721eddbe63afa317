// Package botpath finds bots by name. A bot named NAME is an executable file
// kinrow-bot-NAME (a plugin) or an engine manifest NAME.engine.toml (an
// external engine, see host/manifest) in one of the directories of
// $KINROW_BOT_PATH (colon-separated, searched in order), then beside the
// kinrow executable. The first directory that has a bot wins, so a user's
// build shadows the installed one; within a directory the plugin wins over
// a manifest of the same name. Names are plain words: a name with a path separator or ".."
// is refused, so no bot name can reach outside those directories.
package botpath
