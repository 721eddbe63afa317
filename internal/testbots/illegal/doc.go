// Command illegal is a test bot that answers an illegal move:
// kind=occupied|full|offboard|garbage. occupied and full pick an occupied
// cell or a full column, whichever the rules have, and fall back to
// offboard when there is none; garbage answers "zz!9" at the wire level.
package main
