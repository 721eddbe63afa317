package kinrow.testplayers;

import connectx.CXBoard;

/** Sleeps far past its time at its first move. */
public class CXSleeps extends CXRandom {
    private int timeout;

    @Override
    public void initPlayer(int M, int N, int X, boolean first, int timeout_in_secs) {
        super.initPlayer(M, N, X, first, timeout_in_secs);
        timeout = timeout_in_secs;
    }

    @Override
    public int selectColumn(CXBoard B) {
        try {
            Thread.sleep(timeout * 1000L * 30);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return super.selectColumn(B);
    }
}
