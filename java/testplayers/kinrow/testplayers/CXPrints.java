package kinrow.testplayers;

import connectx.CXBoard;

/**
 * Plays at random and prints debug lines (protocol-like ones too) to System.out,
 * System.err and the JVM's descriptor 1 at every move.
 */
public class CXPrints extends CXRandom {
    @Override
    public int selectColumn(CXBoard B) {
        System.out.println("= 1");
        System.out.println();
        System.out.println("CXPrints thinking about " + B.numOfMarkedCells() + " stones");
        System.err.println("CXPrints on stderr");
        try {
            // Past System.out, straight to the JVM's descriptor 1.
            new java.io.FileOutputStream(java.io.FileDescriptor.out).write("= 7\n\nCXPrints on descriptor 1\n".getBytes());
        } catch (java.io.IOException e) {
            throw new IllegalStateException(e);
        }
        return super.selectColumn(B);
    }
}
