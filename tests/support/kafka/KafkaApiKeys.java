// Prints org.apache.kafka.common.protocol.ApiKeys as "id name" lines, one per API, for
// tests/protocol/test_schema_catalog.py to compare with kafkawire's ApiKey. Run in Java's
// single-file source mode against the kafka-clients jar.
import org.apache.kafka.common.protocol.ApiKeys;

public class KafkaApiKeys {
    public static void main(String[] args) {
        for (ApiKeys key : ApiKeys.values()) {
            System.out.println(key.id + " " + key.name());
        }
    }
}
