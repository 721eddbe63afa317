package kinrow.bridge;

import java.security.Permission;

/**
 * Refuses System.exit from the player (on JDKs that still allow a security
 * manager, 17 to 23), so the bridge can forfeit the move with the reason instead of
 * vanishing; every other permission is granted. The bridge allows exit when it quits.
 */
@SuppressWarnings("removal")
final class ExitGuard extends SecurityManager {
    volatile boolean allowed;
    /** The status of the first refused System.exit, or null. */
    volatile Integer called;

    @Override
    public void checkPermission(Permission perm) {}

    @Override
    public void checkPermission(Permission perm, Object context) {}

    @Override
    public void checkExit(int status) {
        if (allowed) {
            return;
        }
        if (called == null) {
            called = status;
        }
        throw new SecurityException("System.exit(" + status + ") refused: the kinrow bridge forfeits the move instead");
    }

    /** Installs a guard, or returns null when the JVM does not allow it. */
    static ExitGuard install() {
        try {
            ExitGuard g = new ExitGuard();
            System.setSecurityManager(g);
            return g;
        } catch (UnsupportedOperationException | SecurityException e) {
            return null;
        }
    }
}
