package mnkgame;

/** The state of a game (test stand-in). */
public enum MNKGameState { OPEN, WINP1, WINP2, DRAW }
