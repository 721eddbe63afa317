package connectx;

/** A cell: row i (0 at the top), column j (0 at the left) and its state (test stand-in). */
public class CXCell {
    public final int i;
    public final int j;
    public final CXCellState state;

    public CXCell(int i, int j, CXCellState state) {
        this.i = i;
        this.j = j;
        this.state = state;
    }

    @Override
    public String toString() {
        return "[" + i + "," + j + "] " + state;
    }
}
