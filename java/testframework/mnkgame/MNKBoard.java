package mnkgame;

import java.util.ArrayList;
import java.util.List;

/**
 * An m,n,k board of M rows (row 0 at the top) and N columns, K in a row to win
 * (test stand-in written from the course framework's public contract).
 */
public class MNKBoard {
    public final int M;
    public final int N;
    public final int K;
    private final MNKCellState[][] B;
    private final List<MNKCell> MC = new ArrayList<>();
    private MNKGameState state = MNKGameState.OPEN;

    public MNKBoard(int M, int N, int K) {
        if (M <= 0 || N <= 0 || K <= 0) {
            throw new IllegalArgumentException("bad board " + M + "x" + N + "x" + K);
        }
        this.M = M;
        this.N = N;
        this.K = K;
        B = new MNKCellState[M][N];
        for (MNKCellState[] row : B) {
            java.util.Arrays.fill(row, MNKCellState.FREE);
        }
    }

    public MNKCellState cellState(int i, int j) {
        return B[i][j];
    }

    public MNKGameState gameState() {
        return state;
    }

    public int currentPlayer() {
        return MC.size() % 2;
    }

    /** Marks cell (i, j) for the side to move and returns the game's state. */
    public MNKGameState markCell(int i, int j) throws IndexOutOfBoundsException, IllegalStateException {
        if (state != MNKGameState.OPEN) {
            throw new IllegalStateException("game ended");
        }
        if (i < 0 || i >= M || j < 0 || j >= N) {
            throw new IndexOutOfBoundsException("cell [" + i + "," + j + "] off the board");
        }
        if (B[i][j] != MNKCellState.FREE) {
            throw new IllegalStateException("cell [" + i + "," + j + "] is not free");
        }
        MNKCellState s = currentPlayer() == 0 ? MNKCellState.P1 : MNKCellState.P2;
        B[i][j] = s;
        MC.add(new MNKCell(i, j, s));
        if (wins(i, j, s)) {
            state = s == MNKCellState.P1 ? MNKGameState.WINP1 : MNKGameState.WINP2;
        } else if (MC.size() == M * N) {
            state = MNKGameState.DRAW;
        }
        return state;
    }

    public void unmarkCell() {
        if (MC.isEmpty()) {
            throw new IllegalStateException("no move to undo");
        }
        MNKCell c = MC.remove(MC.size() - 1);
        B[c.i][c.j] = MNKCellState.FREE;
        state = MNKGameState.OPEN;
    }

    public MNKCell[] getFreeCells() {
        List<MNKCell> free = new ArrayList<>();
        for (int i = 0; i < M; i++) {
            for (int j = 0; j < N; j++) {
                if (B[i][j] == MNKCellState.FREE) {
                    free.add(new MNKCell(i, j));
                }
            }
        }
        return free.toArray(new MNKCell[0]);
    }

    public MNKCell[] getMarkedCells() {
        return MC.toArray(new MNKCell[0]);
    }

    private boolean wins(int i, int j, MNKCellState s) {
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
            if (n >= K) {
                return true;
            }
        }
        return false;
    }
}
