import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.List;

/**
 * C4Broken one-move IN OUT DEPTH: a Connect-4 engine in Java for the
 * referee's tests (compiled by the test) whose scan of a row runs one cell
 * past its end, as a first Java engine does.
 */
public class C4Broken {
    static int firstEmpty(char[] row) {
        for (int c = 0; c <= row.length; c++)
            if (row[c] == '9')
                return c;
        return -1;
    }

    public static void main(String[] args) throws Exception {
        List<String> lines = Files.readAllLines(Paths.get(args[1]), StandardCharsets.US_ASCII);
        System.err.println("thinking at depth " + args[3]);
        firstEmpty(lines.get(0).toCharArray());
    }
}
