// Package tb holds what the misbehaving test bots share: a bounded
// lifetime, a description, a legal player and a CPU-burning hang.
package tb
