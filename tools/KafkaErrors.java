// Prints org.apache.kafka.common.protocol.Errors as one JSON object per line:
// code, name, whether its exception is retriable, and the exception's class name.
// Run by tools/update_schema.py in Java's single-file source mode against kafka-clients.
import org.apache.kafka.common.errors.ApiException;
import org.apache.kafka.common.errors.RetriableException;
import org.apache.kafka.common.protocol.Errors;

public class KafkaErrors {
    public static void main(String[] args) {
        for (Errors error : Errors.values()) {
            ApiException exception = error.exception();
            String exceptionName = exception == null ? "null" : "\"" + exception.getClass().getSimpleName() + "\"";
            System.out.println("{\"code\": " + error.code() + ", \"name\": \"" + error.name()
                + "\", \"retriable\": " + (exception instanceof RetriableException)
                + ", \"exception\": " + exceptionName + "}");
        }
    }
}
