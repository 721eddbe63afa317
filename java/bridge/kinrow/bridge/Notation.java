package kinrow.bridge;

/**
 * kinrow's move notation and the course frameworks' indices.
 *
 * <p>ConnectX: kinrow column c (from 1, left to right) is the framework's column c-1.
 * m,n,k: kinrow's vertex is a column in letters (a to z without i, then aa, ab, ...)
 * and a row number from 1 at the bottom; the framework's cell (i, j) counts rows i
 * from 0 at the top and columns j from 0 at the left. On a board of M rows, kinrow row
 * r is framework row M - r, and column letter number n (a = 1) is j = n - 1.
 */
final class Notation {
    /** kinrow's column letters: the alphabet without i. */
    static final String LETTERS = "abcdefghjklmnopqrstuvwxyz";

    private Notation() {}

    /** The letters of column j (from 0): a, b, ..., z, aa, ab, ... */
    static String columnLetters(int j) {
        StringBuilder sb = new StringBuilder();
        for (int n = j + 1; n > 0; n = (n - 1) / LETTERS.length()) {
            sb.append(LETTERS.charAt((n - 1) % LETTERS.length()));
        }
        return sb.reverse().toString();
    }

    /** The kinrow vertex of framework cell (i, j) on a board of rows rows. */
    static String vertex(int i, int j, int rows) {
        return columnLetters(j) + (rows - i);
    }

    /**
     * Parses a kinrow vertex into the framework's {i, j} on a board of rows x cols; throws
     * IllegalArgumentException saying why it is not one.
     */
    static int[] parseVertex(String v, int rows, int cols) {
        String s = v.toLowerCase(java.util.Locale.ROOT);
        int k = 0;
        long col = 0;
        while (k < s.length() && Character.isLetter(s.charAt(k))) {
            int d = LETTERS.indexOf(s.charAt(k));
            if (d < 0) {
                throw new IllegalArgumentException("bad column letter '" + s.charAt(k) + "' in " + v + " (letters a-z without i)");
            }
            col = col * LETTERS.length() + d + 1;
            if (col > cols) {
                throw new IllegalArgumentException("column of " + v + " off the board of " + cols + " columns");
            }
            k++;
        }
        if (k == 0 || k == s.length()) {
            throw new IllegalArgumentException("want a vertex such as b2, got " + v);
        }
        int row;
        try {
            row = Integer.parseInt(s.substring(k));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("want a vertex such as b2, got " + v);
        }
        if (row < 1 || row > rows) {
            throw new IllegalArgumentException("row of " + v + " off the board of " + rows + " rows");
        }
        return new int[] {rows - row, (int) col - 1};
    }

    /** Parses a kinrow Connect-X column (from 1) into the framework's column (from 0). */
    static int parseColumn(String v, int cols) {
        int c;
        try {
            c = Integer.parseInt(v);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("want a column number from 1 to " + cols + ", got " + v);
        }
        if (c < 1 || c > cols) {
            throw new IllegalArgumentException("column " + v + " off the board: want 1 to " + cols);
        }
        return c - 1;
    }
}
