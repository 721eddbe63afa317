package kinrow.course;

import connectx.CXBoard;
import connectx.CXCell;
import connectx.CXPlayer;
import java.io.IOException;

/**
 * A kinrow bot as a ConnectX player (connectx.CXPlayer), for the course's referees:
 * {@code java -cp COURSE:bin/course-classes connectx.CXPlayerTester ... kinrow.course.KinrowCXPlayer}.
 *
 * <p>Each instance runs one kinrow process (see KinrowProcess), started by the first
 * initPlayer; every initPlayer starts a new game on it. selectColumn tells kinrow the
 * opponent's last move (the board's last move) and asks for a move within the
 * referee's timeout less a margin. ConnectX's column j (from 0) is kinrow's column
 * j+1. When kinrow fails or is late, the player answers the free column nearest the
 * centre rather than lose on time, and says why on stderr.
 */
public class KinrowCXPlayer implements CXPlayer {
    private final KinrowProcess kinrow = new KinrowProcess("KinrowCXPlayer");
    private String me = "x";
    private String opp = "o";
    private int timeoutSecs = 1;
    private boolean broken;
    private String name;

    /** The course's referees create players with no arguments. */
    public KinrowCXPlayer() {}

    @Override
    public void initPlayer(int M, int N, int X, boolean first, int timeout_in_secs) {
        me = first ? "x" : "o";
        opp = first ? "o" : "x";
        timeoutSecs = Math.max(1, timeout_in_secs);
        String bot = KinrowProcess.bot();
        name = "kinrow" + (bot.isEmpty() ? "" : " " + bot);
        try {
            kinrow.newGame("connectx:" + M + "x" + N + "x" + X, me, KinrowProcess.moveTimeMs(timeoutSecs), timeoutSecs * 1000L);
            broken = false;
        } catch (IOException e) {
            broken = true;
            KinrowProcess.log("KinrowCXPlayer", "cannot start a game on kinrow: " + e.getMessage() + "; playing the centre-most free column");
        }
    }

    @Override
    public int selectColumn(CXBoard B) {
        long start = System.nanoTime();
        long budget = timeoutSecs * 1000L;
        if (!broken) {
            try {
                CXCell last = B.getLastMove();
                if (last != null) {
                    kinrow.send(budget, "play", opp, Integer.toString(last.j + 1));
                }
                long left = budget - (System.nanoTime() - start) / 1_000_000 - 50;
                String mv = kinrow.send(Math.max(1, left), "genmove", me);
                int c = Integer.parseInt(mv.trim()) - 1;
                for (Integer free : B.getAvailableColumns()) {
                    if (free == c) {
                        return c;
                    }
                }
                throw new IOException("kinrow answered " + mv + ", not a free column");
            } catch (IOException | NumberFormatException e) {
                broken = true;
                KinrowProcess.log("KinrowCXPlayer", e.getMessage() + "; playing the centre-most free column for the rest of the game");
            }
        }
        Integer best = null;
        for (Integer free : B.getAvailableColumns()) {
            if (best == null || Math.abs(2 * free - (B.N - 1)) < Math.abs(2 * best - (B.N - 1))) {
                best = free;
            }
        }
        return best;
    }

    @Override
    public String playerName() {
        return name == null ? "kinrow" : name;
    }
}
