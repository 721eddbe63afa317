// Package gtp implements the line framing of GTP v2 (the Go Text Protocol,
// draft 2 by Gunnar Farnebäck) as used by kinrow's text protocol, for both
// ends of the pipe. An engine reads commands with a [Reader] and answers them
// with a [Writer]; a controller sends commands with [WriteCommand] (or the
// small [Client]) and reads answers with a [ResponseReader]. Input is
// preprocessed as the draft prescribes: CR and other control characters
// except HT and LF are dropped, everything from '#' to the end of the line is
// a comment, HT becomes a space and lines that end up empty or blank are
// skipped; tokens are separated by runs of spaces. An optional leading
// all-digit token is the command id, echoed in the answer ("=7 ok",
// "?7 unknown command"). Bytes that are not valid UTF-8 are passed through
// unchanged (never replaced with U+FFFD), so the package never fails or
// panics on binary garbage, and it bounds the memory spent on any single
// line ([MaxLineBytes]) or answer ([MaxResponseBytes]). A controller can
// also require every answer to carry its command's id, counted from a
// random start ([Client.RequireIDs]), and take only answers the engine
// signed with a key it was given ([Client.Authenticate], [AnswerKey]), so
// that nothing else writing on the engine's output passes for it. The
// package knows nothing about the meaning of commands.
package gtp
