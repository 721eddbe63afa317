// Package ratings turns game records of any number of runs (matches, round
// robins, gauntlets, shards) into one rating list per rules string: the
// maximum-likelihood ratings of every bot under the Bradley–Terry model with
// draws and the first player's advantage that BayesElo uses.
//
// For a game where bot i moves first against bot j, with ratings r and the
// two global parameters adv (the first-move advantage) and draw (BayesElo's
// eloDraw), all in Elo, and F(x) = 1/(1+10^(−x/400)):
//
//	P(first player wins)  = F(r_i − r_j + adv − draw)
//	P(second player wins) = F(r_j − r_i − adv − draw)
//	P(draw)               = 1 − the two above
//
// The ratings, adv and draw all maximise the likelihood of the games
// (Newton's method on the concave log-likelihood, its steps and the
// covariance solved by gonum's LAPACK Cholesky); their 95% intervals are
// ±1.96 standard errors from the observed information (the inverse of the
// negated Hessian at the maximum). Ratings are relative: their mean is 0,
// or an anchor bot gets a chosen rating and every other interval is then
// relative to the anchor.
//
// Where the maximum lies at infinity (a bot that won or lost every game, the
// first player scoring every point, every game drawn) an optional prior of
// virtual games of an even result between every two bots that met keeps the
// estimates finite, as BayesElo's prior of virtual draws does; Options says
// when it is used, and each Group reports it.
//
// Read and ReadFile read the JSON-lines files that `kinrow match --out`
// writes; Fit rates the records; Report.WriteText and WriteStandings print
// tables.
package ratings
