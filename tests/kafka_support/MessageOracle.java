// Kafka's generated message classes as an oracle for kafkawire's codec (test tooling).
//
// Reads framed cases on stdin and answers each on stdout, until stdin closes.
// A case:   int32 size, then
//           byte    input: 1 = wire bytes, 2 = JSON (Kafka's JsonConverter form)
//           UTF     kind: request, response, metadata, coordinator-key, coordinator-value
//                   (by id, through Kafka's type enums) or class (by class name)
//           UTF     topic of a coordinator record (group, share, transaction), or a
//                   generated class name for kind "class"
//           short   id: API key or record type (-1 for kind "class")
//           short   version
//           int32 + bytes: the input
// An answer: byte 0, then int32 + Java's re-serialized bytes, int32 + Java's JSON (UTF-8);
//            or byte 1, then int32 + UTF-8 error text.
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.apache.kafka.common.message.ApiMessageType;
import org.apache.kafka.common.metadata.MetadataRecordType;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.apache.kafka.common.protocol.Message;
import org.apache.kafka.common.protocol.ObjectSerializationCache;

public class MessageOracle {
    private static final ObjectMapper MAPPER = new ObjectMapper();

    public static void main(String[] args) throws IOException {
        DataInputStream in = new DataInputStream(new BufferedInputStream(System.in, 1 << 16));
        DataOutputStream out = new DataOutputStream(new BufferedOutputStream(System.out, 1 << 16));
        while (true) {
            int size;
            try {
                size = in.readInt();
            } catch (EOFException end) {
                return;
            }
            byte[] frame = new byte[size];
            in.readFully(frame);
            byte[][] answer;
            try {
                answer = handle(new DataInputStream(new java.io.ByteArrayInputStream(frame)));
            } catch (Throwable error) {
                Throwable cause = error instanceof InvocationTargetException ? error.getCause() : error;
                byte[] text = String.valueOf(cause).getBytes(StandardCharsets.UTF_8);
                out.writeByte(1);
                out.writeInt(text.length);
                out.write(text);
                out.flush();
                continue;
            }
            out.writeByte(0);
            for (byte[] part : answer) {
                out.writeInt(part.length);
                out.write(part);
            }
            out.flush();
        }
    }

    private static byte[][] handle(DataInputStream frame) throws Exception {
        byte input = frame.readByte();
        String kind = frame.readUTF();
        String name = frame.readUTF();
        short id = frame.readShort();
        short version = frame.readShort();
        byte[] data = new byte[frame.readInt()];
        frame.readFully(data);

        Message message = newMessage(kind, name, id);
        Class<?> converter = Class.forName(message.getClass().getName() + "JsonConverter");
        if (input == 1) {
            ByteBuffer buffer = ByteBuffer.wrap(data);
            message.read(new ByteBufferAccessor(buffer), version);
            if (buffer.hasRemaining()) {
                throw new IllegalArgumentException(buffer.remaining() + " trailing bytes");
            }
        } else {
            JsonNode node = MAPPER.readTree(data);
            Method read = converter.getMethod("read", JsonNode.class, short.class);
            message = (Message) read.invoke(null, node, version);
        }
        ObjectSerializationCache cache = new ObjectSerializationCache();
        ByteBuffer written = ByteBuffer.allocate(message.size(cache, version));
        message.write(new ByteBufferAccessor(written), cache, version);
        Method write = converter.getMethod("write", message.getClass(), short.class, boolean.class);
        JsonNode json = (JsonNode) write.invoke(null, message, version, true);
        return new byte[][] {written.array(), MAPPER.writeValueAsBytes(json)};
    }

    private static Message newMessage(String kind, String name, short id) throws Exception {
        switch (kind) {
            case "request":
                return ApiMessageType.fromApiKey(id).newRequest();
            case "response":
                return ApiMessageType.fromApiKey(id).newResponse();
            case "metadata":
                return MetadataRecordType.fromId(id).newMetadataRecord();
            case "coordinator-key":
            case "coordinator-value":
                return coordinatorRecord(name, id, kind.equals("coordinator-key"));
            case "class":
                return (Message) Class.forName(name).getConstructor().newInstance();
            default:
                throw new IllegalArgumentException("unknown kind " + kind);
        }
    }

    private static Message coordinatorRecord(String topic, short id, boolean key) {
        switch (topic) {
            case "group": {
                org.apache.kafka.coordinator.group.generated.CoordinatorRecordType type =
                    org.apache.kafka.coordinator.group.generated.CoordinatorRecordType.fromId(id);
                return key ? type.newRecordKey() : type.newRecordValue();
            }
            case "share": {
                org.apache.kafka.coordinator.share.generated.CoordinatorRecordType type =
                    org.apache.kafka.coordinator.share.generated.CoordinatorRecordType.fromId(id);
                return key ? type.newRecordKey() : type.newRecordValue();
            }
            case "transaction": {
                org.apache.kafka.coordinator.transaction.generated.CoordinatorRecordType type =
                    org.apache.kafka.coordinator.transaction.generated.CoordinatorRecordType.fromId(id);
                return key ? type.newRecordKey() : type.newRecordValue();
            }
            default:
                throw new IllegalArgumentException("unknown coordinator topic " + topic);
        }
    }
}
