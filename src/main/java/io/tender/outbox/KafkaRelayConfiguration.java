package io.tender.outbox;

import io.cloudevents.CloudEvent;
import io.cloudevents.core.format.EventFormat;
import io.cloudevents.core.message.Encoding;
import io.cloudevents.core.provider.EventFormatProvider;
import io.cloudevents.jackson.JsonFormat;
import io.cloudevents.kafka.CloudEventSerializer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.StringSerializer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Condition;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.type.AnnotatedTypeMetadata;
import org.springframework.kafka.core.DefaultKafkaProducerFactory;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.kafka.support.SendResult;
import org.springframework.util.StringUtils;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Publishes every outbox event to Kafka when {@code tender.events.kafka.bootstrap-servers} is set: structured-mode
 * CloudEvents ({@code content-type: application/cloudevents+json}, the event as the outbox stores it), keyed by
 * aggregate id so that one aggregate's events stay in one partition, in order.
 */
@Configuration(proxyBeanMethods = false)
@Conditional(KafkaRelayConfiguration.KafkaConfigured.class)
class KafkaRelayConfiguration {

    @Bean(destroyMethod = "destroy")
    DefaultKafkaProducerFactory<String, CloudEvent> cloudEventProducerFactory(EventSettings settings) {
        Map<String, Object> config = Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, settings.kafka().bootstrapServers(),
                ProducerConfig.CLIENT_ID_CONFIG, "tender-outbox-relay",
                ProducerConfig.ACKS_CONFIG, "all",
                // Idempotent producer: a retried send is not duplicated and does not overtake the next one.
                ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true,
                ProducerConfig.MAX_BLOCK_MS_CONFIG, 10_000,
                ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, 10_000,
                ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 30_000,
                // The factory configures the serializers with the producer's settings: these two are for it.
                CloudEventSerializer.ENCODING_CONFIG, Encoding.STRUCTURED,
                CloudEventSerializer.EVENT_FORMAT_CONFIG, JsonFormat.CONTENT_TYPE);
        CloudEventSerializer structured = new CloudEventSerializer();
        structured.configure(config, false);
        return new DefaultKafkaProducerFactory<>(config, new StringSerializer(), structured);
    }

    @Bean
    KafkaChannel kafkaChannel(DefaultKafkaProducerFactory<String, CloudEvent> factory, EventSettings settings) {
        return new KafkaChannel(new KafkaTemplate<>(factory), settings.kafka().topic());
    }

    /** The relay channel: sends a batch, then waits until Kafka acknowledged all of it (or fails the batch). */
    static final class KafkaChannel implements RelayChannel {

        private final KafkaTemplate<String, CloudEvent> kafka;
        private final String topic;
        private final EventFormat format = EventFormatProvider.getInstance().resolveFormat(JsonFormat.CONTENT_TYPE);

        KafkaChannel(KafkaTemplate<String, CloudEvent> kafka, String topic) {
            this.kafka = kafka;
            this.topic = topic;
        }

        @Override
        public String name() {
            return "kafka";
        }

        @Override
        public void deliver(List<OutboxEvent> events) {
            List<CompletableFuture<SendResult<String, CloudEvent>>> sends = new ArrayList<>();
            for (OutboxEvent event : events) {
                CloudEvent cloudEvent = format.deserialize(event.payload().getBytes(StandardCharsets.UTF_8));
                sends.add(kafka.send(topic, event.aggregateId(), cloudEvent));
            }
            try {
                CompletableFuture.allOf(sends.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while publishing to Kafka", e);
            } catch (ExecutionException | TimeoutException e) {
                throw new IllegalStateException("publishing to Kafka failed", e);
            }
        }
    }

    static class KafkaConfigured implements Condition {
        @Override
        public boolean matches(ConditionContext context, AnnotatedTypeMetadata metadata) {
            return StringUtils.hasText(context.getEnvironment().getProperty("tender.events.kafka.bootstrap-servers"));
        }
    }
}
