// Command kinrow-bot-mics is a kinrow bot for the boards too large for a
// full-width search: m,n,k up to 70×70×10 and Connect-X up to 38×58×12 (it
// accepts any board up to 128×128). It searches with a budgeted alpha-beta
// that explores, at every node, only the l cells ranked best by the MICS
// heuristic (package mics).
//
// The heuristic follows Hayes & Loge, "Developing a Memory Efficient
// Algorithm for Playing m,n,k Games" (Midwest Instruction and Computing
// Symposium, MICS 2016 — the symposium is where the name comes from), as
// extended by a 2022 course report (Huang & Spadaccini, University of
// Bologna) that reads the name as "Minimum Incomplete Cell Set": every free
// cell is valued by how close the K-windows through it are to completion for
// both sides, and two classes rank above any such value: a cell that
// completes a window (a win, or the block of the opponent's win) and a cell
// that makes two windows each one stone from completion (a double threat).
//
// At the start of a game the bot measures how many nodes per second this
// machine searches (for the per-move time, at most 100 ms); every move's node
// budget is that speed times the time, shared over the root moves best first.
// It answers before the move's deadline whatever happens, with the best move
// found so far.
//
// Options (see kinrow-bot-mics --help):
//
//	branching=1..64  cells searched per node (default: 8 to 12 by the node
//	                 budget; every cell on boards of 16 cells or less, every
//	                 column on Connect-X up to 12 columns)
//	depth=1..64      fixed depth limit in plies (default: adapted to the
//	                 budget, deepened while time remains)
//	seed=N           tie-break between cells of equal value (default: time-based)
//
// An unknown option or a value out of range fails the load with a message
// naming the option and its range, e.g. "option branching=0 out of range
// 1..64". Build it with `make` (bin/kinrow-bot-mics) and load it in the host
// with `kinrow-load x mics branching=10`. More in README.md.
package main
