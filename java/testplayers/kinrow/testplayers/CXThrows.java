package kinrow.testplayers;

import connectx.CXBoard;

/** Plays at random, then throws at its second move. */
public class CXThrows extends CXRandom {
    private int moves;

    @Override
    public int selectColumn(CXBoard B) {
        if (++moves == 2) {
            throw new IllegalStateException("CXThrows gives up\nsecond line never shown");
        }
        return super.selectColumn(B);
    }
}
