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
//
// A batch of many messages of one definition and version, in one frame:
//           input 3 = wire bytes: int32 count, then count x (int32 + bytes);
//           input 4 = JSON: int32 + one JSON array of count messages.
// Its answer: byte 0, int32 problems, each (int32 index, byte 1 = Java refused the
//           message: int32 + error text | 2 = Java wrote other bytes: int32 + its bytes),
//           then, for input 3, int32 + a JSON array of Java's JSON of every message (null
//           where refused) (Java compared the bytes itself: only differences come back);
//           for input 4, int32 count, then count x (int32 + Java's bytes).
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.NullNode;
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
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
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
                byte[] text = errorText(error);
                out.writeByte(1);
                out.writeInt(text.length);
                out.write(text);
                out.flush();
                continue;
            }
            out.writeByte(0);
            if (answer.length == 1) {
                out.write(answer[0]);  // a batch answer, framed already
            } else {
                for (byte[] part : answer) {
                    out.writeInt(part.length);
                    out.write(part);
                }
            }
            out.flush();
        }
    }

    private static byte[] errorText(Throwable error) {
        Throwable cause = error instanceof InvocationTargetException ? error.getCause() : error;
        return String.valueOf(cause).getBytes(StandardCharsets.UTF_8);
    }

    private static byte[][] handle(DataInputStream frame) throws Exception {
        byte input = frame.readByte();
        String kind = frame.readUTF();
        String name = frame.readUTF();
        short id = frame.readShort();
        short version = frame.readShort();
        if (input == 3 || input == 4) {
            return new byte[][] {batch(input, frame, kind, name, id, version)};
        }
        byte[] data = new byte[frame.readInt()];
        frame.readFully(data);

        Message message = newMessage(kind, name, id);
        Class<?> converter = Class.forName(message.getClass().getName() + "JsonConverter");
        Method write = converter.getMethod("write", message.getClass(), short.class, boolean.class);
        if (input == 1) {
            readWire(message, data, version);
        } else {
            Method read = converter.getMethod("read", JsonNode.class, short.class);
            message = (Message) read.invoke(null, MAPPER.readTree(data), version);
        }
        JsonNode json = (JsonNode) write.invoke(null, message, version, true);
        return new byte[][] {serialize(message, version), MAPPER.writeValueAsBytes(json)};
    }

    private static void readWire(Message message, byte[] data, short version) {
        ByteBuffer buffer = ByteBuffer.wrap(data);
        message.read(new ByteBufferAccessor(buffer), version);
        if (buffer.hasRemaining()) {
            throw new IllegalArgumentException(buffer.remaining() + " trailing bytes");
        }
    }

    private static byte[] serialize(Message message, short version) {
        ObjectSerializationCache cache = new ObjectSerializationCache();
        ByteBuffer written = ByteBuffer.allocate(message.size(cache, version));
        message.write(new ByteBufferAccessor(written), cache, version);
        return written.array();
    }

    // Many messages of one definition and version; see the frame layout at the top.
    private static byte[] batch(byte input, DataInputStream frame, String kind, String name,
                                short id, short version) throws Exception {
        Message first = newMessage(kind, name, id);
        Class<?> converter = Class.forName(first.getClass().getName() + "JsonConverter");
        Method write = converter.getMethod("write", first.getClass(), short.class, boolean.class);
        Method read = converter.getMethod("read", JsonNode.class, short.class);
        List<JsonNode> sent = new ArrayList<>();
        List<byte[]> wires = new ArrayList<>();
        if (input == 3) {
            int count = frame.readInt();
            for (int i = 0; i < count; i++) {
                byte[] data = new byte[frame.readInt()];
                frame.readFully(data);
                wires.add(data);
            }
        } else {
            byte[] data = new byte[frame.readInt()];
            frame.readFully(data);
            MAPPER.readTree(data).forEach(sent::add);
        }
        int count = input == 3 ? wires.size() : sent.size();
        java.io.ByteArrayOutputStream problemBytes = new java.io.ByteArrayOutputStream();
        DataOutputStream problems = new DataOutputStream(problemBytes);
        int problemCount = 0;
        ArrayNode jsons = MAPPER.createArrayNode();
        byte[][] written = new byte[count][];
        for (int i = 0; i < count; i++) {
            try {
                Message message;
                if (input == 3) {
                    message = newMessage(kind, name, id);
                    readWire(message, wires.get(i), version);
                } else {
                    message = (Message) read.invoke(null, sent.get(i), version);
                }
                written[i] = serialize(message, version);
                if (input == 3) {
                    jsons.add((JsonNode) write.invoke(null, message, version, true));
                    if (!Arrays.equals(written[i], wires.get(i))) {
                        problemCount++;
                        problems.writeInt(i);
                        problems.writeByte(2);
                        problems.writeInt(written[i].length);
                        problems.write(written[i]);
                    }
                }
            } catch (Throwable error) {
                written[i] = new byte[0];
                jsons.add(NullNode.getInstance());
                byte[] text = errorText(error);
                problemCount++;
                problems.writeInt(i);
                problems.writeByte(1);
                problems.writeInt(text.length);
                problems.write(text);
            }
        }
        java.io.ByteArrayOutputStream answerBytes = new java.io.ByteArrayOutputStream();
        DataOutputStream answer = new DataOutputStream(answerBytes);
        answer.writeInt(problemCount);
        problems.flush();
        answer.write(problemBytes.toByteArray());
        if (input == 3) {
            byte[] text = MAPPER.writeValueAsBytes(jsons);
            answer.writeInt(text.length);
            answer.write(text);
        } else {
            answer.writeInt(count);
            for (byte[] bytes : written) {
                answer.writeInt(bytes.length);
                answer.write(bytes);
            }
        }
        answer.flush();
        return answerBytes.toByteArray();
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
