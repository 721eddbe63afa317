package kinrow.testplayers;

import connectx.CXBoard;

/** Calls System.exit(3) at its first move. */
public class CXExit extends CXRandom {
    @Override
    public int selectColumn(CXBoard B) {
        System.exit(3);
        return 0;
    }
}
