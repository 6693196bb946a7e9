// Runs Apache Kafka's Java clients (kafka-clients 4.4) for the client tests: one JSON job
// on stdin, one JSON result on stdout after the "@@RESULT@@" marker, the same jobs and
// results as tests/broker/test_clients_driver.py (records as JSON: bytes as hex, null as null).
//
// Ops: "produce" (records to one topic with a compression, acks, idempotence; a record
// with a null partition goes where Kafka's default partitioner puts it),
// "consume" (a classic consumer group: read until "expect" records, then commit),
// "admin" (create topics, then list and describe them and the cluster).  A job with
// "jobs" runs each of them in turn, in this one JVM.
//
// Compiled at test time by tests/support/kafka/java_clients.py against the resolved jars.

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.DescribeClusterResult;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

public final class JavaClientDriver {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HexFormat HEX = HexFormat.of();

    public static void main(String[] args) throws Exception {
        JsonNode job = JSON.readTree(System.in);
        JsonNode result = run(job);
        System.out.print("\n@@RESULT@@" + JSON.writeValueAsString(result) + "\n");
        System.out.flush();
        System.exit(0);  // client threads must not keep the JVM alive
    }

    static JsonNode run(JsonNode job) throws Exception {
        if (job.has("jobs")) {
            ObjectNode out = JSON.createObjectNode();
            ArrayNode results = out.putArray("results");
            for (JsonNode one : job.get("jobs")) {
                ObjectNode merged = ((ObjectNode) job.deepCopy());
                merged.remove("jobs");
                merged.setAll((ObjectNode) one);
                results.add(run(merged));
            }
            return out;
        }
        switch (job.get("op").asText()) {
            case "produce": return produce(job);
            case "consume": return consume(job);
            case "admin": return admin(job);
            default: throw new IllegalArgumentException("unknown op " + job.get("op"));
        }
    }

    static Properties base(JsonNode job) {
        Properties p = new Properties();
        p.put("bootstrap.servers", job.get("bootstrap").asText());
        p.put("client.id", job.path("client_id").asText("kw-java"));
        // sized for a busy machine, where a client may get no CPU for seconds
        p.put("request.timeout.ms", "40000");
        p.put("retry.backoff.ms", "50");
        p.put("reconnect.backoff.ms", "50");
        p.put("reconnect.backoff.max.ms", "500");
        JsonNode config = job.path("config");
        config.fieldNames().forEachRemaining(k -> p.put(k, config.get(k).asText()));
        return p;
    }

    static byte[] bytes(JsonNode hex) {
        return hex == null || hex.isNull() ? null : HEX.parseHex(hex.asText());
    }

    static JsonNode hex(byte[] b) {
        return b == null ? JSON.nullNode() : JSON.getNodeFactory().textNode(HEX.formatHex(b));
    }

    static JsonNode produce(JsonNode job) throws Exception {
        Properties p = base(job);
        boolean idempotent = job.path("idempotent").asBoolean(false);
        p.put("compression.type", job.path("compression").asText("none"));
        p.put("enable.idempotence", Boolean.toString(idempotent));
        p.put("acks", idempotent ? "all" : job.path("acks").asText("-1"));
        p.put("linger.ms", "20");
        p.put("max.block.ms", "30000");
        p.put("delivery.timeout.ms", "120000");
        List<String> failures = new ArrayList<>();
        int[] delivered = {0};
        String topic = job.get("topic").asText();
        try (KafkaProducer<byte[], byte[]> producer =
                     new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer())) {
            for (JsonNode r : job.get("records")) {
                RecordHeaders headers = new RecordHeaders();
                for (JsonNode h : r.get("headers")) {
                    headers.add(h.get(0).asText(), bytes(h.get(1)));
                }
                ProducerRecord<byte[], byte[]> record = new ProducerRecord<>(
                        // no partition: the producer's own partitioner picks it
                        topic, r.path("partition").isNumber() ? Integer.valueOf(r.get("partition").asInt()) : null,
                        r.get("timestamp").asLong(),
                        bytes(r.get("key")), bytes(r.get("value")), headers);
                producer.send(record, (meta, err) -> {
                    synchronized (failures) {
                        if (err != null) failures.add(err.toString()); else delivered[0]++;
                    }
                });
            }
            producer.flush();
        }
        ObjectNode out = JSON.createObjectNode();
        out.put("unflushed", job.get("records").size() - delivered[0] - failures.size());
        out.put("delivered", delivered[0]);
        ArrayNode f = out.putArray("failures");
        failures.forEach(f::add);
        return out;
    }

    static JsonNode consume(JsonNode job) {
        Properties p = base(job);
        p.put("group.id", job.get("group").asText());
        p.put("group.protocol", "classic");
        p.put("auto.offset.reset", "earliest");
        p.put("enable.auto.commit", "false");
        p.put("session.timeout.ms", "30000");
        p.put("heartbeat.interval.ms", "1000");
        p.put("fetch.max.wait.ms", "100");
        List<String> topics = new ArrayList<>();
        job.get("topics").forEach(t -> topics.add(t.asText()));
        int expect = job.get("expect").asInt();
        // the only clock: the loop ends when every expected record is here
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(job.path("timeout").asLong(120));
        ArrayNode got = JSON.createArrayNode();
        try (KafkaConsumer<byte[], byte[]> consumer =
                     new KafkaConsumer<>(p, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            consumer.subscribe(topics);
            long left;
            while (got.size() < expect && (left = deadline - System.nanoTime()) > 0) {
                for (ConsumerRecord<byte[], byte[]> m : consumer.poll(Duration.ofNanos(left))) {
                    ObjectNode r = got.addObject();
                    r.put("topic", m.topic());
                    r.put("partition", m.partition());
                    r.put("offset", m.offset());
                    r.set("key", hex(m.key()));
                    r.set("value", hex(m.value()));
                    r.put("timestamp", m.timestamp());
                    ArrayNode hs = r.putArray("headers");
                    for (Header h : m.headers()) {
                        hs.addArray().add(h.key()).add(hex(h.value()));
                    }
                }
            }
            if (job.path("commit").asBoolean(true) && got.size() > 0) {
                consumer.commitSync(Duration.ofNanos(Math.max(deadline - System.nanoTime(), 0) + TimeUnit.SECONDS.toNanos(30)));
            }
        }
        ObjectNode out = JSON.createObjectNode();
        out.set("records", got);
        out.putArray("errors");
        return out;
    }

    static JsonNode admin(JsonNode job) throws Exception {
        ObjectNode out = JSON.createObjectNode();
        try (Admin admin = Admin.create(base(job))) {
            List<NewTopic> create = new ArrayList<>();
            for (JsonNode t : job.get("create")) {
                create.add(new NewTopic(t.get("name").asText(), t.get("partitions").asInt(),
                                        (short) 1));
            }
            admin.createTopics(create).all().get(30, TimeUnit.SECONDS);
            ArrayNode listed = out.putArray("listed");
            admin.listTopics().names().get(30, TimeUnit.SECONDS).stream().sorted()
                    .forEach(listed::add);
            List<String> names = new ArrayList<>();
            create.forEach(t -> names.add(t.name()));
            Map<String, TopicDescription> described =
                    admin.describeTopics(names).allTopicNames().get(30, TimeUnit.SECONDS);
            ObjectNode d = out.putObject("described");
            for (TopicDescription t : described.values()) {
                ObjectNode one = d.putObject(t.name());
                one.put("partitions", t.partitions().size());
                one.put("topic_id", t.topicId().toString());
                one.put("leader", t.partitions().get(0).leader().id());
            }
            DescribeClusterResult cluster = admin.describeCluster();
            out.put("cluster_id", cluster.clusterId().get(30, TimeUnit.SECONDS));
            out.put("controller", cluster.controller().get(30, TimeUnit.SECONDS).id());
            ArrayNode nodes = out.putArray("nodes");
            cluster.nodes().get(30, TimeUnit.SECONDS).forEach(n -> nodes.add(n.id()));
        }
        return out;
    }
}
