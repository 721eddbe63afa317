package kinrow.testplayers;

import connectx.CXBoard;

/** Plays at random and prints debug lines to stdout (and stderr) at every move. */
public class CXPrints extends CXRandom {
    @Override
    public int selectColumn(CXBoard B) {
        System.out.println("= 1");
        System.out.println();
        System.out.println("CXPrints thinking about " + B.numOfMarkedCells() + " stones");
        System.err.println("CXPrints on stderr");
        return super.selectColumn(B);
    }
}
