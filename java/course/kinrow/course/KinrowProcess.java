package kinrow.course;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * One kinrow process (kinrow serve) driven through its text protocol, for kinrow's
 * course players. kinrow is $KINROW, else kinrow on $PATH, else the kinrow beside these
 * class files (bin/kinrow beside bin/course-classes); the bot is $KINROW_BOT, else the
 * strongest installed bot that plays the game (kinrow's default bot). The process ends
 * with the JVM (a shutdown hook; kinrow also exits when its input closes).
 */
public final class KinrowProcess {
    /** The time kept back from the referee's timeout: a tenth, at least this many ms. */
    static final long MIN_MARGIN_MS = 300;

    private final String who;
    private Process proc;
    private Writer in;
    /** The answers of the running process (a new queue for each process). */
    private LinkedBlockingQueue<String> answers = new LinkedBlockingQueue<>();
    private Thread hook;
    private long moveTimeSent = -1;

    /** who names the player in the log lines. */
    public KinrowProcess(String who) {
        this.who = who;
    }

    /** The bot asked for: $KINROW_BOT, or "" for kinrow's default. */
    public static String bot() {
        String b = System.getenv("KINROW_BOT");
        return b == null ? "" : b.trim();
    }

    /**
     * The kinrow-movetime for a referee's timeout in seconds: the timeout less a tenth,
     * at least MIN_MARGIN_MS less ($KINROW_MARGIN_MS overrides the margin), and at least
     * 50 ms.
     */
    public static long moveTimeMs(int timeoutSecs) {
        long t = Math.max(1, timeoutSecs) * 1000L;
        long margin = Math.max(t / 10, MIN_MARGIN_MS);
        String env = System.getenv("KINROW_MARGIN_MS");
        if (env != null && !env.isEmpty()) {
            try {
                margin = Long.parseLong(env.trim());
            } catch (NumberFormatException e) {
                log("KinrowProcess", "KINROW_MARGIN_MS=" + env + " is not a number of ms; using " + margin);
            }
        }
        return Math.max(50, t - margin);
    }

    static void log(String who, String msg) {
        System.err.println(who + ": " + msg);
    }

    /** The kinrow executable: $KINROW, kinrow on $PATH, or beside these classes. */
    static String executable() throws IOException {
        String env = System.getenv("KINROW");
        if (env != null && !env.isEmpty()) {
            return env;
        }
        String path = System.getenv("PATH");
        if (path != null) {
            for (String dir : path.split(File.pathSeparator)) {
                File f = new File(dir.isEmpty() ? "." : dir, "kinrow");
                if (f.isFile() && f.canExecute()) {
                    return f.getAbsolutePath();
                }
            }
        }
        try {
            File here = new File(KinrowProcess.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            for (File d : new File[] {here, here.getParentFile()}) {
                File f = d == null ? null : new File(d, "kinrow");
                if (f != null && f.isFile() && f.canExecute()) {
                    return f.getAbsolutePath();
                }
            }
        } catch (Exception e) {
            // no code source: fall through
        }
        throw new IOException("kinrow not found: set $KINROW, put kinrow on $PATH, or keep bin/kinrow beside bin/course-classes");
    }

    /** Whether the process runs. */
    public boolean alive() {
        return proc != null && proc.isAlive();
    }

    /**
     * Starts kinrow if it is not running, then a new game under rules with the move time,
     * for the side color ("x" moves first). The bot of that side is started now, under
     * initPlayer's time rather than the first move's: $KINROW_BOT with kinrow-load, or
     * kinrow's default bot (whose choice starts every installed bot once) by a move with
     * a short time on a board then cleared.
     */
    public void newGame(String rules, String color, long moveTimeMs, long timeoutMs) throws IOException {
        long start = System.nanoTime();
        if (!alive()) {
            start(rules);
            warmColor = null;
        }
        send(timeoutMs, "rules", rules);
        moveTimeSent = -1;
        if (!color.equals(warmColor)) {
            if (!bot().isEmpty()) {
                send(left(start, timeoutMs), "kinrow-load", color, bot());
            } else {
                setMoveTime(50, left(start, timeoutMs));
                if (color.equals("o")) {
                    send(left(start, timeoutMs), "play", "x", rules.startsWith("connectx") ? "1" : "a1");
                }
                send(left(start, timeoutMs), "genmove", color);
                send(left(start, timeoutMs), "rules", rules);
            }
            warmColor = color;
        }
        setMoveTime(moveTimeMs, left(start, timeoutMs));
    }

    /** The side whose bot runs already in this process, or null. */
    private String warmColor;

    private static long left(long startNanos, long timeoutMs) {
        return Math.max(1, timeoutMs - (System.nanoTime() - startNanos) / 1_000_000);
    }

    private void start(String rules) throws IOException {
        close();
        List<String> argv = new ArrayList<>(List.of(executable(), "serve", "--rules", rules));
        if (!bot().isEmpty()) {
            argv.add("--bot");
            argv.add(bot());
        }
        ProcessBuilder pb = new ProcessBuilder(argv);
        pb.redirectError(ProcessBuilder.Redirect.INHERIT);
        if (System.getenv("KINROW_LOG") == null) {
            pb.environment().put("KINROW_LOG", "warn");
        }
        Process p = pb.start();
        proc = p;
        in = new OutputStreamWriter(p.getOutputStream(), StandardCharsets.UTF_8);
        LinkedBlockingQueue<String> q = new LinkedBlockingQueue<>();
        answers = q;
        Thread reader = new Thread(() -> readAnswers(p, q), "kinrow-answers");
        reader.setDaemon(true);
        reader.start();
        Writer w = in;
        hook = new Thread(() -> stop(p, w), "kinrow-stop");
        Runtime.getRuntime().addShutdownHook(hook);
        log(who, "started " + String.join(" ", argv) + " (pid " + p.pid() + ")");
    }

    private static void readAnswers(Process p, LinkedBlockingQueue<String> answers) {
        try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            StringBuilder sb = null;
            String line;
            while ((line = r.readLine()) != null) {
                if (sb == null) {
                    if (line.isEmpty()) {
                        continue;
                    }
                    sb = new StringBuilder(line);
                } else if (line.isEmpty()) {
                    answers.add(sb.toString());
                    sb = null;
                } else {
                    sb.append('\n').append(line);
                }
            }
        } catch (IOException e) {
            // the process is gone
        }
        answers.add("?EOF kinrow exited");
    }

    /** Sends kinrow-movetime when it changed. */
    public void setMoveTime(long ms, long timeoutMs) throws IOException {
        if (ms != moveTimeSent) {
            send(timeoutMs, "kinrow-movetime", Long.toString(ms));
            moveTimeSent = ms;
        }
    }

    /**
     * Sends one command and returns the text of its success answer; throws an IOException
     * for a failure answer, kinrow gone, or no answer within timeoutMs (then the process
     * is killed: a fresh one starts at the next game).
     */
    public String send(long timeoutMs, String... words) throws IOException {
        if (!alive()) {
            throw new IOException("kinrow is not running");
        }
        String cmd = String.join(" ", words);
        in.write(cmd + "\n");
        in.flush();
        String a;
        try {
            a = answers.poll(Math.max(1, timeoutMs), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            a = null;
        }
        if (a == null) {
            kill(); // at once: the player still has to answer in time
            throw new IOException("no answer from kinrow to " + cmd + " within " + timeoutMs + " ms");
        }
        if (a.startsWith("=")) {
            return a.substring(1).trim();
        }
        throw new IOException("kinrow refused " + cmd + ": " + a);
    }

    /** Kills the process without waiting (its input closes, so it also stops its bots). */
    private void kill() {
        Process p = proc;
        proc = null;
        if (p == null) {
            return;
        }
        try {
            in.close();
        } catch (IOException e) {
            // already gone
        }
        p.destroyForcibly();
        removeHook();
    }

    private void removeHook() {
        if (hook != null) {
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException e) {
                // the JVM is shutting down: the hook runs anyway
            }
            hook = null;
        }
    }

    /** Ends the process: quit, then killed. */
    public void close() {
        Process p = proc;
        proc = null;
        if (p == null) {
            return;
        }
        stop(p, in);
        removeHook();
    }

    /** Asks p to quit (it stops its bots), then kills it if it has not exited within a second. */
    private static void stop(Process p, Writer w) {
        try {
            w.write("quit\n");
            w.flush();
            w.close();
        } catch (IOException e) {
            // already gone
        }
        try {
            if (!p.waitFor(1, TimeUnit.SECONDS)) {
                p.destroyForcibly();
            }
        } catch (InterruptedException e) {
            p.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }

    /** kinrow's column letters: the alphabet without i. */
    static final String LETTERS = "abcdefghjklmnopqrstuvwxyz";

    /** kinrow's vertex of the framework's cell (i from the top, j from the left) on rows rows. */
    static String vertex(int i, int j, int rows) {
        StringBuilder sb = new StringBuilder();
        for (int n = j + 1; n > 0; n = (n - 1) / LETTERS.length()) {
            sb.append(LETTERS.charAt((n - 1) % LETTERS.length()));
        }
        return sb.reverse().toString() + (rows - i);
    }

    /** The framework's {i, j} of a kinrow vertex on rows rows, or null if it is not one. */
    static int[] cell(String v, int rows) {
        String s = v.trim().toLowerCase(java.util.Locale.ROOT);
        int k = 0;
        int col = 0;
        while (k < s.length() && LETTERS.indexOf(s.charAt(k)) >= 0) {
            col = col * LETTERS.length() + LETTERS.indexOf(s.charAt(k)) + 1;
            k++;
        }
        if (k == 0 || k == s.length()) {
            return null;
        }
        try {
            return new int[] {rows - Integer.parseInt(s.substring(k)), col - 1};
        } catch (NumberFormatException e) {
            return null;
        }
    }
}
