package connectx;

import java.util.ArrayList;
import java.util.List;

/**
 * A ConnectX board of M rows (row 0 at the top) and N columns, X in a row to win
 * (test stand-in written from the course framework's public contract).
 */
public class CXBoard {
    public final int M;
    public final int N;
    public final int X;
    private final CXCellState[][] B;
    private final int[] RP; // the row the next stone of each column lands in
    private final List<CXCell> MC = new ArrayList<>();
    private CXGameState state = CXGameState.OPEN;

    public CXBoard(int M, int N, int X) {
        if (M <= 0 || N <= 0 || X <= 0 || (X > M && X > N)) {
            throw new IllegalArgumentException("bad board " + M + "x" + N + "x" + X);
        }
        this.M = M;
        this.N = N;
        this.X = X;
        B = new CXCellState[M][N];
        RP = new int[N];
        reset();
    }

    public void reset() {
        for (CXCellState[] row : B) {
            java.util.Arrays.fill(row, CXCellState.FREE);
        }
        java.util.Arrays.fill(RP, M - 1);
        MC.clear();
        state = CXGameState.OPEN;
    }

    public CXCellState cellState(int i, int j) {
        return B[i][j];
    }

    public boolean fullColumn(int col) {
        return RP[col] < 0;
    }

    public CXGameState gameState() {
        return state;
    }

    public int currentPlayer() {
        return MC.size() % 2;
    }

    public int numOfMarkedCells() {
        return MC.size();
    }

    public CXCell getLastMove() {
        return MC.isEmpty() ? null : MC.get(MC.size() - 1);
    }

    public CXCell[] getMarkedCells() {
        return MC.toArray(new CXCell[0]);
    }

    public Integer[] getAvailableColumns() {
        List<Integer> free = new ArrayList<>();
        for (int j = 0; j < N; j++) {
            if (RP[j] >= 0) {
                free.add(j);
            }
        }
        return free.toArray(new Integer[0]);
    }

    /** Drops a stone of the side to move into col and returns the game's state. */
    public CXGameState markColumn(int col) throws IndexOutOfBoundsException, IllegalStateException {
        if (state != CXGameState.OPEN) {
            throw new IllegalStateException("game ended");
        }
        if (col < 0 || col >= N) {
            throw new IndexOutOfBoundsException("column " + col + " off the board");
        }
        if (RP[col] < 0) {
            throw new IllegalStateException("column " + col + " is full");
        }
        CXCellState s = currentPlayer() == 0 ? CXCellState.P1 : CXCellState.P2;
        int i = RP[col]--;
        B[i][col] = s;
        MC.add(new CXCell(i, col, s));
        if (wins(i, col, s)) {
            state = s == CXCellState.P1 ? CXGameState.WINP1 : CXGameState.WINP2;
        } else if (MC.size() == M * N) {
            state = CXGameState.DRAW;
        }
        return state;
    }

    public void unmarkColumn() {
        if (MC.isEmpty()) {
            throw new IllegalStateException("no move to undo");
        }
        CXCell c = MC.remove(MC.size() - 1);
        B[c.i][c.j] = CXCellState.FREE;
        RP[c.j]++;
        state = CXGameState.OPEN;
    }

    public CXBoard copy() {
        CXBoard b = new CXBoard(M, N, X);
        for (CXCell c : MC) {
            b.markColumn(c.j);
        }
        return b;
    }

    private boolean wins(int i, int j, CXCellState s) {
        int[][] dirs = {{0, 1}, {1, 0}, {1, 1}, {1, -1}};
        for (int[] d : dirs) {
            int n = 1;
            for (int sign = -1; sign <= 1; sign += 2) {
                int r = i + sign * d[0], c = j + sign * d[1];
                while (r >= 0 && r < M && c >= 0 && c < N && B[r][c] == s) {
                    n++;
                    r += sign * d[0];
                    c += sign * d[1];
                }
            }
            if (n >= X) {
                return true;
            }
        }
        return false;
    }
}
