/*
 * PersistentEngine.java - a connect4 / maxconnect4 engine that stays for the
 * whole game (SPEC proto=persistent, docs/engines.md). It drops its disc in
 * the free column nearest the centre, and counts its moves to show that it
 * keeps what it learns between them. One JVM start a game instead of one a
 * move.
 *
 *   javac -d classes PersistentEngine.java
 *   referee match --game maxconnect4 \
 *       --engine 'proto=persistent,cmd=java -cp classes PersistentEngine' --engine ...
 */
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;

public class PersistentEngine {
    static final int ROWS = 6;
    static final int[] CENTRE_FIRST = {3, 2, 4, 1, 5, 0, 6};

    static void move(String in, String out) throws IOException {
        String[] words = new String(Files.readAllBytes(Paths.get(in)), StandardCharsets.US_ASCII)
                .trim().split("\\s+");
        char[][] grid = new char[ROWS][];
        for (int r = 0; r < ROWS; r++)
            grid[r] = words[r].toCharArray();
        int player = Integer.parseInt(words[ROWS]);
        for (int c : CENTRE_FIRST) {
            if (grid[0][c] != '0')
                continue;
            int r = ROWS - 1;
            while (grid[r][c] != '0')
                r--;
            grid[r][c] = (char) ('0' + player);
            break;
        }
        StringBuilder text = new StringBuilder();
        for (char[] row : grid)
            text.append(row).append('\n');
        text.append(3 - player).append('\n');
        Files.write(Paths.get(out), text.toString().getBytes(StandardCharsets.US_ASCII));
    }

    public static void main(String[] args) throws IOException {
        BufferedReader stdin =
                new BufferedReader(new InputStreamReader(System.in, StandardCharsets.US_ASCII));
        long moves = 0;
        String line;
        // One request a line: move IN OUT DEPTH TIME_LEFT_MS INC_MS.
        while ((line = stdin.readLine()) != null) {
            String[] w = line.trim().split("\\s+");
            if (w[0].equals("quit"))
                break;
            if (!w[0].equals("move") || w.length < 3)
                continue;
            move(w[1], w[2]);
            moves++;
            System.out.println("info moves " + moves);  // any line but "done" is ours
            System.out.println("done");
            System.out.flush();  // the referee waits for this line
        }
    }
}
