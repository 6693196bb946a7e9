// Drives a real Kafka 4.4 broker with Kafka's own Java clients so that its log directory
// holds every kind of data a broker writes, then records what Kafka's consumer reads back.
//
// Usage: LogWorkloadDriver BOOTSTRAP OUT_DIR
// Writes OUT_DIR/read_uncommitted.jsonl and OUT_DIR/read_committed.jsonl (one record a
// line: topic, partition, offset, timestamp, timestampType, key, value, headers; bytes as
// hex, null as null) and OUT_DIR/summary.json (the topics, their end offsets under each
// isolation level, what each step did).  Run by tests/support/kafka/workload.py.
//
// The workload: one topic per compression codec (two partitions, small segments, headers,
// null keys and values, some written by an idempotent producer); a topic written by a
// transactional producer (committed and aborted transactions, plain records between them,
// and one transaction left open); a compacted topic with tombstones that the log cleaner
// has cleaned; consumer groups on the classic and the consumer protocol and a share group
// committing offsets; and a topic that is deleted.

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.io.BufferedWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Random;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.AcknowledgeType;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.KafkaShareConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

public final class LogWorkloadDriver {
    static final ObjectMapper JSON = new ObjectMapper();
    static final HexFormat HEX = HexFormat.of();
    static final String[] CODECS = {"none", "gzip", "snappy", "lz4", "zstd"};
    static final String TXN_TOPIC = "txn";
    static final String COMPACTED = "compacted";
    static final String DELETED = "deleted";
    static final int PARTITIONS = 2;
    static final int RECORDS_PER_CODEC = 600;
    static final String SEGMENT_BYTES = "8192";  // small segments: many rolls

    static String bootstrap;
    static final ObjectNode summary = JSON.createObjectNode();

    public static void main(String[] args) throws Exception {
        bootstrap = args[0];
        Path out = Path.of(args[1]);
        long began = System.nanoTime();
        createTopics();
        for (int i = 0; i < CODECS.length; i++) {
            produceCodecTopic(CODECS[i], i % 2 == 1);
        }
        transactions();
        compacted();
        consumeGroups();
        shareGroup();
        deleteTopic();
        List<String> topics = new ArrayList<>();
        for (String c : CODECS) topics.add("codec-" + c);
        topics.add(TXN_TOPIC);
        topics.add(COMPACTED);
        ArrayNode names = summary.putArray("topics");
        topics.forEach(names::add);
        summary.set("end_offsets", JSON.createObjectNode()
                .<ObjectNode>set("read_uncommitted", readAll(topics, "read_uncommitted", out))
                .set("read_committed", readAll(topics, "read_committed", out)));
        summary.put("seconds", (System.nanoTime() - began) / 1e9);
        Files.writeString(out.resolve("summary.json"), JSON.writeValueAsString(summary));
        System.exit(0);  // the open transaction's producer and client threads stay behind
    }

    static Properties base() {
        Properties p = new Properties();
        p.put("bootstrap.servers", bootstrap);
        p.put("request.timeout.ms", "20000");
        p.put("retry.backoff.ms", "50");
        p.put("reconnect.backoff.ms", "50");
        p.put("reconnect.backoff.max.ms", "500");
        return p;
    }

    static void createTopics() throws Exception {
        List<NewTopic> topics = new ArrayList<>();
        Map<String, String> small = Map.of("internal.segment.bytes", SEGMENT_BYTES);
        for (String c : CODECS) {
            topics.add(new NewTopic("codec-" + c, PARTITIONS, (short) 1).configs(small));
        }
        topics.add(new NewTopic(TXN_TOPIC, PARTITIONS, (short) 1).configs(small));
        topics.add(new NewTopic(COMPACTED, 1, (short) 1).configs(Map.of(
                "cleanup.policy", "compact", "segment.ms", "200",
                "min.cleanable.dirty.ratio", "0.01", "min.compaction.lag.ms", "0",
                "internal.segment.bytes", "4096")));
        topics.add(new NewTopic(DELETED, 1, (short) 1));
        try (Admin admin = Admin.create(base())) {
            admin.createTopics(topics).all().get(60, TimeUnit.SECONDS);
        }
    }

    static KafkaProducer<byte[], byte[]> producer(Properties extra) {
        Properties p = base();
        p.put("linger.ms", "5");
        p.put("batch.size", "4096");
        p.put("max.block.ms", "30000");
        p.put("delivery.timeout.ms", "60000");
        p.putAll(extra);
        return new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer());
    }

    static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    // Records with every shape: null keys, null values, empty values, headers (with null
    // values and repeated keys), binary payloads that compress poorly.
    static ProducerRecord<byte[], byte[]> shaped(String topic, int partition, int i, Random rnd) {
        byte[] key = i % 7 == 3 ? null : utf8("key-" + i);
        byte[] value;
        if (i % 11 == 5) {
            value = null;
        } else if (i % 13 == 6) {
            value = new byte[0];
        } else {
            value = new byte[40 + rnd.nextInt(120)];
            rnd.nextBytes(value);
            System.arraycopy(utf8("value"), 0, value, 0, 5);
        }
        RecordHeaders headers = new RecordHeaders();
        if (i % 3 == 0) headers.add("trace", utf8("t" + i));
        if (i % 5 == 0) headers.add("empty", null);
        if (i % 9 == 0) headers.add("trace", new byte[]{0, (byte) 0xff, 1});
        return new ProducerRecord<>(topic, partition, 1_700_000_000_000L + i * 1000L, key,
                                    value, headers);
    }

    static void produceCodecTopic(String codec, boolean idempotent) throws Exception {
        String topic = "codec-" + codec;
        Properties p = new Properties();
        p.put("compression.type", codec);
        p.put("enable.idempotence", Boolean.toString(idempotent));
        p.put("acks", idempotent ? "all" : "1");
        Random rnd = new Random(codec.hashCode());
        try (KafkaProducer<byte[], byte[]> producer = producer(p)) {
            for (int i = 0; i < RECORDS_PER_CODEC; i++) {
                producer.send(shaped(topic, i % PARTITIONS, i, rnd));
                if (i % 50 == 49) producer.flush();  // batches of many sizes
            }
            producer.flush();
        }
    }

    static void transactions() throws Exception {
        Properties t = new Properties();
        t.put("transactional.id", "workload-txn");
        t.put("transaction.timeout.ms", "600000");  // the open one outlives the run
        t.put("compression.type", "lz4");
        Properties plainProps = new Properties();
        plainProps.put("enable.idempotence", "true");
        KafkaProducer<byte[], byte[]> txn = producer(t);
        Random rnd = new Random(7);
        ObjectNode steps = summary.putObject("transactions");
        try (KafkaProducer<byte[], byte[]> plain = producer(plainProps)) {
            txn.initTransactions();
            int n = 0;
            String[] outcomes = {"commit", "abort", "commit", "abort", "commit"};
            for (String outcome : outcomes) {
                txn.beginTransaction();
                for (int i = 0; i < 40; i++, n++) {
                    txn.send(shaped(TXN_TOPIC, n % PARTITIONS, n, rnd));
                    if (i % 10 == 9) {
                        plain.send(shaped(TXN_TOPIC, n % PARTITIONS, 10_000 + n, rnd));
                        plain.flush();
                    }
                }
                txn.flush();
                if (outcome.equals("commit")) txn.commitTransaction(); else txn.abortTransaction();
                steps.put(Integer.toString(steps.size()), outcome);
            }
            // left open: its records are past the last stable offset of both partitions
            txn.beginTransaction();
            for (int i = 0; i < 25; i++, n++) txn.send(shaped(TXN_TOPIC, n % PARTITIONS, n, rnd));
            txn.flush();
            for (int i = 0; i < 6; i++) plain.send(shaped(TXN_TOPIC, i % PARTITIONS, 20_000 + i, rnd));
            plain.flush();
            steps.put(Integer.toString(steps.size()), "open");
        }
        // txn is not closed: closing it would abort nothing, but keep it open on purpose
    }

    static void compacted() throws Exception {
        Properties p = new Properties();
        p.put("compression.type", "gzip");
        int produced = 0;
        try (KafkaProducer<byte[], byte[]> producer = producer(p)) {
            for (int round = 0; round < 6; round++) {
                for (int k = 0; k < 40; k++, produced++) {
                    byte[] value = (round >= 4 && k % 4 == round - 4) ? null
                            : utf8("round " + round + " value of key " + k);
                    producer.send(new ProducerRecord<>(COMPACTED, 0, utf8("k" + k), value));
                }
                producer.flush();
                Thread.sleep(300);  // past segment.ms: the next round starts a new segment
            }
            // one more record rolls the last full round out of the active segment
            producer.send(new ProducerRecord<>(COMPACTED, 0, utf8("k0"), utf8("last")));
            producer.flush();
            produced++;
        }
        // the cleaner has run once records of early rounds are gone
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        int seen = produced;
        while (System.nanoTime() < deadline) {
            seen = readPartitionCount(new TopicPartition(COMPACTED, 0));
            if (seen < produced / 2) break;
            Thread.sleep(500);
        }
        // and stopped: two reads a while apart agree
        int again = -1;
        while (System.nanoTime() < deadline) {
            Thread.sleep(1500);
            again = readPartitionCount(new TopicPartition(COMPACTED, 0));
            if (again == seen) break;
            seen = again;
        }
        summary.put("compacted_produced", produced);
        summary.put("compacted_after_cleaning", seen);
    }

    static KafkaConsumer<byte[], byte[]> consumer(Properties extra) {
        Properties p = base();
        p.put("auto.offset.reset", "earliest");
        p.put("enable.auto.commit", "false");
        p.put("fetch.max.wait.ms", "100");
        p.putAll(extra);
        return new KafkaConsumer<>(p, new ByteArrayDeserializer(), new ByteArrayDeserializer());
    }

    static int readPartitionCount(TopicPartition tp) {
        Properties p = new Properties();
        p.put("isolation.level", "read_uncommitted");
        int count = 0;
        try (KafkaConsumer<byte[], byte[]> c = consumer(p)) {
            c.assign(List.of(tp));
            c.seekToBeginning(List.of(tp));
            long end = c.endOffsets(List.of(tp)).get(tp);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (c.position(tp) < end && System.nanoTime() < deadline) {
                count += c.poll(Duration.ofMillis(200)).count();
            }
        }
        return count;
    }

    static void consumeGroups() {
        ObjectNode groups = summary.putObject("groups");
        for (String protocol : new String[]{"classic", "consumer"}) {
            String group = "group-" + protocol;
            Properties p = new Properties();
            p.put("group.id", group);
            p.put("group.protocol", protocol);
            if (protocol.equals("classic")) {
                p.put("session.timeout.ms", "10000");
                p.put("heartbeat.interval.ms", "500");
            }
            int got = 0;
            int commits = 0;
            try (KafkaConsumer<byte[], byte[]> c = consumer(p)) {
                c.subscribe(List.of("codec-none", "codec-zstd"));
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(40);
                // two commits: one part way through, one at the end of what was read
                while (got < 2 * RECORDS_PER_CODEC && System.nanoTime() < deadline) {
                    got += c.poll(Duration.ofMillis(200)).count();
                    if (got > 0 && commits == 0) {
                        c.commitSync(Duration.ofSeconds(20));
                        commits++;
                    }
                }
                c.commitSync(Duration.ofSeconds(20));
                commits++;
            }
            groups.putObject(group).put("records", got).put("commits", commits);
        }
    }

    static void shareGroup() {
        ObjectNode share = summary.putObject("share_group");
        Properties p = base();
        p.put("group.id", "group-share");
        p.put("share.acknowledgement.mode", "explicit");
        int got = 0;
        try (KafkaShareConsumer<byte[], byte[]> c = new KafkaShareConsumer<>(
                p, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            c.subscribe(List.of("codec-snappy"));
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            // share groups start at the latest offset unless told: write after joining
            while (got < 20 && System.nanoTime() < deadline) {
                for (ConsumerRecord<byte[], byte[]> r : c.poll(Duration.ofMillis(300))) {
                    c.acknowledge(r, got % 5 == 4 ? AcknowledgeType.RELEASE
                                                  : AcknowledgeType.ACCEPT);
                    got++;
                }
                if (got > 0) c.commitSync(Duration.ofSeconds(20));
                else producePlain("codec-snappy", 10);
            }
            share.put("records", got);
        } catch (Exception e) {
            share.put("error", e.toString());
        }
    }

    static void producePlain(String topic, int count) {
        Properties p = new Properties();
        p.put("compression.type", "snappy");
        Random rnd = new Random(count);
        try (KafkaProducer<byte[], byte[]> producer = producer(p)) {
            for (int i = 0; i < count; i++) producer.send(shaped(topic, i % PARTITIONS, 30_000 + i, rnd));
            producer.flush();
        }
    }

    static void deleteTopic() throws Exception {
        Properties p = new Properties();
        try (KafkaProducer<byte[], byte[]> producer = producer(p)) {
            for (int i = 0; i < 20; i++) {
                producer.send(new ProducerRecord<>(DELETED, 0, null, utf8("doomed " + i)));
            }
            producer.flush();
        }
        try (Admin admin = Admin.create(base())) {
            admin.deleteTopics(List.of(DELETED)).all().get(60, TimeUnit.SECONDS);
        }
    }

    static ObjectNode readAll(List<String> topics, String isolation, Path out) throws Exception {
        Properties p = new Properties();
        p.put("isolation.level", isolation);
        ObjectNode ends = JSON.createObjectNode();
        try (KafkaConsumer<byte[], byte[]> c = consumer(p);
             BufferedWriter w = Files.newBufferedWriter(out.resolve(isolation + ".jsonl"))) {
            List<TopicPartition> tps = new ArrayList<>();
            for (String t : topics) {
                c.partitionsFor(t).forEach(info -> tps.add(new TopicPartition(t, info.partition())));
            }
            c.assign(tps);
            c.seekToBeginning(tps);
            Map<TopicPartition, Long> end = new HashMap<>(c.endOffsets(tps));
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (System.nanoTime() < deadline) {
                boolean done = true;
                for (TopicPartition tp : tps) done &= c.position(tp) >= end.get(tp);
                if (done) break;
                for (ConsumerRecord<byte[], byte[]> m : c.poll(Duration.ofMillis(200))) {
                    ObjectNode r = JSON.createObjectNode();
                    r.put("topic", m.topic());
                    r.put("partition", m.partition());
                    r.put("offset", m.offset());
                    r.put("timestamp", m.timestamp());
                    r.put("timestampType", m.timestampType().name);
                    r.put("key", m.key() == null ? null : HEX.formatHex(m.key()));
                    r.put("value", m.value() == null ? null : HEX.formatHex(m.value()));
                    ArrayNode hs = r.putArray("headers");
                    for (Header h : m.headers()) {
                        hs.addArray().add(h.key())
                                .add(h.value() == null ? null : HEX.formatHex(h.value()));
                    }
                    w.write(JSON.writeValueAsString(r));
                    w.write("\n");
                }
            }
            for (TopicPartition tp : tps) {
                ends.put(tp.topic() + "-" + tp.partition(), end.get(tp));
                if (c.position(tp) < end.get(tp)) {
                    throw new IllegalStateException(isolation + ": " + tp + " read up to "
                            + c.position(tp) + " of " + end.get(tp));
                }
            }
        }
        return ends;
    }
}
