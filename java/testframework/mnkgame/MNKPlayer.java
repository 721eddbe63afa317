package mnkgame;

/** An m,n,k player, as the course's referees drive it (test stand-in). */
public interface MNKPlayer {
    void initPlayer(int M, int N, int K, boolean first, int timeout_in_secs);

    MNKCell selectCell(MNKCell[] FC, MNKCell[] MC);

    String playerName();
}
