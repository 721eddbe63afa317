package kinrow.testplayers;

import java.io.FileWriter;
import java.io.IOException;

/** Appends a line to the file named by $KINROW_TEST_TRACE, if set (for the tests' checks). */
final class Trace {
    private Trace() {}

    static synchronized void line(String s) {
        String f = System.getenv("KINROW_TEST_TRACE");
        if (f == null || f.isEmpty()) {
            return;
        }
        try (FileWriter w = new FileWriter(f, true)) {
            w.write(s + "\n");
        } catch (IOException e) {
            System.err.println("trace: " + e);
        }
    }
}
