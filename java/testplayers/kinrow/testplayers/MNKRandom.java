package kinrow.testplayers;

import java.util.Random;
import mnkgame.MNKBoard;
import mnkgame.MNKCell;
import mnkgame.MNKPlayer;

/**
 * A random m,n,k player keeping a private board from the opponent's last move (the
 * last marked cell), which throws when the cells it is shown disagree with it.
 */
public class MNKRandom implements MNKPlayer {
    private static int instances;
    private final int instance;
    private final Random rnd = new Random();
    private MNKBoard mine;
    private String name;

    public MNKRandom() {
        instance = ++instances;
        Trace.line("new " + getClass().getSimpleName() + " " + instance);
    }

    @Override
    public void initPlayer(int M, int N, int K, boolean first, int timeout_in_secs) {
        mine = new MNKBoard(M, N, K);
        name = "mnkrandom";
        Trace.line("init " + instance + " " + M + " " + N + " " + K + " " + first + " " + timeout_in_secs);
    }

    @Override
    public MNKCell selectCell(MNKCell[] FC, MNKCell[] MC) {
        if (MC.length > 0) {
            MNKCell last = MC[MC.length - 1];
            mine.markCell(last.i, last.j);
        }
        MNKCell[] marked = mine.getMarkedCells();
        if (marked.length != MC.length) {
            throw new IllegalStateException("private board has " + marked.length + " stones, shown " + MC.length);
        }
        for (int k = 0; k < MC.length; k++) {
            if (marked[k].i != MC[k].i || marked[k].j != MC[k].j) {
                throw new IllegalStateException("private board out of sync at move " + k);
            }
        }
        MNKCell c = FC[rnd.nextInt(FC.length)];
        mine.markCell(c.i, c.j);
        return c;
    }

    @Override
    public String playerName() {
        return name;
    }
}
