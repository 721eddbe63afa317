package kinrow.bridge;

import java.io.File;
import java.io.FilePermission;
import java.io.IOException;
import java.nio.file.InvalidPathException;
import java.nio.file.LinkPermission;
import java.nio.file.Path;
import java.security.Permission;

/**
 * The bridge's guard, a security manager (on JDKs that still allow one, 17 to 23),
 * installed once the bridge holds every descriptor it needs. It refuses System.exit
 * from the player, so the bridge can forfeit the move with the reason instead of
 * vanishing (the bridge allows exit when it quits), and it keeps the player off what
 * would let it speak for the bridge or read its key (docs/BOTS.md, "What the bridge
 * guarantees"):
 *
 * <ul>
 *   <li>the protocol's descriptors and the JVM's memory by path: /proc/PID/fd,
 *       /proc/PID/mem (and under /proc/PID/task/TID), /dev/fd, /dev/stdin, /dev/stdout,
 *       /dev/stderr, however the path is spelled (checked as written and resolved, and
 *       no symbolic or hard links can be made);
 *   <li>the input's descriptor (a FileInputStream on FileDescriptor.in);
 *   <li>programs (no process can be started), native libraries from outside the JDK,
 *       files written into the JDK, sun.misc (Unsafe), heap dumps and other management
 *       controls, and replacing this guard.
 * </ul>
 *
 * Everything else is granted, so players read and write their own files, print, use
 * threads and reflection as before. The checks do not depend on who asks, so code
 * the player hands to another thread (a finalizer, a pool) is refused the same.
 */
@SuppressWarnings("removal")
final class ExitGuard extends SecurityManager {
    volatile boolean allowed;
    /** The status of the first refused System.exit, or null. */
    volatile Integer called;
    /** The JDK's directory as java.home names it and resolved, with a trailing separator. */
    private final String javaHome;
    private final String javaHomeResolved;
    /** The working directory, for relative paths. */
    private final Path cwd;

    private ExitGuard() {
        String home = new File(System.getProperty("java.home")).getAbsolutePath();
        String resolved = home;
        try {
            resolved = new File(home).getCanonicalPath();
        } catch (IOException e) {
            // keep it as it is
        }
        javaHome = home.endsWith(File.separator) ? home : home + File.separator;
        javaHomeResolved = resolved.endsWith(File.separator) ? resolved : resolved + File.separator;
        cwd = new File("").getAbsoluteFile().toPath();
    }

    /** Whether the absolute path p is in the JDK's directory. */
    private boolean inJdk(String p) {
        String d = p.endsWith(File.separator) ? p : p + File.separator;
        return d.startsWith(javaHome) || d.startsWith(javaHomeResolved);
    }

    @Override
    public void checkPermission(Permission perm) {
        check(perm);
    }

    @Override
    public void checkPermission(Permission perm, Object context) {
        check(perm);
    }

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

    private void check(Permission perm) {
        if (perm instanceof FilePermission) {
            checkFile(perm.getName(), perm.getActions());
        } else if (perm instanceof RuntimePermission) {
            checkRuntime(perm.getName());
        } else if (perm instanceof LinkPermission) {
            throw refused("making a link (" + perm.getName() + ")");
        } else if (perm.getName().equals("control") && perm.getClass().getName().equals("java.lang.management.ManagementPermission")) {
            throw refused("management control (heap dumps, diagnostic commands)");
        }
    }

    private void checkRuntime(String name) {
        switch (name) {
            case "setSecurityManager":
                throw refused("replacing the bridge's guard");
            case "readFileDescriptor":
                throw refused("reading the protocol's input (FileDescriptor.in)");
            case "accessClassInPackage.sun.misc":
                throw refused("sun.misc (Unsafe)");
            default:
                break;
        }
        if (name.startsWith("loadLibrary.")) {
            String lib = name.substring("loadLibrary.".length());
            if (lib.indexOf('/') >= 0 && !(inJdk(lib) && inJdk(resolve(lib)))) {
                throw refused("loading native code (" + lib + ")");
            }
        }
    }

    private void checkFile(String name, String actions) {
        if (actions.contains("execute")) {
            throw refused("starting a program (" + name + ")");
        }
        if (name.equals("<<ALL FILES>>")) {
            return;
        }
        boolean writes = actions.contains("write") || actions.contains("delete");
        String abs;
        try {
            Path p = Path.of(name);
            abs = (p.isAbsolute() ? p : cwd.resolve(p)).normalize().toString();
        } catch (InvalidPathException e) {
            return; // no such file can be opened
        }
        checkPath(abs, writes);
        String canon = resolve(abs);
        if (!canon.equals(abs)) {
            checkPath(canon, writes);
        }
    }

    /** The path p resolved (symbolic links followed as far as they exist), or p. */
    private static String resolve(String p) {
        try {
            return new File(p).getCanonicalPath();
        } catch (IOException e) {
            return p;
        }
    }

    private void checkPath(String p, boolean writes) {
        if (protectedPath(p)) {
            throw refused("the protocol's descriptors and the JVM's memory (" + p + ")");
        }
        if (writes && inJdk(p)) {
            throw refused("writing into the JDK (" + p + ")");
        }
    }

    /**
     * Whether p (absolute, normalized) names a process's descriptors or memory:
     * /proc/P/fd..., /proc/P/mem, /proc/P/task/T/fd..., /proc/P/task/T/mem (P a number,
     * self or thread-self), /dev/fd..., /dev/stdin, /dev/stdout, /dev/stderr.
     */
    static boolean protectedPath(String p) {
        if (p.equals("/dev/fd") || p.startsWith("/dev/fd/") || p.equals("/dev/stdin") || p.equals("/dev/stdout") || p.equals("/dev/stderr")) {
            return true;
        }
        if (!p.startsWith("/proc/")) {
            return false;
        }
        String[] parts = p.substring("/proc/".length()).split("/");
        int i = 1;
        if (parts.length > 3 && parts[1].equals("task")) {
            i = 3;
        }
        if (parts.length <= i) {
            return false;
        }
        String f = parts[i];
        return f.equals("fd") || f.equals("mem");
    }

    private static SecurityException refused(String what) {
        return new SecurityException(what + " refused by the kinrow bridge");
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
