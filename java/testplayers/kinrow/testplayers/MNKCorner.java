package kinrow.testplayers;

import mnkgame.MNKCell;

/** Answers the free cell with the smallest row, then column: the top-left free cell. */
public class MNKCorner extends MNKRandom {
    @Override
    public MNKCell selectCell(MNKCell[] FC, MNKCell[] MC) {
        MNKCell best = FC[0];
        for (MNKCell c : FC) {
            if (c.i < best.i || (c.i == best.i && c.j < best.j)) {
                best = c;
            }
        }
        return best;
    }
}
