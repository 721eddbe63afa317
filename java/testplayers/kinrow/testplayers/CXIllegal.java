package kinrow.testplayers;

import connectx.CXBoard;

/** Answers column N, one past the last, at its first move. */
public class CXIllegal extends CXRandom {
    @Override
    public int selectColumn(CXBoard B) {
        return B.N;
    }
}
