package kinrow.bridge;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Signing answers (docs/BOTS.md, "What the bridge guarantees"): with a key from the
 * host's kinrow-key, an answer's id is its tag, the low 31 bits of SipHash-2-4 of
 *
 * <pre>
 * id "\n" command "\n" ("=" | "?") "\n" text
 * </pre>
 *
 * (the command's id as received, "" for none; the command's name and arguments,
 * single spaces; the answer's text as written), the same as protocol/gtp's
 * AnswerKey.Tag on the host. Nothing here keeps the key: its two halves are
 * arguments, held by the bridge's main thread in local variables only, never in a
 * field or an object a player could reach (not even by reflection, which cannot
 * read another method's locals), nor in the heap a heap dump would show.
 */
final class Signer {
    private Signer() {}

    /** Tags are at most 2^31 - 1, so that the host reads one as an int anywhere. */
    static final long MAX_TAG = 0x7fffffffL;

    /** The tag of the answer (ok, text) to the command (id, line) under the key (k0, k1). */
    static long tag(long k0, long k1, String id, String line, boolean ok, byte[] text) {
        byte[] i = id.getBytes(StandardCharsets.UTF_8);
        byte[] l = line.getBytes(StandardCharsets.UTF_8);
        byte[] m = new byte[i.length + l.length + text.length + 5];
        int n = 0;
        System.arraycopy(i, 0, m, n, i.length);
        n += i.length;
        m[n++] = '\n';
        System.arraycopy(l, 0, m, n, l.length);
        n += l.length;
        m[n++] = '\n';
        m[n++] = (byte) (ok ? '=' : '?');
        m[n++] = '\n';
        System.arraycopy(text, 0, m, n, text.length);
        n += text.length;
        return sipHash24(k0, k1, m, n) & MAX_TAG;
    }

    /**
     * The tag of the success answer with no text to the command in line[from, to),
     * whose id is line[idFrom, idTo) (kinrow-key's own answer, signed from the bytes
     * read, which are then cleared with the message).
     */
    static long tagRaw(long k0, long k1, byte[] line, int idFrom, int idTo, int from, int to) {
        int idLen = idTo - idFrom;
        byte[] m = new byte[idLen + (to - from) + 4];
        int n = 0;
        System.arraycopy(line, idFrom, m, n, idLen);
        n += idLen;
        m[n++] = '\n';
        System.arraycopy(line, from, m, n, to - from);
        n += to - from;
        m[n++] = '\n';
        m[n++] = '=';
        m[n++] = '\n';
        long t = sipHash24(k0, k1, m, n) & MAX_TAG;
        Arrays.fill(m, (byte) 0);
        return t;
    }

    /**
     * SipHash-2-4 (Aumasson and Bernstein, 2012) of m[0, len) under the key (k0, k1),
     * the key's bytes read little-endian as in the reference.
     */
    static long sipHash24(long k0, long k1, byte[] m, int len) {
        long v0 = k0 ^ 0x736f6d6570736575L;
        long v1 = k1 ^ 0x646f72616e646f6dL;
        long v2 = k0 ^ 0x6c7967656e657261L;
        long v3 = k1 ^ 0x7465646279746573L;
        int end = len & ~7;
        for (int off = 0; off <= end; off += 8) {
            long w = 0;
            if (off < end) {
                for (int b = 7; b >= 0; b--) {
                    w = (w << 8) | (m[off + b] & 0xffL);
                }
            } else {
                w = ((long) len) << 56;
                for (int b = 0; b < len - end; b++) {
                    w |= (m[end + b] & 0xffL) << (8 * b);
                }
            }
            v3 ^= w;
            for (int r = 0; r < 2; r++) {
                v0 += v1; v1 = Long.rotateLeft(v1, 13); v1 ^= v0; v0 = Long.rotateLeft(v0, 32);
                v2 += v3; v3 = Long.rotateLeft(v3, 16); v3 ^= v2;
                v0 += v3; v3 = Long.rotateLeft(v3, 21); v3 ^= v0;
                v2 += v1; v1 = Long.rotateLeft(v1, 17); v1 ^= v2; v2 = Long.rotateLeft(v2, 32);
            }
            v0 ^= w;
        }
        v2 ^= 0xff;
        for (int r = 0; r < 4; r++) {
            v0 += v1; v1 = Long.rotateLeft(v1, 13); v1 ^= v0; v0 = Long.rotateLeft(v0, 32);
            v2 += v3; v3 = Long.rotateLeft(v3, 16); v3 ^= v2;
            v0 += v3; v3 = Long.rotateLeft(v3, 21); v3 ^= v0;
            v2 += v1; v1 = Long.rotateLeft(v1, 17); v1 ^= v2; v2 = Long.rotateLeft(v2, 32);
        }
        return v0 ^ v1 ^ v2 ^ v3;
    }

    /** The value of the hex digit c, or -1. */
    static int hexDigit(byte c) {
        if (c >= '0' && c <= '9') {
            return c - '0';
        }
        if (c >= 'a' && c <= 'f') {
            return c - 'a' + 10;
        }
        if (c >= 'A' && c <= 'F') {
            return c - 'A' + 10;
        }
        return -1;
    }

    /**
     * Half of a key from 16 hex digits at line[from]: bytes in order, read
     * little-endian (the first byte is the lowest), as the host's key bytes.
     */
    static long keyHalf(byte[] line, int from) {
        long k = 0;
        for (int b = 0; b < 8; b++) {
            long v = (hexDigit(line[from + 2 * b]) << 4) | hexDigit(line[from + 2 * b + 1]);
            k |= v << (8 * b);
        }
        return k;
    }
}
