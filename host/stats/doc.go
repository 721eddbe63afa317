// Package stats holds the statistics of a match between two bots, as chess
// engine testers expect them from cutechess-cli and fastchess: the score,
// the draw ratio, the Elo difference with its 95% interval in two models,
// the likelihood of superiority, pentanomial counts over game pairs (each
// opening played with colours swapped, which matters in k-in-a-row games
// where the first player's advantage is large), and the sequential
// probability ratio test (SPRT) that stops a match once one hypothesis is
// accepted.
//
// # Elo models
//
// Logistic Elo (EloFromScore, WDL.Elo, Penta.Elo) maps a mean score s to
// 400·log10(s/(1−s)): the classical Elo difference, the one cutechess-cli
// prints and fishtest states its SPRT bounds in. It says how often one side
// scores against the other, but not how hard that is to measure: with many
// draws, or pairs that nearly always split 1–1, the same logistic Elo comes
// with far less noise.
//
// Normalized Elo (nElo; WDL.NElo, Penta.NElo) divides the score's distance
// from ½ by its standard deviation per game σ: nElo = (s−½)/σ·800/ln 10. The
// factor makes nElo equal logistic Elo near 0 for games without draws. For
// pairs, a game's σ is √2 times a pair score's (a pair holds two games, the
// pair score being their mean). nElo measures how quickly a match tells the
// sides apart, whatever the draw ratio or the first player's advantage,
// which is why fastchess uses it for its SPRT by default; 1 nElo costs the
// same number of games to detect in any game, roughly.
//
// # Intervals
//
// The 95% interval of logistic Elo is the normal interval of the mean score,
// s ± 1.96·σ/√n, mapped through the Elo function: σ per game from W/D/L (the
// trinomial model, as cutechess-cli) or σ per pair from the pentanomial
// counts (as fastchess; it accounts for the correlation of the two games of
// a pair, which the trinomial model ignores). The interval of nElo is that
// of the t-value t = (s−½)/σ with σ estimated too: its variance is
// (1 − γ·t + (κ−1)·t²/4)/n for skewness γ and kurtosis κ (the delta method;
// fishtest's test pages compute it so). fastchess's ±1.96·σ/√n mapped with σ
// fixed is the same at t = 0 but contained the true nElo in only 74% of
// simulated matches of 1,000 games at an nElo of about 330. The tests simulate thousands of matches
// of known Elo and check that every interval holds it in 95% of them.
//
// # SPRT
//
// SPRT is the generalized SPRT on game pairs that fishtest and fastchess run
// (M. Van den Bergh's notes on the GSPRT for multinomial results). With p̂
// the observed frequencies of the five pair scores 0, ¼, ½, ¾, 1 and N
// pairs, the log-likelihood ratio is N·Σ p̂_i·ln(p1_i/p0_i), where p0 and p1
// are the most likely distributions of the pair score under H0 and H1:
//
//   - model "logistic" (fishtest's LLR_logistic, fastchess's logistic
//     model): those whose expected score is 1/(1+10^(−elo/400)) for elo0 and
//     elo1, found in closed form up to one root (fishtest's MLE_expected);
//   - model "normalized", the default (fishtest's LLR_normalized, fastchess's
//     default): those whose t-value (μ−½)/σ per pair is √2·nElo/(800/ln 10)
//     for elo0 and elo1, found by a fixed-point iteration (fishtest's
//     MLE_t_value), with fishtest's closed-form approximation
//     (LLR_normalized_alt) for hypotheses so far from the data, hundreds of
//     nElo, that the iteration has no solution.
//
// An outcome not seen yet counts as 0.001 pairs in p̂, as in fishtest and
// fastchess, so that the most likely distributions may give it some
// probability. H1 is accepted once the LLR reaches ln((1−β)/α), H0 once it
// falls to ln(β/(1−α)).
//
// While every pair so far has the same score the pairs' variance is zero and
// the LLR is 0: no decision, however many pairs. (fastchess would accept H1
// after 74 pairs all 2–0 at elo0=0, elo1=10, 104 in the logistic model;
// kinrow plays on to the match's last game.) An earlier normal approximation whose zero variance
// was regularised accepted H1 or H0 after one pair. The tests run 2,000
// simulated SPRTs at elo0 and 2,000 at elo1 for each model, from pentanomial
// distributions of known Elo, and check that H1 is accepted at elo0 in at
// most α of them and H0 at elo1 in at most β, up to sampling error.
package stats
