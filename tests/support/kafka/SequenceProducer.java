// Writes keyed, numbered records with Kafka's own producer (kafka-clients 4.4) until told
// to stop, for the tests that put a stream through broker faults: one JSON job on stdin,
// one JSON result on stdout after the "@@RESULT@@" marker.
//
// Record n has key "k<n % keys>" and value "<n>"; the producer's partitioner places it by
// its key (metadata refreshed every second, so added partitions are soon written to).
// Idempotent (acks=all) by default; with "transactional_id" each transaction holds
// "per_transaction" records and the transactions numbered in "abort" are aborted (as is
// one whose commit fails with an abortable error).  The job ends when the file "stop"
// exists, or after "max_records"; every record is then acknowledged or failed.
//
// Result: "records", one [partition, offset, n, committed] per record acknowledged
// (committed false: its transaction was aborted), "failures" (errors of sends and
// transactions), "aborted_transactions".
//
// Compiled at test time by tests/support/kafka/java_clients.py against the resolved jars.

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Properties;
import java.util.Set;

import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.errors.AuthorizationException;
import org.apache.kafka.common.errors.OutOfOrderSequenceException;
import org.apache.kafka.common.errors.ProducerFencedException;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.serialization.ByteArraySerializer;

public final class SequenceProducer {
    private static final ObjectMapper JSON = new ObjectMapper();

    public static void main(String[] args) throws Exception {
        JsonNode job = JSON.readTree(System.in);
        JsonNode result = run(job);
        System.out.print("\n@@RESULT@@" + JSON.writeValueAsString(result) + "\n");
        System.out.flush();
        System.exit(0);  // client threads must not keep the JVM alive
    }

    /** One record sent: its number, and where it landed once acknowledged. */
    static final class Sent {
        final long n;
        volatile RecordMetadata landed;
        Sent(long n) { this.n = n; }
    }

    static JsonNode run(JsonNode job) throws Exception {
        Properties p = new Properties();
        p.put("bootstrap.servers", job.get("bootstrap").asText());
        p.put("acks", "all");
        p.put("enable.idempotence", "true");
        p.put("linger.ms", "5");
        p.put("metadata.max.age.ms", "1000");
        // sized for a busy machine and a broker down until it is fenced
        p.put("request.timeout.ms", "40000");
        p.put("delivery.timeout.ms", "300000");
        p.put("max.block.ms", "120000");
        p.put("retry.backoff.ms", "50");
        p.put("reconnect.backoff.max.ms", "500");
        String txnId = job.path("transactional_id").asText("");
        boolean transactional = !txnId.isEmpty();
        if (transactional) {
            p.put("transactional.id", txnId);
            p.put("transaction.timeout.ms", "120000");
        }
        String topic = job.get("topic").asText();
        int keys = job.path("keys").asInt(50);
        long pauseMs = job.path("pause_ms").asLong(10);
        long maxRecords = job.path("max_records").asLong(Long.MAX_VALUE);
        int perTransaction = job.path("per_transaction").asInt(10);
        Set<Long> abort = new HashSet<>();
        job.path("abort").forEach(t -> abort.add(t.asLong()));
        Path stop = Path.of(job.get("stop").asText());

        List<String> failures = new ArrayList<>();
        List<Sent> sent = new ArrayList<>();
        Set<Long> abortedTxns = new HashSet<>();
        List<Long> abortedRecords = new ArrayList<>();
        try (KafkaProducer<byte[], byte[]> producer =
                     new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer())) {
            if (transactional) producer.initTransactions();
            long n = 0;
            long txn = 0;
            while (n < maxRecords && !Files.exists(stop)) {
                if (transactional) producer.beginTransaction();
                int inThis = transactional ? perTransaction : 1;
                List<Sent> these = new ArrayList<>();
                for (int i = 0; i < inThis; i++, n++) {
                    Sent s = new Sent(n);
                    these.add(s);
                    ProducerRecord<byte[], byte[]> record = new ProducerRecord<>(topic,
                            ("k" + (n % keys)).getBytes(StandardCharsets.UTF_8),
                            Long.toString(n).getBytes(StandardCharsets.UTF_8));
                    producer.send(record, (meta, err) -> {
                        if (err != null) {
                            synchronized (failures) { failures.add("record " + s.n + ": " + err); }
                        } else {
                            s.landed = meta;
                        }
                    });
                    Thread.sleep(pauseMs);
                }
                sent.addAll(these);
                if (!transactional) continue;
                if (abort.contains(txn) || !commit(producer, failures, txn)) {
                    if (abort.contains(txn)) producer.abortTransaction();
                    abortedTxns.add(txn);
                    these.forEach(s -> abortedRecords.add(s.n));
                }
                txn++;
            }
            producer.flush();
        }
        Set<Long> aborted = new HashSet<>(abortedRecords);
        ObjectNode out = JSON.createObjectNode();
        ArrayNode records = out.putArray("records");
        for (Sent s : sent) {
            if (s.landed != null) {
                records.addArray().add(s.landed.partition()).add(s.landed.offset()).add(s.n)
                        .add(!aborted.contains(s.n));
            }
        }
        ArrayNode f = out.putArray("failures");
        failures.forEach(f::add);
        ArrayNode a = out.putArray("aborted_transactions");
        abortedTxns.stream().sorted().forEach(a::add);
        return out;
    }

    /** Commit the open transaction; false when it failed and was aborted.  A commit that
     * times out is tried again (Kafka's producer allows it); an abortable error aborts. */
    static boolean commit(KafkaProducer<byte[], byte[]> producer, List<String> failures, long txn) {
        for (int tries = 0; ; tries++) {
            try {
                producer.commitTransaction();
                return true;
            } catch (TimeoutException e) {
                if (tries == 5) throw e;
            } catch (ProducerFencedException | OutOfOrderSequenceException | AuthorizationException e) {
                throw e;  // fatal: the job fails
            } catch (KafkaException e) {
                synchronized (failures) { failures.add("transaction " + txn + " aborted: " + e); }
                producer.abortTransaction();
                return false;
            }
        }
    }
}
