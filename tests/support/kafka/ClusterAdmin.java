// Changes a running Kafka cluster with Kafka's own Admin API (kafka-clients 4.4), for the
// tests that put a cluster through the events real ones see: one JSON job on stdin, one
// JSON result on stdout after the "@@RESULT@@" marker.  A job with "jobs" runs each in turn.
//
// Ops: "describe" (each partition's leader, replicas and in-sync replicas), "create"
// (a topic with a replication factor and topic configs), "delete", "add_partitions",
// "move_leader" (the replicas reordered by a reassignment so that "to" comes first, then
// a preferred leader election, until "to" leads), "quota" (a client id's byte rates, as
// kafka-configs --alter --entity-type clients sets them; null removes one).
//
// Compiled at test time by tests/support/kafka/java_clients.py against the resolved jars.

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewPartitionReassignment;
import org.apache.kafka.clients.admin.NewPartitions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.ElectionType;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.errors.ElectionNotNeededException;
import org.apache.kafka.common.quota.ClientQuotaAlteration;
import org.apache.kafka.common.quota.ClientQuotaEntity;

public final class ClusterAdmin {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final long WAIT_MS = 60_000;

    public static void main(String[] args) throws Exception {
        JsonNode job = JSON.readTree(System.in);
        Properties p = new Properties();
        p.put("bootstrap.servers", job.get("bootstrap").asText());
        JsonNode result;
        try (Admin admin = Admin.create(p)) {
            result = run(admin, job);
        }
        System.out.print("\n@@RESULT@@" + JSON.writeValueAsString(result) + "\n");
        System.out.flush();
        System.exit(0);
    }

    static JsonNode run(Admin admin, JsonNode job) throws Exception {
        if (job.has("jobs")) {
            ObjectNode out = JSON.createObjectNode();
            ArrayNode results = out.putArray("results");
            for (JsonNode one : job.get("jobs")) {
                results.add(run(admin, one));
            }
            return out;
        }
        switch (job.get("op").asText()) {
            case "describe": return describe(admin, job.get("topic").asText());
            case "create": return create(admin, job);
            case "delete":
                admin.deleteTopics(List.of(job.get("topic").asText())).all().get(30, TimeUnit.SECONDS);
                return JSON.createObjectNode();
            case "add_partitions":
                admin.createPartitions(Map.of(job.get("topic").asText(),
                        NewPartitions.increaseTo(job.get("total").asInt()))).all().get(30, TimeUnit.SECONDS);
                return JSON.createObjectNode();
            case "move_leader": return moveLeader(admin, job);
            case "quota": return quota(admin, job);
            default: throw new IllegalArgumentException("unknown op " + job.get("op"));
        }
    }

    static ObjectNode describe(Admin admin, String topic) throws Exception {
        TopicDescription d = admin.describeTopics(List.of(topic)).allTopicNames()
                .get(30, TimeUnit.SECONDS).get(topic);
        ObjectNode out = JSON.createObjectNode();
        for (TopicPartitionInfo p : d.partitions()) {
            ObjectNode one = out.putObject(Integer.toString(p.partition()));
            one.put("leader", p.leader() == null ? -1 : p.leader().id());
            ArrayNode replicas = one.putArray("replicas");
            p.replicas().forEach(n -> replicas.add(n.id()));
            ArrayNode isr = one.putArray("isr");
            p.isr().forEach(n -> isr.add(n.id()));
        }
        return out;
    }

    static JsonNode create(Admin admin, JsonNode job) throws Exception {
        NewTopic topic = new NewTopic(job.get("topic").asText(), job.get("partitions").asInt(),
                (short) job.get("replication").asInt());
        Map<String, String> configs = new HashMap<>();
        if (job.has("configs")) {
            job.get("configs").fields().forEachRemaining(e -> configs.put(e.getKey(), e.getValue().asText()));
        }
        admin.createTopics(List.of(topic.configs(configs))).all().get(30, TimeUnit.SECONDS);
        return JSON.createObjectNode();
    }

    static JsonNode moveLeader(Admin admin, JsonNode job) throws Exception {
        String topic = job.get("topic").asText();
        int partition = job.get("partition").asInt();
        int to = job.get("to").asInt();
        TopicPartition tp = new TopicPartition(topic, partition);
        TopicPartitionInfo info = admin.describeTopics(List.of(topic)).allTopicNames()
                .get(30, TimeUnit.SECONDS).get(topic).partitions().get(partition);
        List<Integer> order = new ArrayList<>();
        order.add(to);
        for (Node n : info.replicas()) {
            if (n.id() != to) order.add(n.id());
        }
        admin.alterPartitionReassignments(Map.of(tp, Optional.of(new NewPartitionReassignment(order))))
                .all().get(30, TimeUnit.SECONDS);
        long deadline = System.currentTimeMillis() + WAIT_MS;
        while (true) {
            boolean moving = !admin.listPartitionReassignments(Set.of(tp)).reassignments()
                    .get(30, TimeUnit.SECONDS).isEmpty();
            if (!moving) {
                try {
                    admin.electLeaders(ElectionType.PREFERRED, Set.of(tp)).all().get(30, TimeUnit.SECONDS);
                } catch (ExecutionException e) {
                    if (!(e.getCause() instanceof ElectionNotNeededException)) {
                        if (System.currentTimeMillis() > deadline) throw e;
                    }
                }
                JsonNode now = describe(admin, topic).get(Integer.toString(partition));
                if (now.get("leader").asInt() == to) return now;
            }
            if (System.currentTimeMillis() > deadline) {
                throw new IllegalStateException("broker " + to + " did not become the leader of " + tp);
            }
            Thread.sleep(200);
        }
    }

    static JsonNode quota(Admin admin, JsonNode job) throws Exception {
        ClientQuotaEntity entity = new ClientQuotaEntity(
                Map.of(ClientQuotaEntity.CLIENT_ID, job.get("client_id").asText()));
        List<ClientQuotaAlteration.Op> ops = new ArrayList<>();
        for (String key : List.of("consumer_byte_rate", "producer_byte_rate")) {
            if (job.has(key)) {
                JsonNode v = job.get(key);
                ops.add(new ClientQuotaAlteration.Op(key, v.isNull() ? null : v.asDouble()));
            }
        }
        admin.alterClientQuotas(List.of(new ClientQuotaAlteration(entity, ops))).all()
                .get(30, TimeUnit.SECONDS);
        return JSON.createObjectNode();
    }
}
