package kinrow.testplayers;

import mnkgame.MNKCell;

/** Answers the cell its opponent just took (or plays at random on an empty board). */
public class MNKOccupied extends MNKRandom {
    @Override
    public MNKCell selectCell(MNKCell[] FC, MNKCell[] MC) {
        if (MC.length > 0) {
            return MC[MC.length - 1];
        }
        return super.selectCell(FC, MC);
    }
}
