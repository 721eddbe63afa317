package mnkgame;

/** A cell: row i (0 at the top), column j (0 at the left) and its state (test stand-in). */
public class MNKCell {
    public final int i;
    public final int j;
    public final MNKCellState state;

    public MNKCell(int i, int j) {
        this(i, j, MNKCellState.FREE);
    }

    public MNKCell(int i, int j, MNKCellState state) {
        this.i = i;
        this.j = j;
        this.state = state;
    }

    @Override
    public String toString() {
        return "[" + i + "," + j + "] " + state;
    }
}
