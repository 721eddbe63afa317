package kinrow.bridge;

import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.concurrent.Callable;

/**
 * One course framework seen through reflection: the player's interface and the
 * framework's own board, found at run time on the class path, so the bridge compiles
 * with the JDK alone. The board is the framework's, built and marked as the course's
 * referee does, so the player sees exactly what that referee would show it; a
 * mirror of it here checks moves without relying on more of the framework's API.
 */
abstract class Course {
    final Class<?> playerClass;
    final Constructor<?> ctor;
    final Method initPlayer;
    final Method playerName;
    Rules rules;
    Object board;
    /** Moves of the game so far, as framework indices (column, or i*cols+j). */
    final Deque<Integer> history = new ArrayDeque<>();

    Course(Class<?> playerClass, Class<?> iface) throws ReflectiveOperationException {
        this.playerClass = playerClass;
        if (Modifier.isAbstract(playerClass.getModifiers())) {
            throw new NoSuchMethodException(playerClass.getName() + " is abstract or an interface: want the player's class");
        }
        this.ctor = playerClass.getConstructor();
        this.initPlayer = iface.getMethod("initPlayer", int.class, int.class, int.class, boolean.class, int.class);
        this.playerName = iface.getMethod("playerName");
    }

    /** The framework of the player class: ConnectX or MNKGame; throws saying why neither. */
    static Course of(String className) throws ReflectiveOperationException {
        ClassLoader loader = ClassLoader.getSystemClassLoader();
        Class<?> pc;
        try {
            pc = Class.forName(className, false, loader);
        } catch (ClassNotFoundException e) {
            throw new ClassNotFoundException("player class " + className + " not found on the class path " + System.getProperty("java.class.path"));
        }
        Class<?> cx = tryLoad("connectx.CXPlayer", loader);
        if (cx != null && cx.isAssignableFrom(pc)) {
            return new CX(pc, cx, loader);
        }
        Class<?> mnk = tryLoad("mnkgame.MNKPlayer", loader);
        if (mnk != null && mnk.isAssignableFrom(pc)) {
            return new MNK(pc, mnk, loader);
        }
        throw new ClassNotFoundException(className + " implements neither connectx.CXPlayer nor mnkgame.MNKPlayer"
                + (cx == null && mnk == null ? " (neither framework is on the class path: add the course's classes to it)" : ""));
    }

    private static Class<?> tryLoad(String name, ClassLoader loader) {
        try {
            return Class.forName(name, false, loader);
        } catch (ClassNotFoundException | LinkageError e) {
            return null;
        }
    }

    /** The rules kind the framework plays: "connectx" or "mnk". */
    abstract String kind();

    /** The name of the player's move method, for messages. */
    abstract String selectName();

    /** Starts a game: a new framework board. */
    abstract void newGame(Rules r) throws ReflectiveOperationException;

    /** Plays a move given in kinrow's notation; IllegalArgumentException if it is not legal. */
    abstract void play(String move) throws ReflectiveOperationException;

    /** Takes back the last move. */
    abstract void undo() throws ReflectiveOperationException;

    /** Prepares the move call (arguments built now, on the caller's thread). */
    abstract Callable<Object> select(Object player) throws ReflectiveOperationException;

    /**
     * Turns the player's answer into kinrow's notation, playing it on the board when it
     * is legal. An illegal move is returned as it came so the referee forfeits it as
     * one; null means the answer cannot be written as a move (see why()).
     */
    abstract String answer(Object result) throws ReflectiveOperationException;

    /** Why the last answer was refused or is illegal, for the log. */
    String why;

    int moves() {
        return history.size();
    }

    /** The side to move: "x" (the first player) or "o". */
    String toMove() {
        return history.size() % 2 == 0 ? "x" : "o";
    }

    static Object call(Method m, Object target, Object... args) throws ReflectiveOperationException {
        try {
            return m.invoke(target, args);
        } catch (InvocationTargetException e) {
            Throwable c = e.getCause();
            if (c instanceof RuntimeException) {
                throw (RuntimeException) c;
            }
            if (c instanceof Error) {
                throw (Error) c;
            }
            throw e;
        }
    }

    /** ConnectX: connectx.CXPlayer and connectx.CXBoard. */
    static final class CX extends Course {
        final Constructor<?> boardCtor;
        final Method markColumn;
        final Method unmarkColumn;
        final Method copy;
        final Method selectColumn;
        int[] height;

        CX(Class<?> pc, Class<?> iface, ClassLoader loader) throws ReflectiveOperationException {
            super(pc, iface);
            Class<?> b = Class.forName("connectx.CXBoard", false, loader);
            boardCtor = b.getConstructor(int.class, int.class, int.class);
            markColumn = b.getMethod("markColumn", int.class);
            unmarkColumn = b.getMethod("unmarkColumn");
            copy = b.getMethod("copy");
            selectColumn = iface.getMethod("selectColumn", b);
        }

        @Override
        String kind() {
            return "connectx";
        }

        @Override
        String selectName() {
            return "selectColumn";
        }

        @Override
        void newGame(Rules r) throws ReflectiveOperationException {
            board = boardCtor.newInstance(r.rows, r.cols, r.k);
            rules = r;
            height = new int[r.cols];
            history.clear();
        }

        @Override
        void play(String move) throws ReflectiveOperationException {
            int c = Notation.parseColumn(move, rules.cols);
            if (height[c] >= rules.rows) {
                throw new IllegalArgumentException("column " + move + " is full");
            }
            mark(c);
        }

        private void mark(int c) throws ReflectiveOperationException {
            call(markColumn, board, c);
            height[c]++;
            history.push(c);
        }

        @Override
        void undo() throws ReflectiveOperationException {
            int c = history.pop();
            height[c]--;
            call(unmarkColumn, board);
        }

        @Override
        Callable<Object> select(Object player) throws ReflectiveOperationException {
            Object b = call(copy, board);
            return () -> call(selectColumn, player, b);
        }

        @Override
        String answer(Object result) throws ReflectiveOperationException {
            why = null;
            int c = (Integer) result;
            String text = Integer.toString(c + 1);
            if (c < 0 || c >= rules.cols) {
                why = "selectColumn returned column " + c + " (from 0), off the board of " + rules.cols + " columns";
                return text;
            }
            if (height[c] >= rules.rows) {
                why = "selectColumn returned column " + c + " (from 0), which is full";
                return text;
            }
            mark(c);
            return text;
        }
    }

    /** m,n,k: mnkgame.MNKPlayer, mnkgame.MNKBoard and mnkgame.MNKCell. */
    static final class MNK extends Course {
        final Constructor<?> boardCtor;
        final Method markCell;
        final Method unmarkCell;
        final Method freeCells;
        final Method markedCells;
        final Method selectCell;
        final Field cellI;
        final Field cellJ;
        boolean[][] taken;

        MNK(Class<?> pc, Class<?> iface, ClassLoader loader) throws ReflectiveOperationException {
            super(pc, iface);
            Class<?> b = Class.forName("mnkgame.MNKBoard", false, loader);
            Class<?> cell = Class.forName("mnkgame.MNKCell", false, loader);
            Class<?> cells = java.lang.reflect.Array.newInstance(cell, 0).getClass();
            boardCtor = b.getConstructor(int.class, int.class, int.class);
            markCell = b.getMethod("markCell", int.class, int.class);
            unmarkCell = b.getMethod("unmarkCell");
            freeCells = b.getMethod("getFreeCells");
            markedCells = b.getMethod("getMarkedCells");
            selectCell = iface.getMethod("selectCell", cells, cells);
            cellI = cell.getField("i");
            cellJ = cell.getField("j");
        }

        @Override
        String kind() {
            return "mnk";
        }

        @Override
        String selectName() {
            return "selectCell";
        }

        @Override
        void newGame(Rules r) throws ReflectiveOperationException {
            board = boardCtor.newInstance(r.rows, r.cols, r.k);
            rules = r;
            taken = new boolean[r.rows][r.cols];
            history.clear();
        }

        @Override
        void play(String move) throws ReflectiveOperationException {
            int[] ij = Notation.parseVertex(move, rules.rows, rules.cols);
            if (taken[ij[0]][ij[1]]) {
                throw new IllegalArgumentException(move + " is occupied");
            }
            mark(ij[0], ij[1]);
        }

        private void mark(int i, int j) throws ReflectiveOperationException {
            call(markCell, board, i, j);
            taken[i][j] = true;
            history.push(i * rules.cols + j);
        }

        @Override
        void undo() throws ReflectiveOperationException {
            int v = history.pop();
            taken[v / rules.cols][v % rules.cols] = false;
            call(unmarkCell, board);
        }

        @Override
        Callable<Object> select(Object player) throws ReflectiveOperationException {
            Object fc = call(freeCells, board);
            Object mc = call(markedCells, board);
            return () -> call(selectCell, player, fc, mc);
        }

        @Override
        String answer(Object result) throws ReflectiveOperationException {
            why = null;
            if (result == null) {
                why = "selectCell returned null";
                return null;
            }
            int i = cellI.getInt(result);
            int j = cellJ.getInt(result);
            if (i < 0 || i >= rules.rows || j < 0 || j >= rules.cols) {
                why = "selectCell returned the cell [" + i + "," + j + "], off the board of " + rules.rows + " rows and " + rules.cols + " columns";
                return "cell[" + i + "," + j + "]";
            }
            String text = Notation.vertex(i, j, rules.rows);
            if (taken[i][j]) {
                why = "selectCell returned the cell [" + i + "," + j + "] (" + text + "), which is occupied";
                return text;
            }
            mark(i, j);
            return text;
        }
    }
}
