package kinrow.testplayers;

import connectx.CXBoard;
import connectx.CXCell;
import connectx.CXCellState;
import connectx.CXPlayer;
import java.util.Random;

/**
 * A random ConnectX player that, like many students' players, keeps a private board
 * updated only from the opponent's last move, and throws when it no longer matches the
 * board it is shown (so a move that never reached it shows). It traces its instances
 * and initPlayer calls, returns null from playerName before initPlayer, and writes a
 * file into its working directory.
 */
public class CXRandom implements CXPlayer {
    private static int instances;
    private final int instance;
    private final Random rnd = new Random();
    private CXBoard mine;
    private boolean first;
    private String name;

    public CXRandom() {
        instance = ++instances;
        Trace.line("new " + getClass().getSimpleName() + " " + instance);
    }

    @Override
    public void initPlayer(int M, int N, int X, boolean first, int timeout_in_secs) {
        mine = new CXBoard(M, N, X);
        this.first = first;
        name = "cxrandom";
        Trace.line("init " + instance + " " + M + " " + N + " " + X + " " + first + " " + timeout_in_secs + " cwd " + System.getProperty("user.dir"));
        try {
            java.nio.file.Files.writeString(java.nio.file.Path.of("cxrandom-was-here.txt"), "hello\n");
        } catch (java.io.IOException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public int selectColumn(CXBoard B) {
        CXCell last = B.getLastMove();
        if (last != null) {
            mine.markColumn(last.j);
        }
        for (int i = 0; i < B.M; i++) {
            for (int j = 0; j < B.N; j++) {
                if (B.cellState(i, j) != mine.cellState(i, j)) {
                    throw new IllegalStateException("private board out of sync at [" + i + "," + j + "]");
                }
            }
        }
        CXCellState me = first ? CXCellState.P1 : CXCellState.P2;
        if (B.numOfMarkedCells() % 2 != (me == CXCellState.P1 ? 0 : 1)) {
            throw new IllegalStateException("asked to move out of turn");
        }
        Integer[] free = B.getAvailableColumns();
        int c = free[rnd.nextInt(free.length)];
        mine.markColumn(c);
        return c;
    }

    @Override
    public String playerName() {
        return name;
    }
}
