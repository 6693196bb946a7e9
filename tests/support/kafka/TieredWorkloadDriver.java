// Writes topics to a Kafka 4.4 broker with tiered storage on, waits until most of each
// lives only in the remote tier, and records what Kafka's consumer reads back.
//
// Usage: TieredWorkloadDriver BOOTSTRAP OUT_DIR
// Writes OUT_DIR/read_uncommitted.jsonl and OUT_DIR/read_committed.jsonl (one record a
// line: topic, partition, offset, timestamp, key, value, headers; bytes as hex, null as
// null) and OUT_DIR/summary.json (the topics; per partition the end offset under each
// isolation level, the earliest local offset and the latest tiered offset).  Run by
// tests/support/kafka/tiered.py.
//
// One topic per compression codec, each with small segments, remote storage on and a
// small local retention: plain records from an idempotent producer, and between them
// transactions of a transactional producer, committed and aborted.

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
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

public final class TieredWorkloadDriver {
    static final ObjectMapper JSON = new ObjectMapper();
    static final HexFormat HEX = HexFormat.of();
    static final String[] CODECS = {"none", "gzip", "snappy", "lz4", "zstd"};
    static final long TIERING_TIMEOUT_S = 120;

    static String bootstrap;

    public static void main(String[] args) throws Exception {
        bootstrap = args[0];
        Path out = Path.of(args[1]);
        List<TopicPartition> tps = new ArrayList<>();
        List<NewTopic> topics = new ArrayList<>();
        Map<String, String> tiered = Map.of(
                "remote.storage.enable", "true",
                "internal.segment.bytes", "4096",  // small segments: many of them tiered
                "local.retention.bytes", "8192",   // the local log keeps about two of them
                "retention.ms", "-1");
        for (String c : CODECS) {
            topics.add(new NewTopic("tiered-" + c, 1, (short) 1).configs(tiered));
            tps.add(new TopicPartition("tiered-" + c, 0));
        }
        try (Admin admin = Admin.create(base())) {
            admin.createTopics(topics).all().get(60, TimeUnit.SECONDS);
        }
        for (String c : CODECS) produce("tiered-" + c, c);
        ObjectNode summary = JSON.createObjectNode();
        ArrayNode names = summary.putArray("topics");
        for (String c : CODECS) names.add("tiered-" + c);
        summary.set("tiers", waitForTiering(tps));
        summary.set("end_offsets", JSON.createObjectNode()
                .<ObjectNode>set("read_uncommitted", readAll(tps, "read_uncommitted", out))
                .set("read_committed", readAll(tps, "read_committed", out)));
        Files.writeString(out.resolve("summary.json"), JSON.writeValueAsString(summary));
        System.exit(0);
    }

    static Properties base() {
        Properties p = new Properties();
        p.put("bootstrap.servers", bootstrap);
        p.put("request.timeout.ms", "20000");
        p.put("retry.backoff.ms", "50");
        return p;
    }

    static KafkaProducer<byte[], byte[]> producer(String codec, Properties extra) {
        Properties p = base();
        p.put("compression.type", codec);
        p.put("enable.idempotence", "true");
        p.put("linger.ms", "5");
        p.put("batch.size", "2048");
        p.put("max.block.ms", "30000");
        p.put("delivery.timeout.ms", "60000");
        p.putAll(extra);
        return new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer());
    }

    static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    // null keys and values, empty values, headers (a null value, a repeated key), payloads
    // that compress poorly; the producer stamps the time (a fixed old one would roll a
    // segment at every batch: segment.ms counts from the first record's timestamp)
    static ProducerRecord<byte[], byte[]> shaped(String topic, int i, Random rnd) {
        byte[] key = i % 7 == 3 ? null : utf8("key-" + i);
        byte[] value;
        if (i % 11 == 5) {
            value = null;
        } else if (i % 13 == 6) {
            value = new byte[0];
        } else {
            value = new byte[30 + rnd.nextInt(90)];
            rnd.nextBytes(value);
        }
        RecordHeaders headers = new RecordHeaders();
        if (i % 3 == 0) headers.add("trace", utf8("t" + i));
        if (i % 5 == 0) headers.add("empty", null);
        if (i % 9 == 0) headers.add("trace", new byte[]{0, (byte) 0xff, 1});
        return new ProducerRecord<>(topic, 0, null, key, value, headers);
    }

    static void produce(String topic, String codec) throws Exception {
        Properties t = new Properties();
        t.put("transactional.id", "tiered-" + codec);
        Random rnd = new Random(codec.hashCode());
        int n = 0;
        try (KafkaProducer<byte[], byte[]> plain = producer(codec, new Properties());
             KafkaProducer<byte[], byte[]> txn = producer(codec, t)) {
            txn.initTransactions();
            String[] outcomes = {"commit", "abort", "commit", "abort"};
            for (String outcome : outcomes) {
                for (int i = 0; i < 25; i++, n++) plain.send(shaped(topic, n, rnd));
                plain.flush();
                txn.beginTransaction();
                for (int i = 0; i < 40; i++, n++) {
                    txn.send(shaped(topic, n, rnd));
                    if (i % 10 == 9) {  // plain records inside the transaction's range
                        txn.flush();
                        plain.send(shaped(topic, 10_000 + n, rnd));
                        plain.flush();
                    }
                }
                txn.flush();
                if (outcome.equals("commit")) txn.commitTransaction(); else txn.abortTransaction();
            }
            for (int i = 0; i < 25; i++, n++) plain.send(shaped(topic, n, rnd));
            plain.flush();
        }
    }

    // Until every partition's local log starts past offset 0 (its start was deleted once
    // tiered) and the remote tier reaches past that start (the tiers overlap).
    static ObjectNode waitForTiering(List<TopicPartition> tps) throws Exception {
        Map<TopicPartition, OffsetSpec> local = new HashMap<>();
        Map<TopicPartition, OffsetSpec> tieredSpec = new HashMap<>();
        for (TopicPartition tp : tps) {
            local.put(tp, OffsetSpec.earliestLocal());
            tieredSpec.put(tp, OffsetSpec.latestTiered());
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(TIERING_TIMEOUT_S);
        try (Admin admin = Admin.create(base())) {
            while (true) {
                Map<TopicPartition, ListOffsetsResult.ListOffsetsResultInfo> l =
                        admin.listOffsets(local).all().get(30, TimeUnit.SECONDS);
                Map<TopicPartition, ListOffsetsResult.ListOffsetsResultInfo> r =
                        admin.listOffsets(tieredSpec).all().get(30, TimeUnit.SECONDS);
                boolean done = true;
                ObjectNode tiers = JSON.createObjectNode();
                for (TopicPartition tp : tps) {
                    long earliestLocal = l.get(tp).offset();
                    long latestTiered = r.get(tp).offset();
                    done &= earliestLocal > 0 && latestTiered >= earliestLocal;
                    tiers.putObject(tp.topic() + "-" + tp.partition())
                            .put("earliest_local", earliestLocal).put("latest_tiered", latestTiered);
                }
                if (done) return tiers;
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("not tiered in " + TIERING_TIMEOUT_S + " s: " + tiers);
                }
                Thread.sleep(500);
            }
        }
    }

    static ObjectNode readAll(List<TopicPartition> tps, String isolation, Path out) throws Exception {
        Properties p = base();
        p.put("isolation.level", isolation);
        p.put("auto.offset.reset", "earliest");
        p.put("enable.auto.commit", "false");
        p.put("fetch.max.wait.ms", "100");
        ObjectNode ends = JSON.createObjectNode();
        try (KafkaConsumer<byte[], byte[]> c = new KafkaConsumer<>(
                     p, new ByteArrayDeserializer(), new ByteArrayDeserializer());
             BufferedWriter w = Files.newBufferedWriter(out.resolve(isolation + ".jsonl"))) {
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
