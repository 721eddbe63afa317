package connectx;

/** The state of a game (test stand-in). */
public enum CXGameState { OPEN, WINP1, WINP2, DRAW }
