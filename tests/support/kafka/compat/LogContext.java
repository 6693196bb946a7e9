// Kafka 4.4 moved LogContext to org.apache.kafka.common.utils.internals; the newest
// LocalTieredStorage on Maven Central (kafka-storage 4.3.1's test jar) still calls it by
// its old name.  This class under the old name hands its two calls to the new one, so
// that LocalTieredStorage runs in a 4.4.0 broker.  Compiled by tests/support/kafka/tiered.py
// onto the tiered broker's classpath only.
package org.apache.kafka.common.utils;

import org.slf4j.Logger;

public class LogContext {
    private final org.apache.kafka.common.utils.internals.LogContext context;

    public LogContext(String prefix) {
        context = new org.apache.kafka.common.utils.internals.LogContext(prefix);
    }

    public LogContext() {
        context = new org.apache.kafka.common.utils.internals.LogContext();
    }

    public Logger logger(Class<?> clazz) {
        return context.logger(clazz);
    }

    public String logPrefix() {
        return context.logPrefix();
    }
}
