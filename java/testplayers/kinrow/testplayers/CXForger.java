package kinrow.testplayers;

import connectx.CXBoard;
import connectx.CXPlayer;
import java.io.BufferedReader;
import java.io.FileDescriptor;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Tries to answer the host itself (issue 23): at every move it writes the forged answer
 * "= 1" (column 1) on the channels named by the system property kinrow.forge
 * (comma-separated), logging on stderr what each attempt did ("CXForger proc: wrote",
 * "CXForger proc: refused: ..."), then plays a column of its own that is never 1 while
 * another is free, so a move 1 in the record is the forgery taken.
 *
 * <ul>
 *   <li>proc: /proc/self/fd/N, N the bridge's --protocol-fd (3 by default);
 *   <li>devfd: /dev/fd/N;
 *   <li>fdout: FileDescriptor.out;
 *   <li>sysout: System.out;
 *   <li>steal: from its first move on, a thread reads the host's commands (on
 *       FileDescriptor.in, else /proc/self/fd/0) and answers each genmove it gets with
 *       "=ID 1", the command's own id, on /proc/self/fd/N;
 *   <li>probe: once, tries what would let it read the bridge's key or speak for it
 *       (the JVM's memory, the descriptors, a program, native code, Unsafe, a heap
 *       dump, replacing the guard, a link to /proc/self/mem) and logs each as
 *       "CXForger probe WHAT: refused: ..." or "CXForger probe WHAT: ALLOWED ...".
 * </ul>
 */
public class CXForger implements CXPlayer {
    private static final String FORGED = "= 1\n\n";
    private boolean probed;
    private Thread stealer;

    private static void log(String s) {
        System.err.println("CXForger " + s);
    }

    /** The bridge's protocol descriptor, from the JVM's command line. */
    private static String protocolFd() {
        try {
            String[] args = new String(Files.readAllBytes(Path.of("/proc/self/cmdline")), StandardCharsets.UTF_8).split("\u0000");
            for (int i = 0; i + 1 < args.length; i++) {
                if (args[i].equals("--protocol-fd")) {
                    return args[i + 1];
                }
            }
        } catch (Exception | Error e) {
            log("cmdline: " + e);
        }
        return "3";
    }

    private static String why(Throwable t) {
        for (Throwable c = t; c != null; c = c.getCause()) {
            if (c instanceof SecurityException) {
                return "refused: " + c;
            }
        }
        return "failed: " + t;
    }

    private static void write(String channel, String what) {
        try {
            switch (channel) {
                case "proc":
                    try (OutputStream o = new FileOutputStream("/proc/self/fd/" + protocolFd())) {
                        o.write(what.getBytes(StandardCharsets.UTF_8));
                    }
                    break;
                case "devfd":
                    try (OutputStream o = new FileOutputStream("/dev/fd/" + protocolFd())) {
                        o.write(what.getBytes(StandardCharsets.UTF_8));
                    }
                    break;
                case "fdout":
                    OutputStream o = new FileOutputStream(FileDescriptor.out);
                    o.write(what.getBytes(StandardCharsets.UTF_8));
                    o.flush();
                    break;
                case "sysout":
                    System.out.print(what);
                    System.out.flush();
                    break;
                default:
                    return;
            }
            log(channel + ": wrote");
        } catch (Exception | Error e) {
            log(channel + ": " + why(e));
        }
    }

    /** Reads the host's commands and answers every genmove it gets with column 1. */
    private void steal() {
        stealer = new Thread(() -> {
            InputStream in;
            try {
                in = new FileInputStream(FileDescriptor.in);
            } catch (Exception | Error e) {
                log("steal FileDescriptor.in: " + why(e));
                try {
                    in = new FileInputStream("/proc/self/fd/0");
                } catch (Exception | Error e2) {
                    log("steal /proc/self/fd/0: " + why(e2));
                    return;
                }
            }
            log("steal: reading the host's commands");
            try {
                BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
                String line;
                while ((line = r.readLine()) != null) {
                    log("steal: got " + line);
                    String[] w = line.trim().split(" +");
                    if (w.length == 3 && w[1].equals("genmove")) {
                        write("proc", "=" + w[0] + " 1\n\n");
                    }
                }
            } catch (Exception | Error e) {
                log("steal: " + why(e));
            }
        }, "cxforger-steal");
        stealer.setDaemon(true);
        stealer.start();
    }

    private static void probe(String what, Runnable r) {
        try {
            r.run();
            log("probe " + what + ": ALLOWED");
        } catch (Exception | Error e) {
            log("probe " + what + ": " + why(e));
        }
    }

    private interface Op {
        void run() throws Exception;
    }

    private static Runnable op(Op o) {
        return () -> {
            try {
                o.run();
            } catch (RuntimeException e) {
                throw e;
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        };
    }

    @SuppressWarnings("removal")
    private static void probeAll() {
        String fd = protocolFd();
        probe("mem", op(() -> {
            try (RandomAccessFile f = new RandomAccessFile("/proc/self/mem", "r")) {
                f.read();
            }
        }));
        probe("fd", op(() -> new FileOutputStream("/proc/self/fd/" + fd).close()));
        probe("thread-self-fd", op(() -> new FileOutputStream("/proc/thread-self/fd/" + fd).close()));
        probe("root-mem", op(() -> new FileInputStream("/proc/self/root/proc/self/mem").close()));
        probe("devfd", op(() -> new FileOutputStream("/dev/fd/" + fd).close()));
        probe("stdin", op(() -> new FileInputStream(FileDescriptor.in)));
        probe("exec", op(() -> new ProcessBuilder("true").start().waitFor()));
        probe("native", op(() -> System.load("/tmp/kinrow-no-such-library.so")));
        probe("unsafe", op(() -> {
            java.lang.reflect.Field f = Class.forName("sun.misc.Unsafe").getDeclaredField("theUnsafe");
            f.setAccessible(true);
            f.get(null);
        }));
        probe("heapdump", op(() -> java.lang.management.ManagementFactory.getPlatformMBeanServer().invoke(
                new javax.management.ObjectName("com.sun.management:type=HotSpotDiagnostic"), "dumpHeap",
                new Object[] {"cxforger-heap.hprof", Boolean.TRUE}, new String[] {"java.lang.String", "boolean"})));
        probe("guard", op(() -> System.setSecurityManager(null)));
        probe("link", op(() -> Files.createSymbolicLink(Path.of("cxforger-mem"), Path.of("/proc/self/mem"))));
    }

    @Override
    public int selectColumn(CXBoard B) {
        String mode = System.getProperty("kinrow.forge", "");
        for (String channel : mode.split(",")) {
            if (channel.equals("steal")) {
                if (stealer == null) {
                    steal();
                }
            } else if (channel.equals("probe")) {
                if (!probed) {
                    probed = true;
                    probeAll();
                }
            } else {
                write(channel, FORGED);
            }
        }
        Integer[] free = B.getAvailableColumns();
        return free[free.length - 1];
    }

    @Override
    public void initPlayer(int M, int N, int X, boolean first, int timeout_in_secs) {}

    @Override
    public String playerName() {
        return "cxforger";
    }
}
