package connectx;

/** A ConnectX player, as the course's referees drive it (test stand-in). */
public interface CXPlayer {
    void initPlayer(int M, int N, int X, boolean first, int timeout_in_secs);

    int selectColumn(CXBoard B);

    String playerName();
}
