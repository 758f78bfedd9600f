import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.List;

/**
 * NimFirst IN OUT [DEPTH]: a Nim engine in Java for the referee's tests
 * (compiled by the test): takes one match from the first heap that has any.
 */
public class NimFirst {
    public static void main(String[] args) throws Exception {
        List<String> lines = Files.readAllLines(Paths.get(args[0]), StandardCharsets.US_ASCII);
        String[] heaps = lines.get(0).trim().split("\\s+");
        int player = Integer.parseInt(lines.get(1).trim());
        for (int i = 0; i < heaps.length; i++) {
            int n = Integer.parseInt(heaps[i]);
            if (n > 0) {
                heaps[i] = Integer.toString(n - 1);
                break;
            }
        }
        String board = String.join(" ", heaps) + "\n" + (3 - player) + "\n";
        Files.write(Paths.get(args[1]), board.getBytes(StandardCharsets.US_ASCII));
    }
}
