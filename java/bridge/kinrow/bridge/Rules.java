package kinrow.bridge;

import java.util.Locale;

/** A kinrow rules string: connectx:RxCxK or mnk:RxCxK (rows first), or a preset. */
final class Rules {
    final boolean gravity;
    final int rows;
    final int cols;
    final int k;

    Rules(boolean gravity, int rows, int cols, int k) {
        this.gravity = gravity;
        this.rows = rows;
        this.cols = cols;
        this.k = k;
    }

    /** Parses the arguments of the rules command; throws IllegalArgumentException. */
    static Rules parse(String[] args) {
        String s;
        if (args.length == 4) {
            s = args[0] + ":" + args[1] + "x" + args[2] + "x" + args[3];
        } else if (args.length == 1) {
            s = args[0];
        } else {
            throw new IllegalArgumentException("syntax error: want rules connectx:RxCxK or mnk:RxCxK");
        }
        s = s.toLowerCase(Locale.ROOT);
        switch (s) {
            case "connect4":
                s = "connectx:6x7x4";
                break;
            case "tictactoe":
                s = "mnk:3x3x3";
                break;
            case "gomoku":
                s = "mnk:15x15x5";
                break;
            default:
        }
        int colon = s.indexOf(':');
        if (colon < 0) {
            throw new IllegalArgumentException("unknown rules " + s + ": want connectx:RxCxK or mnk:RxCxK");
        }
        String kind = s.substring(0, colon);
        String[] dims = s.substring(colon + 1).split("x");
        if (!(kind.equals("connectx") || kind.equals("mnk")) || dims.length != 3) {
            throw new IllegalArgumentException("unknown rules " + s + ": want connectx:RxCxK or mnk:RxCxK");
        }
        int[] n = new int[3];
        for (int i = 0; i < 3; i++) {
            try {
                n[i] = Integer.parseInt(dims[i]);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("bad number " + dims[i] + " in rules " + s);
            }
            if (n[i] < 1 || n[i] > 128) {
                throw new IllegalArgumentException("rules " + s + ": sizes go from 1 to 128");
            }
        }
        return new Rules(kind.equals("connectx"), n[0], n[1], n[2]);
    }

    @Override
    public String toString() {
        return (gravity ? "connectx:" : "mnk:") + rows + "x" + cols + "x" + k;
    }
}
