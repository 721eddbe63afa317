package kinrow.bridge;

import java.io.BufferedOutputStream;
import java.io.BufferedReader;
import java.io.ByteArrayInputStream;
import java.io.File;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
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
 * initPlayer runs when the host gives the side (kinrow-side) and the move time, or at
 * the first genmove; selectColumn and selectCell run on a worker thread while this
 * thread goes on reading, so quit is answered even when the player overruns (the
 * referee's deadline decides a timeout). A player that throws or calls System.exit
 * gets its move answered with a failure naming the reason, which the referee turns
 * into a forfeit.
 */
public final class Main {
    static final String VERSION = "1";
    static final String PID_FILE = ".kinrow-java-pid";

    private final PrintStream out;
    private final String className;
    private final ExitGuard guard;
    private final ExecutorService worker = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "kinrow-player");
        t.setDaemon(true);
        return t;
    });
    private Course course;
    private boolean fresh;
    private Object player;
    private boolean inited;
    private String initColor;
    private String initError;
    private long moveTimeMs = -1;
    private int games;
    /** The genmove being answered by the worker, or null. */
    private Future<?> pending;
    private String pendingId;
    private volatile boolean exiting;
    private Path workdir;

    private Main(PrintStream out, String className, ExitGuard guard) {
        this.out = out;
        this.className = className;
        this.guard = guard;
    }

    /** Runs the bridge; see the class comment for the arguments. */
    public static void main(String[] args) throws IOException {
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
        PrintStream protocol = new PrintStream(new BufferedOutputStream(raw), false, StandardCharsets.UTF_8);
        System.setOut(new PrintStream(new FileOutputStream(FileDescriptor.err), true, StandardCharsets.UTF_8));
        System.setIn(new ByteArrayInputStream(new byte[0]));
        Main m = new Main(protocol, cls, ExitGuard.install());
        m.fresh = fresh;
        if (ownWorkdir) {
            m.claimWorkdir();
        }
        Runtime.getRuntime().addShutdownHook(new Thread(m::onJvmExit, "kinrow-bridge-exit"));
        if (m.guard == null) {
            log("this JVM refuses a security manager: a player's System.exit ends the bridge (the pending move is answered from a shutdown hook)");
        }
        m.run(new BufferedReader(new InputStreamReader(new java.io.FileInputStream(FileDescriptor.in), StandardCharsets.UTF_8)));
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

    private void run(BufferedReader in) throws IOException {
        try {
            course = Course.of(className);
        } catch (ReflectiveOperationException | LinkageError e) {
            // Still speak the protocol, so the host reports why at the first game.
            initError = "the player cannot be loaded: " + firstLine(e);
            log(initError);
        }
        String line;
        while ((line = in.readLine()) != null) {
            String[] words = clean(line);
            if (words == null) {
                continue;
            }
            String id = "";
            int k = 0;
            if (words[0].chars().allMatch(Character::isDigit)) {
                id = words[0];
                k = 1;
                if (words.length == 1) {
                    continue;
                }
            }
            String name = words[k].toLowerCase(Locale.ROOT);
            String[] args = java.util.Arrays.copyOfRange(words, k + 1, words.length);
            if (name.equals("quit")) {
                // Answers stay in order: a move being answered has a moment to finish.
                waitPending(QUIT_WAIT_MS);
                answer(id, true, "");
                quit(0);
                return;
            }
            waitPending();
            synchronized (this) {
                dispatch(id, name, args);
            }
        }
        // The end of the input (the host is gone): a player still thinking is not waited for.
        waitPending(QUIT_WAIT_MS);
        quit(0);
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

    private synchronized void answer(String id, boolean ok, String text) {
        out.print(ok ? '=' : '?');
        out.print(id);
        text = text.replace('\r', ' ').replace('\n', ' ').trim();
        if (!text.isEmpty()) {
            out.print(' ');
            out.print(text);
        }
        out.print("\n\n");
        out.flush();
    }

    private void dispatch(String id, String name, String[] args) {
        try {
            switch (name) {
                case "protocol_version":
                    answer(id, true, "2");
                    break;
                case "name":
                    answer(id, true, "kinrow-java");
                    break;
                case "version":
                    answer(id, true, VERSION);
                    break;
                case "known_command":
                    answer(id, true, Boolean.toString(args.length == 1 && COMMANDS.contains(args[0].toLowerCase(Locale.ROOT))));
                    break;
                case "list_commands":
                    answer(id, true, String.join("\n", COMMANDS));
                    break;
                case "rules":
                    rules(Rules.parse(args));
                    answer(id, true, "");
                    break;
                case "clear_board":
                    need();
                    rules(course.rules);
                    answer(id, true, "");
                    break;
                case "kinrow-option":
                    option(args);
                    answer(id, true, "");
                    break;
                case "kinrow-movetime":
                    if (args.length != 1) {
                        throw new IllegalArgumentException("syntax error: want kinrow-movetime MS");
                    }
                    moveTimeMs = Long.parseLong(args[0]);
                    if (initColor != null && !inited) {
                        init(initColor);
                    }
                    answer(id, true, "");
                    break;
                case "kinrow-side":
                    if (args.length != 1) {
                        throw new IllegalArgumentException("syntax error: want kinrow-side COLOR");
                    }
                    need();
                    initColor = color(args[0]);
                    if (moveTimeMs > 0 && !inited) {
                        init(initColor);
                    }
                    answer(id, true, "");
                    break;
                case "play":
                    play(args);
                    answer(id, true, "");
                    break;
                case "undo":
                    need();
                    if (course.moves() == 0) {
                        throw new IllegalArgumentException("cannot undo: no move has been played");
                    }
                    course.undo();
                    answer(id, true, "");
                    break;
                case "genmove":
                    genmove(id, args);
                    break;
                default:
                    answer(id, false, "unknown command");
            }
        } catch (IllegalArgumentException | IllegalStateException | IndexOutOfBoundsException e) {
            answer(id, false, e.getMessage() == null ? e.toString() : e.getMessage());
        } catch (ReflectiveOperationException | LinkageError e) {
            answer(id, false, "the course framework failed: " + firstLine(e));
        } catch (PlayerFailure e) {
            answer(id, false, e.getMessage());
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

    private void genmove(String id, String[] args) throws ReflectiveOperationException, PlayerFailure {
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
        pendingId = id;
        pending = worker.submit(() -> {
            Object result = null;
            Throwable failed = null;
            try {
                result = select.call();
            } catch (Throwable t) {
                failed = t;
            }
            finish(id, what, result, failed);
            return null;
        });
    }

    /** Answers the pending genmove (on the worker thread). */
    private synchronized void finish(String id, String what, Object result, Throwable failed) {
        pendingId = null;
        if (exiting) {
            return;
        }
        Integer st = guard == null ? null : guard.called;
        if (st != null) {
            answer(id, false, "the player called System.exit(" + st + ") in " + what);
            return;
        }
        if (failed != null) {
            answer(id, false, what + " threw " + firstLine(failed));
            return;
        }
        try {
            String text = course.answer(result);
            if (course.why != null) {
                log(course.why);
            }
            if (text == null) {
                answer(id, false, course.why);
                return;
            }
            answer(id, true, text);
        } catch (ReflectiveOperationException | RuntimeException e) {
            answer(id, false, "the course framework failed on the answer of " + what + ": " + firstLine(e));
        }
    }

    /** How long quit waits for a move being answered. */
    static final long QUIT_WAIT_MS = 500;

    private void waitPending() {
        waitPending(-1);
    }

    /** Waits for the pending move's answer, at most ms (forever if ms < 0). */
    private void waitPending(long ms) {
        Future<?> p = pending;
        if (p == null) {
            return;
        }
        try {
            if (ms < 0) {
                p.get();
            } else {
                p.get(ms, java.util.concurrent.TimeUnit.MILLISECONDS);
            }
            pending = null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException e) {
            log("the move's worker failed: " + firstLine(e.getCause()));
            pending = null;
        } catch (java.util.concurrent.TimeoutException e) {
            log("quit while the player is still thinking");
        }
    }

    // ---- exit and the working directory ----

    private void quit(int status) {
        exiting = true;
        if (guard != null) {
            guard.allowed = true;
        }
        out.flush();
        removeWorkdir();
        Runtime.getRuntime().halt(status);
    }

    /** The shutdown hook: the JVM is ending without quit (a player's System.exit, a signal). */
    private void onJvmExit() {
        if (!exiting) {
            String id = pendingId;
            if (id != null) {
                answer(id, false, "the player called System.exit (the JVM is exiting)");
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
