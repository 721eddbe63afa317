package mnkgame;

/** The state of a cell (test stand-in). */
public enum MNKCellState { P1, P2, FREE }
