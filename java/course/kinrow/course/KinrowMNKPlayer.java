package kinrow.course;

import java.io.IOException;
import mnkgame.MNKCell;
import mnkgame.MNKPlayer;

/**
 * A kinrow bot as an m,n,k player (mnkgame.MNKPlayer), for the course's referees:
 * {@code java -cp COURSE:bin/course-classes mnkgame.MNKPlayerTester ... kinrow.course.KinrowMNKPlayer}.
 *
 * <p>Each instance runs one kinrow process (see KinrowProcess), started by the first
 * initPlayer; every initPlayer starts a new game on it. selectCell tells kinrow every
 * marked cell it has not seen yet (the opponent's last move, in the order played) and
 * asks for a move within the referee's timeout less a margin. The framework's cell
 * (i, j), row i from 0 at the top, is kinrow's vertex with column letter j+1 (a, b, ...
 * without i) and row M-i (from 1 at the bottom). When kinrow fails or is late, the
 * player answers the free cell nearest the centre and says why on stderr.
 */
public class KinrowMNKPlayer implements MNKPlayer {
    private final KinrowProcess kinrow = new KinrowProcess("KinrowMNKPlayer");
    private String me = "x";
    private int rows;
    private int cols;
    private int timeoutSecs = 1;
    private int known;
    private boolean broken;
    private String name;

    /** The course's referees create players with no arguments. */
    public KinrowMNKPlayer() {}

    @Override
    public void initPlayer(int M, int N, int K, boolean first, int timeout_in_secs) {
        me = first ? "x" : "o";
        rows = M;
        cols = N;
        known = 0;
        timeoutSecs = Math.max(1, timeout_in_secs);
        String bot = KinrowProcess.bot();
        name = "kinrow" + (bot.isEmpty() ? "" : " " + bot);
        try {
            kinrow.newGame("mnk:" + M + "x" + N + "x" + K, me, KinrowProcess.moveTimeMs(timeoutSecs), timeoutSecs * 1000L);
            broken = false;
        } catch (IOException e) {
            broken = true;
            KinrowProcess.log("KinrowMNKPlayer", "cannot start a game on kinrow: " + e.getMessage() + "; playing the centre-most free cell");
        }
    }

    @Override
    public MNKCell selectCell(MNKCell[] FC, MNKCell[] MC) {
        long start = System.nanoTime();
        long budget = timeoutSecs * 1000L;
        if (!broken) {
            try {
                for (; known < MC.length; known++) {
                    MNKCell c = MC[known];
                    kinrow.send(budget, "play", known % 2 == 0 ? "x" : "o", KinrowProcess.vertex(c.i, c.j, rows));
                }
                long left = budget - (System.nanoTime() - start) / 1_000_000 - 50;
                String mv = kinrow.send(Math.max(1, left), "genmove", me);
                int[] ij = KinrowProcess.cell(mv, rows);
                if (ij != null) {
                    for (MNKCell c : FC) {
                        if (c.i == ij[0] && c.j == ij[1]) {
                            known++;
                            return c;
                        }
                    }
                }
                throw new IOException("kinrow answered " + mv + ", not a free cell");
            } catch (IOException e) {
                broken = true;
                KinrowProcess.log("KinrowMNKPlayer", e.getMessage() + "; playing the centre-most free cell for the rest of the game");
            }
        }
        MNKCell best = FC[0];
        for (MNKCell c : FC) {
            if (dist(c) < dist(best)) {
                best = c;
            }
        }
        return best;
    }

    private int dist(MNKCell c) {
        return Math.abs(2 * c.i - (rows - 1)) + Math.abs(2 * c.j - (cols - 1));
    }

    @Override
    public String playerName() {
        return name == null ? "kinrow" : name;
    }
}
