package kinrow.bridge;

import java.io.BufferedReader;
import java.io.ByteArrayInputStream;
import java.io.File;
import java.io.FileDescriptor;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.SequenceInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * The kinrow bridge: one course player (ConnectX or MNKGame) as a kinrow-protocol
 * engine on stdin/stdout (docs/BOTS.md, "Course players in Java").
 *
 * <pre>
 * java -cp kinrow-java.jar:COURSE_CLASSES kinrow.bridge.Main --player CLASS [--fresh] [--own-workdir] [--protocol-fd N]
 * java -cp kinrow-java.jar:COURSE_CLASSES kinrow.bridge.Main --probe --player CLASS
 * </pre>
 *
 * <p>The protocol's stdout is kept for the bridge: System.out is the JVM's stderr, which
 * the host logs, so a player's prints never reach the protocol, and System.in is empty.
 * What a player writes on the protocol's descriptor itself is never taken for an
 * answer: when the host's first command is kinrow-key, every answer is signed with that
 * key (Signer), which only the main thread holds, in local variables of run(), and
 * only the main thread writes answers; a guard (ExitGuard, JDK 17 to 23) refuses the
 * player the protocol's descriptors, the JVM's memory, native code and programs
 * (docs/BOTS.md, "What the bridge guarantees"). initPlayer runs when the host gives
 * the side (kinrow-side) and the move time, or at the first genmove; selectColumn and
 * selectCell run on a worker thread, which hands the result to the main thread to
 * answer; while a move lasts, the main thread lends the input to a helper thread, so
 * quit is answered even when the player overruns (the referee's deadline decides a
 * timeout). A player that throws or calls System.exit gets its move answered with a
 * failure naming the reason, which the referee turns into a forfeit.
 */
public final class Main {
    static final String VERSION = "2";
    static final String PID_FILE = ".kinrow-java-pid";

    /** The protocol's output, written by the main thread only (answers are signed there). */
    private final OutputStream out;
    private final String className;
    private final ExitGuard guard;
    private final ExecutorService worker = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "kinrow-player");
        t.setDaemon(true);
        return t;
    });
    /** Input lines, moves the worker finished, the JVM's exit: the main thread's work. */
    private final BlockingQueue<Object> events = new LinkedBlockingQueue<>();
    private Course course;
    private boolean fresh;
    private Object player;
    private boolean inited;
    private String initColor;
    private String initError;
    private long moveTimeMs = -1;
    private int games;
    /** The genmove being answered by the worker, or null. */
    private volatile Command pending;
    private volatile boolean exiting;
    private Path workdir;

    private Main(OutputStream out, String className, ExitGuard guard) {
        this.out = out;
        this.className = className;
        this.guard = guard;
    }

    /** Runs the bridge; see the class comment for the arguments. */
    public static void main(String[] args) throws IOException, InterruptedException {
        String cls = null;
        boolean probe = false;
        boolean fresh = false;
        boolean ownWorkdir = false;
        String protocolFd = null;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--player":
                    if (i + 1 >= args.length) {
                        usage("--player needs a class name");
                    }
                    cls = args[++i];
                    break;
                case "--probe":
                    probe = true;
                    break;
                case "--fresh":
                    fresh = true;
                    break;
                case "--own-workdir":
                    ownWorkdir = true;
                    break;
                case "--protocol-fd":
                    if (i + 1 >= args.length || !args[i + 1].matches("[0-9]+")) {
                        usage("--protocol-fd needs a file descriptor number");
                    }
                    protocolFd = args[++i];
                    break;
                default:
                    usage("unknown argument " + args[i]);
            }
        }
        if (cls == null) {
            usage("--player CLASS is required");
        }
        if (probe) {
            System.exit(probe(cls));
        }
        // The protocol's output: the JVM's stdout, or (--protocol-fd, set by the manifest's
        // command, which points the JVM's stdout at stderr) a descriptor nothing else in the
        // JVM writes to, so even FileDescriptor.out and the JVM's own prints stay off it.
        FileOutputStream raw = new FileOutputStream(FileDescriptor.out);
        if (protocolFd != null) {
            try {
                raw = new FileOutputStream("/dev/fd/" + protocolFd);
            } catch (IOException e) {
                System.err.println("kinrow-java: cannot open descriptor " + protocolFd + " (" + e.getMessage() + "); answering on stdout");
            }
        }
        System.setOut(new PrintStream(new FileOutputStream(FileDescriptor.err), true, StandardCharsets.UTF_8));
        System.setIn(new ByteArrayInputStream(new byte[0]));
        FileInputStream in = new FileInputStream(FileDescriptor.in);
        // The guard goes in once the bridge holds every descriptor it needs.
        Main m = new Main(raw, cls, ExitGuard.install());
        m.fresh = fresh;
        if (ownWorkdir) {
            m.claimWorkdir();
        }
        Runtime.getRuntime().addShutdownHook(new Thread(m::onJvmExit, "kinrow-bridge-exit"));
        if (m.guard == null) {
            log("this JVM refuses a security manager: a player's System.exit ends the bridge (the pending move is answered from a shutdown hook),"
                    + " and nothing keeps the player from the protocol's descriptors or the JVM's memory (what it writes there is still never"
                    + " taken for an answer: it is not signed)");
        }
        m.run(in);
    }

    private static void usage(String why) {
        System.err.println("kinrow-java: " + why);
        System.err.println("usage: java -cp kinrow-java.jar:CLASSPATH kinrow.bridge.Main [--probe] --player CLASS [--fresh] [--own-workdir] [--protocol-fd N]");
        System.exit(2);
    }

    /** Prints what the player is (kind, class, java version) for kinrow java-manifest. */
    private static int probe(String cls) {
        try {
            Course c = Course.of(cls);
            System.out.println("kind " + c.kind());
            System.out.println("class " + c.playerClass.getName());
            System.out.println("java " + Runtime.version().feature());
            return 0;
        } catch (ReflectiveOperationException | LinkageError e) {
            System.err.println("kinrow-java: " + firstLine(e));
            return 1;
        }
    }

    static void log(String msg) {
        System.err.println("kinrow-java: " + msg);
    }

    static String firstLine(Throwable t) {
        String s = t.toString();
        int nl = s.indexOf('\n');
        return (nl < 0 ? s : s.substring(0, nl)).replace('\r', ' ').trim();
    }

    // ---- the protocol loop ----

    /** The longest first line read byte by byte (a kinrow-key line is about 60 bytes). */
    static final int MAX_FIRST_LINE = 256;
    /** How long quit (or the end of the input) waits for a move being answered. */
    static final long QUIT_WAIT_MS = 500;
    /** How long a move runs before the main thread lends the input to the helper. */
    static final long LEND_AFTER_MS = 20;
    /** How long the JVM's exit waits for the main thread to answer the pending move. */
    static final long EXIT_WAIT_MS = 500;

    /** A command: its id as received ("" for none), name and arguments. */
    static final class Command {
        final String id;
        /** The name and arguments as received, single spaces (what a signature covers). */
        final String line;
        /** The name in lower case. */
        final String name;
        final String[] args;

        private Command(String id, String line, String name, String[] args) {
            this.id = id;
            this.line = line;
            this.name = name;
            this.args = args;
        }

        /** The command on a line, or null for a blank line, a comment or an id alone. */
        static Command parse(String text) {
            String[] words = clean(text);
            if (words == null) {
                return null;
            }
            int k = 0;
            String id = "";
            if (digits(words[0])) {
                id = words[0];
                k = 1;
                if (words.length == 1) {
                    return null;
                }
            }
            String line = String.join(" ", java.util.Arrays.copyOfRange(words, k, words.length));
            return new Command(id, line, words[k].toLowerCase(Locale.ROOT), java.util.Arrays.copyOfRange(words, k + 1, words.length));
        }
    }

    static boolean digits(String s) {
        for (int i = 0; i < s.length(); i++) {
            if (s.charAt(i) < '0' || s.charAt(i) > '9') {
                return false;
            }
        }
        return !s.isEmpty();
    }

    /** An answer: success or failure, and its text. */
    static final class Reply {
        final boolean ok;
        final String text;

        Reply(boolean ok, String text) {
            this.ok = ok;
            this.text = text;
        }
    }

    static Reply ok(String text) {
        return new Reply(true, text);
    }

    static Reply fail(String text) {
        return new Reply(false, text);
    }

    /** dispatch's reply for a genmove handed to the worker: answered when it is done. */
    private static final Reply PENDING = new Reply(true, "");

    /** A line of input, or its end (text null); lent: read by the helper. */
    private static final class Input {
        final String text;
        final boolean lent;

        Input(String text, boolean lent) {
            this.text = text;
            this.lent = lent;
        }
    }

    /** The player's move returned (result) or threw (failed) on the worker. */
    private static final class Moved {
        final Command cmd;
        final String what;
        final Object result;
        final Throwable failed;

        Moved(Command cmd, String what, Object result, Throwable failed) {
            this.cmd = cmd;
            this.what = what;
            this.result = result;
            this.failed = failed;
        }
    }

    /** The JVM is exiting without quit: answer the pending move, then count down. */
    private static final class Exiting {
        final CountDownLatch answered = new CountDownLatch(1);
    }

    /**
     * The protocol loop, on the main thread. The first line is read here byte by byte: if
     * it is "[id] kinrow-key KEY" (32 hex digits), KEY becomes (k0, k1), local variables of
     * this method that only this thread ever holds, the line's bytes are cleared, and every
     * answer from then on, this one's included, is signed with it (Signer); otherwise the
     * line is read again with the rest and the answers carry the commands' ids. Then this
     * thread reads the commands and answers them all, the moves the worker hands it too.
     */
    private void run(FileInputStream stdin) throws IOException, InterruptedException {
        byte[] first = new byte[MAX_FIRST_LINE + 1];
        int n = 0;
        boolean eol = false;
        while (n < MAX_FIRST_LINE) {
            int b = stdin.read();
            if (b < 0) {
                break;
            }
            if (b == '\n') {
                first[n] = '\n';
                eol = true;
                break;
            }
            first[n++] = (byte) b;
        }
        long k0 = 0;
        long k1 = 0;
        boolean signed = false;
        InputStream rest = stdin;
        int[] key = eol ? keyLine(first, n) : null;
        if (key != null) {
            // key: the id's bounds, the command's, and where the key's digits start.
            k0 = Signer.keyHalf(first, key[4]);
            k1 = Signer.keyHalf(first, key[4] + 16);
            signed = true;
            long tag = Signer.tagRaw(k0, k1, first, key[0], key[1], key[2], key[3]);
            java.util.Arrays.fill(first, (byte) 0);
            write(frame(true, Long.toString(tag), new byte[0]));
        } else if (n > 0 || eol) {
            rest = new SequenceInputStream(new ByteArrayInputStream(first, 0, n + (eol ? 1 : 0)), stdin);
        }
        BufferedReader reader = new BufferedReader(new InputStreamReader(rest, StandardCharsets.UTF_8));
        startHelper(reader);
        try {
            course = Course.of(className);
        } catch (ReflectiveOperationException | LinkageError e) {
            // Still speak the protocol, so the host reports why at the first game.
            initError = "the player cannot be loaded: " + firstLine(e);
            log(initError);
        }
        // The input is read here, on this thread, except while a move has taken longer
        // than LEND_AFTER_MS: then the helper reads it (a line at a time, lent), so a quit
        // or the end of the input is seen while the player thinks.
        boolean lent = false;
        ArrayDeque<Input> deferred = new ArrayDeque<>();
        long quitBy = 0;
        for (;;) {
            // While a move is being answered, input waits (answers stay in order); a
            // quit, or the end of the input, waits for the move a moment only.
            if (pending == null) {
                quitBy = 0;
            } else if (quitBy == 0) {
                for (Input d : deferred) {
                    if (ends(d)) {
                        quitBy = System.currentTimeMillis() + QUIT_WAIT_MS;
                        break;
                    }
                }
            }
            Object e;
            boolean taken = true; // e came from events
            if (pending == null && !deferred.isEmpty()) {
                e = deferred.poll();
                taken = false;
            } else if (pending == null && !lent) {
                String line;
                try {
                    line = reader.readLine();
                } catch (IOException x) {
                    log("reading the input: " + x);
                    line = null;
                }
                e = new Input(line, false);
                taken = false;
            } else if (quitBy > 0) {
                e = events.poll(Math.max(0, quitBy - System.currentTimeMillis()), TimeUnit.MILLISECONDS);
                if (e == null) {
                    log("quit while the player is still thinking");
                    for (Input d : deferred) {
                        Command c = d.text == null ? null : Command.parse(d.text);
                        if (c != null && c.name.equals("quit")) {
                            reply(k0, k1, signed, c, ok(""));
                            break;
                        }
                    }
                    quit(0);
                    return;
                }
            } else if (pending != null && !lent) {
                e = events.poll(LEND_AFTER_MS, TimeUnit.MILLISECONDS);
                if (e == null) {
                    lent = true;
                    lend.release();
                    continue;
                }
            } else {
                e = events.take();
            }
            if (taken && e instanceof Input && ((Input) e).lent) {
                lent = false; // the helper's line: the input is this thread's again
                if (pending != null && !ends((Input) e)) {
                    deferred.add((Input) e);
                    lent = true;
                    lend.release();
                    continue;
                }
            }
            if (e instanceof Moved) {
                Moved m = (Moved) e;
                pending = null;
                reply(k0, k1, signed, m.cmd, moved(m));
                continue;
            }
            if (e instanceof Exiting) {
                Command c = pending;
                if (c != null) {
                    pending = null;
                    reply(k0, k1, signed, c, fail("the player called System.exit (the JVM is exiting)"));
                }
                ((Exiting) e).answered.countDown();
                continue;
            }
            Input in = (Input) e;
            if (pending != null) {
                deferred.add(in);
                continue;
            }
            if (in.text == null) {
                // The end of the input: the host is gone.
                quit(0);
                return;
            }
            Command c = Command.parse(in.text);
            if (c == null) {
                continue;
            }
            if (c.name.equals("quit")) {
                reply(k0, k1, signed, c, ok(""));
                quit(0);
                return;
            }
            Reply r;
            if (c.name.equals("kinrow-key")) {
                r = fail("kinrow-key must be the host's first command, with 32 hex digits (a key the answers are signed with)");
            } else {
                r = dispatch(c);
            }
            if (r != PENDING) {
                reply(k0, k1, signed, c, r);
            }
        }
    }

    /** Whether a deferred input ends the session: quit, or the end of the input. */
    private static boolean ends(Input in) {
        if (in.text == null) {
            return true;
        }
        Command c = Command.parse(in.text);
        return c != null && c.name.equals("quit");
    }

    /**
     * Whether line[0, n) is exactly "[id ]kinrow-key KEY" with KEY 32 hex digits (a CR
     * at the end allowed): {id from, id to, command from, command to, key from}, or null.
     */
    static int[] keyLine(byte[] line, int n) {
        if (n > 0 && line[n - 1] == '\r') {
            n--;
        }
        int i = 0;
        while (i < n && line[i] >= '0' && line[i] <= '9') {
            i++;
        }
        int idTo = i;
        if (idTo > 0) {
            if (i >= n || line[i] != ' ') {
                return null;
            }
            i++;
        }
        int from = i;
        byte[] name = "kinrow-key ".getBytes(StandardCharsets.US_ASCII);
        if (n - i != name.length + 32) {
            return null;
        }
        for (byte b : name) {
            if (line[i++] != b) {
                return null;
            }
        }
        for (int j = i; j < n; j++) {
            if (Signer.hexDigit(line[j]) < 0) {
                return null;
            }
        }
        return new int[] {0, idTo, from, n, i};
    }

    /** Lends the input to the helper for one line. */
    private final Semaphore lend = new Semaphore(0);

    /**
     * The helper: each time the main thread lends it the input, it reads one line (or
     * the end) into events, where the main thread takes it back.
     */
    private void startHelper(BufferedReader r) {
        Thread t = new Thread(() -> {
            for (;;) {
                try {
                    lend.acquire();
                } catch (InterruptedException e) {
                    return;
                }
                String line;
                try {
                    line = r.readLine();
                } catch (IOException e) {
                    log("reading the input: " + e);
                    line = null;
                }
                events.add(new Input(line, true));
            }
        }, "kinrow-input");
        t.setDaemon(true);
        t.start();
    }

    /** GTP's cleaning of a line: control characters dropped, # comments, tabs. */
    static String[] clean(String line) {
        StringBuilder sb = new StringBuilder(line.length());
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (c == '#') {
                break;
            }
            if (c == '\t') {
                sb.append(' ');
            } else if (c >= 0x20 && c != 0x7f) {
                sb.append(c);
            }
        }
        String s = sb.toString().trim();
        return s.isEmpty() ? null : s.split(" +");
    }

    /**
     * Writes the answer r to c: "=ID TEXT" or "?ID TEXT" and an empty line, the text on
     * one line, ID c's id or, when signed, the answer's tag under (k0, k1).
     */
    private void reply(long k0, long k1, boolean signed, Command c, Reply r) {
        String text = r.text == null ? "" : r.text.replace('\r', ' ').replace('\n', ' ').trim();
        byte[] t = text.getBytes(StandardCharsets.UTF_8);
        String id = signed ? Long.toString(Signer.tag(k0, k1, c.id, c.line, r.ok, t)) : c.id;
        write(frame(r.ok, id, t));
    }

    /** The bytes of the answer "=ID TEXT" (or "?ID TEXT") and its empty line. */
    static byte[] frame(boolean ok, String id, byte[] text) {
        byte[] i = id.getBytes(StandardCharsets.UTF_8);
        byte[] b = new byte[1 + i.length + (text.length > 0 ? 1 + text.length : 0) + 2];
        int n = 0;
        b[n++] = (byte) (ok ? '=' : '?');
        System.arraycopy(i, 0, b, n, i.length);
        n += i.length;
        if (text.length > 0) {
            b[n++] = ' ';
            System.arraycopy(text, 0, b, n, text.length);
            n += text.length;
        }
        b[n++] = '\n';
        b[n] = '\n';
        return b;
    }

    private void write(byte[] b) {
        try {
            out.write(b);
        } catch (IOException e) {
            log("writing an answer: " + e);
        }
    }

    private Reply dispatch(Command c) {
        String[] args = c.args;
        try {
            switch (c.name) {
                case "protocol_version":
                    return ok("2");
                case "name":
                    return ok("kinrow-java");
                case "version":
                    return ok(VERSION);
                case "known_command":
                    return ok(Boolean.toString(args.length == 1 && COMMANDS.contains(args[0].toLowerCase(Locale.ROOT))));
                case "list_commands":
                    return ok(String.join("\n", COMMANDS));
                case "rules":
                    rules(Rules.parse(args));
                    return ok("");
                case "clear_board":
                    need();
                    rules(course.rules);
                    return ok("");
                case "kinrow-option":
                    option(args);
                    return ok("");
                case "kinrow-movetime":
                    if (args.length != 1) {
                        throw new IllegalArgumentException("syntax error: want kinrow-movetime MS");
                    }
                    moveTimeMs = Long.parseLong(args[0]);
                    if (initColor != null && !inited) {
                        init(initColor);
                    }
                    return ok("");
                case "kinrow-side":
                    if (args.length != 1) {
                        throw new IllegalArgumentException("syntax error: want kinrow-side COLOR");
                    }
                    need();
                    initColor = color(args[0]);
                    if (moveTimeMs > 0 && !inited) {
                        init(initColor);
                    }
                    return ok("");
                case "play":
                    play(args);
                    return ok("");
                case "undo":
                    need();
                    if (course.moves() == 0) {
                        throw new IllegalArgumentException("cannot undo: no move has been played");
                    }
                    course.undo();
                    return ok("");
                case "genmove":
                    genmove(c);
                    return PENDING;
                default:
                    return fail("unknown command");
            }
        } catch (IllegalArgumentException | IllegalStateException | IndexOutOfBoundsException e) {
            return fail(e.getMessage() == null ? e.toString() : e.getMessage());
        } catch (ReflectiveOperationException | LinkageError e) {
            return fail("the course framework failed: " + firstLine(e));
        } catch (PlayerFailure e) {
            return fail(e.getMessage());
        }
    }

    static final List<String> COMMANDS = List.of("protocol_version", "name", "version", "known_command", "list_commands",
            "quit", "rules", "clear_board", "kinrow-option", "kinrow-movetime", "kinrow-side", "play", "undo", "genmove");

    private void need() {
        if (course == null) {
            throw new IllegalStateException(initError);
        }
        if (course.rules == null) {
            throw new IllegalStateException("no game: send rules first");
        }
    }

    private void rules(Rules r) throws ReflectiveOperationException {
        if (course == null) {
            throw new IllegalStateException(initError);
        }
        if (r.gravity != course.kind().equals("connectx")) {
            throw new IllegalArgumentException("the player " + className + " plays " + course.kind() + " rules, not " + r);
        }
        try {
            course.newGame(r);
        } catch (java.lang.reflect.InvocationTargetException e) {
            throw new IllegalArgumentException("the framework refused the board " + r + ": " + firstLine(e.getCause()));
        }
        inited = false;
        initColor = null;
        gameInitError = null;
        games++;
    }

    private void option(String[] args) {
        if (args.length < 1) {
            throw new IllegalArgumentException("syntax error: want kinrow-option KEY VALUE");
        }
        String key = args[0].toLowerCase(Locale.ROOT);
        String value = args.length > 1 ? String.join(" ", java.util.Arrays.copyOfRange(args, 1, args.length)) : "true";
        if (key.equals("fresh")) {
            if (!value.equals("true") && !value.equals("false")) {
                throw new IllegalArgumentException("option fresh: want true or false, got " + value);
            }
            fresh = value.equals("true");
            return;
        }
        throw new IllegalArgumentException("unknown option " + args[0] + ": accepted are fresh");
    }

    static String color(String c) {
        switch (c.toLowerCase(Locale.ROOT)) {
            case "x":
            case "b":
            case "black":
                return "x";
            case "o":
            case "w":
            case "white":
                return "o";
            default:
                throw new IllegalArgumentException("syntax error: unknown colour " + c + ": want x or o");
        }
    }

    private void play(String[] args) throws ReflectiveOperationException {
        if (args.length != 2) {
            throw new IllegalArgumentException("syntax error: want play COLOR MOVE");
        }
        need();
        String c = color(args[0]);
        if (!c.equals(course.toMove())) {
            throw new IllegalArgumentException("illegal move: " + c + " is not to move");
        }
        try {
            course.play(args[1]);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("illegal move: " + e.getMessage());
        } catch (java.lang.reflect.InvocationTargetException e) {
            throw new IllegalArgumentException("illegal move: the framework refused it: " + firstLine(e.getCause()));
        }
    }

    /** A failure of the player, answered as the move's failure (a forfeit). */
    static final class PlayerFailure extends Exception {
        private static final long serialVersionUID = 1L;

        PlayerFailure(String msg) {
            super(msg);
        }
    }

    /** Runs a call of the player on the worker thread and waits for it. */
    private Object onWorker(Callable<Object> call) throws Throwable {
        try {
            return worker.submit(call).get();
        } catch (ExecutionException e) {
            throw e.getCause();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw e;
        }
    }

    /** A failure message for a player's call that threw t (or called System.exit). */
    private String failure(String what, Throwable t) {
        Integer st = guard == null ? null : guard.called;
        if (st != null) {
            return "the player called System.exit(" + st + ") in " + what;
        }
        return what + " threw " + firstLine(t);
    }

    private void checkExitCalled(String where) throws PlayerFailure {
        Integer st = guard == null ? null : guard.called;
        if (st != null) {
            throw new PlayerFailure("the player called System.exit(" + st + ")" + (where.isEmpty() ? "" : " in " + where));
        }
    }

    /** initPlayer for this game (a new instance first if there is none, or fresh is set). */
    private void init(String color) throws PlayerFailure {
        if (gameInitError != null) {
            throw new PlayerFailure(gameInitError);
        }
        try {
            initOnce(color);
        } catch (PlayerFailure e) {
            gameInitError = e.getMessage();
            log(gameInitError);
            throw e;
        }
    }

    private void initOnce(String color) throws PlayerFailure {
        checkExitCalled("");
        boolean first = color.equals("x");
        int secs = (int) Math.max(1, moveTimeMs > 0 ? moveTimeMs / 1000 : 10);
        Rules r = course.rules;
        try {
            if (player == null || (fresh && instanceGame != games)) {
                player = onWorker(() -> course.ctor.newInstance());
                instanceGame = games;
            }
        } catch (Throwable t) {
            Throwable c = t instanceof java.lang.reflect.InvocationTargetException ? t.getCause() : t;
            throw new PlayerFailure(failure("the constructor of " + className, c));
        }
        try {
            onWorker(() -> Course.call(course.initPlayer, player, r.rows, r.cols, r.k, first, secs));
        } catch (Throwable t) {
            throw new PlayerFailure(failure("initPlayer", t));
        }
        checkExitCalled("initPlayer");
        inited = true;
        initColor = color;
        String name;
        try {
            name = String.valueOf(onWorker(() -> Course.call(course.playerName, player)));
        } catch (Throwable t) {
            name = "(playerName threw " + firstLine(t) + ")";
        }
        log("initPlayer(" + r.rows + ", " + r.cols + ", " + r.k + ", " + first + ", " + secs + ") done: " + name + ", game " + games);
    }

    /** The game the player instance was made for. */
    private int instanceGame;
    /** Why initPlayer failed in this game, or null. */
    private String gameInitError;

    /** Hands the move to the worker; the main thread answers it when it is done (Moved). */
    private void genmove(Command cmd) throws ReflectiveOperationException, PlayerFailure {
        String[] args = cmd.args;
        if (args.length != 1) {
            throw new IllegalArgumentException("syntax error: want genmove COLOR");
        }
        need();
        String c = color(args[0]);
        if (!c.equals(course.toMove())) {
            throw new IllegalArgumentException("illegal move: " + c + " is not to move");
        }
        if (course.moves() == course.rules.rows * course.rules.cols) {
            throw new IllegalStateException("the board is full");
        }
        if (inited && !c.equals(initColor)) {
            throw new IllegalArgumentException("this player was set up to play " + initColor + " (initPlayer), not " + c);
        }
        if (!inited) {
            init(c);
        }
        checkExitCalled("");
        Callable<Object> select = course.select(player);
        String what = course.selectName();
        pending = cmd;
        worker.execute(() -> {
            Object result = null;
            Throwable failed = null;
            try {
                result = select.call();
            } catch (Throwable t) {
                failed = t;
            }
            events.add(new Moved(cmd, what, result, failed));
        });
    }

    /** The answer to a move the worker finished (on the main thread, which owns the board). */
    private Reply moved(Moved m) {
        Integer st = guard == null ? null : guard.called;
        if (st != null) {
            return fail("the player called System.exit(" + st + ") in " + m.what);
        }
        if (m.failed != null) {
            return fail(m.what + " threw " + firstLine(m.failed));
        }
        try {
            String text = course.answer(m.result);
            if (course.why != null) {
                log(course.why);
            }
            if (text == null) {
                return fail(course.why);
            }
            return ok(text);
        } catch (ReflectiveOperationException | RuntimeException e) {
            return fail("the course framework failed on the answer of " + m.what + ": " + firstLine(e));
        }
    }

    // ---- exit and the working directory ----

    private void quit(int status) {
        exiting = true;
        if (guard != null) {
            guard.allowed = true;
        }
        removeWorkdir();
        Runtime.getRuntime().halt(status);
    }

    /**
     * The shutdown hook: the JVM is ending without quit (a player's System.exit where no
     * guard refuses it, a signal). The main thread, which alone can sign, answers the
     * pending move, if any, with the reason.
     */
    private void onJvmExit() {
        if (!exiting && pending != null) {
            Exiting x = new Exiting();
            events.add(x);
            try {
                x.answered.await(EXIT_WAIT_MS, TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        removeWorkdir();
    }

    /**
     * The working directory is this bridge's own (made for it by the manifest's command):
     * mark it with the process id, remove the ones of bridges that are gone, and remove
     * it at exit.
     */
    private void claimWorkdir() {
        Path cwd = new File("").getAbsoluteFile().toPath();
        try {
            Files.writeString(cwd.resolve(PID_FILE), Long.toString(ProcessHandle.current().pid()));
        } catch (IOException e) {
            log("cannot mark the working directory " + cwd + ": " + e);
            return;
        }
        workdir = cwd;
        String name = cwd.getFileName().toString();
        int dot = name.lastIndexOf('.');
        Path parent = cwd.getParent();
        if (dot <= 0 || parent == null) {
            return;
        }
        String prefix = name.substring(0, dot + 1);
        List<Path> stale = new ArrayList<>();
        try (Stream<Path> s = Files.list(parent)) {
            s.filter(p -> p.getFileName().toString().startsWith(prefix) && !p.equals(cwd)).forEach(p -> {
                try {
                    long pid = Long.parseLong(Files.readString(p.resolve(PID_FILE)).trim());
                    if (ProcessHandle.of(pid).isEmpty()) {
                        stale.add(p);
                    }
                } catch (IOException | NumberFormatException e) {
                    // not a bridge's directory, or not yet marked: leave it
                }
            });
        } catch (IOException e) {
            return;
        }
        for (Path p : stale) {
            removeTree(p);
        }
    }

    /** Guards workdir; not the bridge's lock, which a player's exit may leave held. */
    private final Object workdirLock = new Object();

    private void removeWorkdir() {
        synchronized (workdirLock) {
            if (workdir != null) {
                removeTree(workdir);
                workdir = null;
            }
        }
    }

    private static void removeTree(Path root) {
        try (Stream<Path> s = Files.walk(root)) {
            s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException | RuntimeException e) {
            // best effort
        }
    }
}
