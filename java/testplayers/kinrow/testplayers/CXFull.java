package kinrow.testplayers;

import connectx.CXBoard;

/** Always answers column 0, even when it is full. */
public class CXFull extends CXRandom {
    @Override
    public int selectColumn(CXBoard B) {
        return 0;
    }
}
