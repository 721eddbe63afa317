// Package javabridge is the Go side of kinrow's Java bridge (docs/BOTS.md,
// "Course players in Java"): it finds bin/kinrow-java.jar, asks the bridge
// what a course player is (its framework, ConnectX or MNKGame, and the JDK's
// version) and writes the engine manifest (protocol = "kinrow") that runs
// the player through the bridge, each process in a working directory of its
// own, with the JVM options that keep the player from the bridge's key
// (GuardOptions; docs/BOTS.md, "What the bridge guarantees"). `kinrow
// java-manifest` is its command-line front.
package javabridge
