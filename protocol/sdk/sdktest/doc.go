// Package sdktest holds the checks that bots' tests run on their SDK
// adapter (sdk.Adapt): that NewGame refuses bad options with a clear
// error, and that the bot plays legal moves within its time, move after
// move, for the rules it declares. It calls the adapter in process, as the
// host's plugin would over gRPC.
package sdktest
