package connectx;

/** The state of a cell: the first player's stone, the second's, or free (test stand-in). */
public enum CXCellState { P1, P2, FREE }
