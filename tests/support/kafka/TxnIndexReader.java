// Reads .txnindex files with Kafka 4.4's own TransactionIndex (kafka-storage), for the
// comparison with kafkawire dump-log: per file a line "@@FILE@@ PATH", then one line per
// aborted transaction, "producerId: P firstOffset: F lastOffset: L lastStableOffset: S".
//
// Usage: TxnIndexReader FILE...

import java.io.File;

import org.apache.kafka.common.message.AbortedTxn;
import org.apache.kafka.storage.internals.log.TransactionIndex;

public final class TxnIndexReader {
    public static void main(String[] args) throws Exception {
        for (String path : args) {
            File file = new File(path);
            long start = Long.parseLong(file.getName().substring(0, 20));
            System.out.println("@@FILE@@ " + path);
            try (TransactionIndex index = new TransactionIndex(start, file)) {
                index.sanityCheck();
                for (AbortedTxn t : index.allAbortedTxns()) {
                    System.out.println("producerId: " + t.producerId() + " firstOffset: "
                            + t.firstOffset() + " lastOffset: " + t.lastOffset()
                            + " lastStableOffset: " + t.lastStableOffset());
                }
            }
        }
        System.out.flush();
        System.exit(0);
    }
}
