// Package stats holds the statistics of a match between two bots, as chess
// engine testers expect them from cutechess-cli and fastchess: the score,
// the Elo difference with its 95% interval, the likelihood of superiority,
// pentanomial counts over game pairs (each opening played with colours
// swapped, which matters in k-in-a-row games where the first player's
// advantage is large), and the sequential probability ratio test (SPRT) that
// stops a match once one hypothesis is accepted.
package stats
