import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import javax.security.auth.callback.Callback;
import javax.security.auth.login.AppConfigurationEntry;
import org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginModule;
import org.apache.kafka.common.security.oauthbearer.OAuthBearerTokenCallback;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentials;
import software.amazon.awssdk.auth.credentials.AwsSessionCredentials;
import software.amazon.msk.auth.iam.IAMOAuthBearerLoginCallbackHandler;
import software.amazon.msk.auth.iam.internals.AWS4SignedPayloadGenerator;
import software.amazon.msk.auth.iam.internals.AWSCredentialsCallback;
import software.amazon.msk.auth.iam.internals.IAMSaslClient;

/**
 * What Amazon's aws-msk-iam-auth library sends, for kafkawire's tests to compare with.
 *
 * <p>{@code iam HOST ACCESS_KEY SECRET_KEY [SESSION_TOKEN]}: the AWS_MSK_IAM client's first
 * message to the broker at HOST, signed with those credentials (the library's own SASL client
 * and payload generator, credentials handed to its callback).
 *
 * <p>{@code oauth}: the token of its OAUTHBEARER login callback handler, with the credentials
 * and region of the AWS chain (the environment).
 *
 * <p>Each prints one line: the message or token.
 */
public class MskIamOracle {
    public static void main(String[] args) throws Exception {
        String out;
        if (args[0].equals("iam")) {
            AwsCredentials credentials = args.length > 4
                    ? AwsSessionCredentials.create(args[2], args[3], args[4])
                    : AwsBasicCredentials.create(args[2], args[3]);
            IAMSaslClient client = new IAMSaslClient("AWS_MSK_IAM", callbacks -> {
                for (Callback cb : callbacks) {
                    ((AWSCredentialsCallback) cb).setAwsCredentials(credentials);
                }
            }, args[1], new AWS4SignedPayloadGenerator());
            out = new String(client.evaluateChallenge(new byte[0]), StandardCharsets.UTF_8);
        } else {
            IAMOAuthBearerLoginCallbackHandler handler = new IAMOAuthBearerLoginCallbackHandler();
            handler.configure(Map.of(), OAuthBearerLoginModule.OAUTHBEARER_MECHANISM, List.of(
                    new AppConfigurationEntry(OAuthBearerLoginModule.class.getName(),
                            AppConfigurationEntry.LoginModuleControlFlag.REQUIRED, Map.of())));
            OAuthBearerTokenCallback callback = new OAuthBearerTokenCallback();
            handler.handle(new Callback[] {callback});
            out = callback.token().value();
        }
        System.out.println(out);
    }
}
