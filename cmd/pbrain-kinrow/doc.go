// Command pbrain-kinrow is a Gomocup brain (the protocol of Piskvork and
// Gomocup's judge) playing with a kinrow bot: the same brain as
// `kinrow pbrain`, under a name managers look for. Run as pbrain-kinrow it
// plays the strongest installed bot that plays the board; installed (or
// copied) as pbrain-kinrow-NAME it plays bot NAME. `make` builds
// bin/pbrain-kinrow and one bin/pbrain-kinrow-NAME per bot.
//
// The bots are found at run time on $KINROW_BOT_PATH, then beside the
// executable (kinrow-bot-NAME), so a brain copied elsewhere needs its bots
// copied along or the path set. Managers pass no arguments; the flags
// (--bot, --bot-opt KEY=VALUE, --margin, --turn, --log-level) are for
// people. Logs go to stderr, never stdout.
package main
