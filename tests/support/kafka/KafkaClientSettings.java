// Facts of Kafka's client jar for tests/cluster/test_kafka_cluster_options.py, as JSON on stdout:
//   names  the setting names of ConsumerConfig and ProducerConfig
//   jaas   each JAAS line of a JSON array on stdin, read as a Kafka client reads its
//          sasl.jaas.config (JaasContext): {"module", "options"} or {"error"}
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.security.auth.login.AppConfigurationEntry;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.config.SaslConfigs;
import org.apache.kafka.common.config.types.Password;
import org.apache.kafka.common.security.JaasContext;

public class KafkaClientSettings {
    public static void main(String[] args) throws Exception {
        ObjectMapper json = new ObjectMapper();
        if (args[0].equals("names")) {
            Map<String, Object> out = new LinkedHashMap<>();
            out.put("consumer", ConsumerConfig.configNames());
            out.put("producer", ProducerConfig.configNames());
            System.out.println(json.writeValueAsString(out));
            return;
        }
        String[] lines = json.readValue(System.in, String[].class);
        List<Map<String, Object>> out = new ArrayList<>();
        for (String line : lines) {
            Map<String, Object> one = new LinkedHashMap<>();
            try {
                Map<String, Object> configs = Map.of(SaslConfigs.SASL_JAAS_CONFIG, new Password(line));
                AppConfigurationEntry entry =
                    JaasContext.loadClientContext(configs).configurationEntries().get(0);
                one.put("module", entry.getLoginModuleName());
                one.put("options", entry.getOptions());
            } catch (IllegalArgumentException e) {
                one.put("error", String.valueOf(e.getMessage()));
            }
            out.add(one);
        }
        System.out.println(json.writeValueAsString(out));
    }
}
