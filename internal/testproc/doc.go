// Package testproc tells tests what became of a process they started or
// watched, from Linux's /proc: its state letter (running, sleeping,
// stopped, zombie) and whether it still runs. Where there is no /proc,
// every process reads as gone.
package testproc
