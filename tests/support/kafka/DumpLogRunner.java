// Runs Kafka's kafka.tools DumpLogSegments on many files in one JVM: one run per file,
// each announced on stdout by a line "@@FILE@@ PATH".
//
// Usage: DumpLogRunner [DumpLogSegments options] -- FILE...
//
// DumpLogSegments comes from kafka-tools 4.3.0 (4.4.0 is not on every Maven mirror); on
// the 4.4 jars it prints every file whole, then fails to call a method 4.4 removed
// (FileRecords.closeHandlers) while closing it.  That one error, after the dump, is
// expected and ignored; any other failure stops the run.

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

public final class DumpLogRunner {
    public static void main(String[] args) throws Exception {
        int split = Arrays.asList(args).indexOf("--");
        List<String> options = Arrays.asList(args).subList(0, split);
        List<String> files = Arrays.asList(args).subList(split + 1, args.length);
        Method dump = Class.forName("org.apache.kafka.tools.DumpLogSegments")
                .getMethod("main", String[].class);
        for (String file : files) {
            System.out.println("@@FILE@@ " + file);
            List<String> argv = new ArrayList<>(options);
            argv.add("--files");
            argv.add(file);
            try {
                dump.invoke(null, (Object) argv.toArray(new String[0]));
            } catch (InvocationTargetException e) {
                Throwable cause = e.getCause();
                if (!(cause instanceof NoSuchMethodError)
                        || !cause.getMessage().contains("closeHandlers")) {
                    throw e;
                }
            }
            System.out.flush();
        }
        System.exit(0);
    }
}
