package kinrow.testplayers;

import connectx.CXBoard;
import connectx.CXGameState;
import connectx.CXPlayer;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import mnkgame.MNKBoard;
import mnkgame.MNKCell;
import mnkgame.MNKGameState;
import mnkgame.MNKPlayer;

/**
 * A stand-in for the course's referees (tests only): plays one game per argument
 * between two player classes, as CXPlayerTester and MNKPlayerTester do, with a
 * time limit per move, and prints one line per move and one per game.
 *
 * <pre>
 * java kinrow.testplayers.Referee SECONDS cx:M:N:X:ClassA:ClassB mnk:M:N:K:ClassA:ClassB ...
 * </pre>
 *
 * <p>A player that throws, is late (its time plus a second's tolerance) or answers an
 * illegal move fails the game: "FAIL" and exit status 1, as the course's testers do.
 */
public final class Referee {
    private static final ExecutorService EXEC = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "referee-player");
        t.setDaemon(true);
        return t;
    });

    private Referee() {}

    public static void main(String[] args) throws Exception {
        int secs = Integer.parseInt(args[0]);
        for (int a = 1; a < args.length; a++) {
            String[] f = args[a].split(":");
            int m = Integer.parseInt(f[1]), n = Integer.parseInt(f[2]), k = Integer.parseInt(f[3]);
            Object p1 = Class.forName(f[4]).getConstructor().newInstance();
            Object p2 = Class.forName(f[5]).getConstructor().newInstance();
            String result = f[0].equals("cx") ? cx(secs, m, n, k, (CXPlayer) p1, (CXPlayer) p2)
                    : mnk(secs, m, n, k, (MNKPlayer) p1, (MNKPlayer) p2);
            System.out.println("RESULT " + args[a] + " " + result);
        }
        System.exit(0);
    }

    static <T> T timed(String who, int secs, java.util.concurrent.Callable<T> call) {
        long start = System.nanoTime();
        Future<T> f = EXEC.submit(call);
        try {
            T v = f.get(secs * 1000L + 1000, TimeUnit.MILLISECONDS);
            long ms = (System.nanoTime() - start) / 1_000_000;
            System.out.println("TIME " + who + " " + ms);
            return v;
        } catch (java.util.concurrent.TimeoutException e) {
            fail(who + " timed out");
        } catch (java.util.concurrent.ExecutionException e) {
            fail(who + " threw " + e.getCause());
        } catch (InterruptedException e) {
            fail("interrupted");
        }
        return null;
    }

    static void fail(String why) {
        System.out.println("FAIL " + why);
        System.exit(1);
    }

    static String cx(int secs, int m, int n, int x, CXPlayer a, CXPlayer b) {
        CXBoard board = new CXBoard(m, n, x);
        timed("init1", secs, () -> { a.initPlayer(m, n, x, true, secs); return null; });
        timed("init2", secs, () -> { b.initPlayer(m, n, x, false, secs); return null; });
        CXPlayer[] ps = {a, b};
        for (int turn = 0; board.gameState() == CXGameState.OPEN; turn++) {
            CXPlayer p = ps[turn % 2];
            CXBoard copy = board.copy();
            String who = p.playerName() + "(" + (turn % 2 + 1) + ")";
            int c = timed(who, secs, () -> p.selectColumn(copy));
            try {
                board.markColumn(c);
            } catch (RuntimeException e) {
                fail(who + " illegal column " + c + ": " + e.getMessage());
            }
            System.out.println("MOVE " + who + " " + c);
        }
        return board.gameState().toString() + " " + board.numOfMarkedCells();
    }

    static String mnk(int secs, int m, int n, int k, MNKPlayer a, MNKPlayer b) {
        MNKBoard board = new MNKBoard(m, n, k);
        timed("init1", secs, () -> { a.initPlayer(m, n, k, true, secs); return null; });
        timed("init2", secs, () -> { b.initPlayer(m, n, k, false, secs); return null; });
        MNKPlayer[] ps = {a, b};
        for (int turn = 0; board.gameState() == MNKGameState.OPEN; turn++) {
            MNKPlayer p = ps[turn % 2];
            MNKCell[] fc = board.getFreeCells(), mc = board.getMarkedCells();
            String who = p.playerName() + "(" + (turn % 2 + 1) + ")";
            MNKCell c = timed(who, secs, () -> p.selectCell(fc, mc));
            try {
                board.markCell(c.i, c.j);
            } catch (RuntimeException e) {
                fail(who + " illegal cell " + c + ": " + e.getMessage());
            }
            System.out.println("MOVE " + who + " " + c.i + "," + c.j);
        }
        return board.gameState().toString() + " " + board.getMarkedCells().length;
    }
}
