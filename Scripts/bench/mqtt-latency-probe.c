// The Home Assistant side of Scripts/bench/mqtt-latency.sh: one MQTT client on libmosquitto that
// subscribes to BASE/# at HOST:PORT and then reads commands from standard input, one a line,
// fields separated by tabs:
//   pub TOPIC PAYLOAD STATE_TOPIC STATE_PAYLOAD   publishes PAYLOAD on TOPIC (QoS 0, Home
//                                                 Assistant's default `qos`) and prints the
//                                                 milliseconds until STATE_PAYLOAD arrives on
//                                                 STATE_TOPIC, or "timeout" after 5 s
//   wait TOPIC PAYLOAD                            prints "ok" once TOPIC's last message is
//                                                 PAYLOAD (at once if it already was), or
//                                                 "timeout" after 30 s
//   is TOPIC PAYLOAD                              prints "yes" when TOPIC's last message is
//                                                 PAYLOAD, "no" otherwise, at once
// Times are CLOCK_MONOTONIC, taken just before the publish and as the message is read, in this
// one process: the publish's own trip to the broker is in the figure, as it is for Home
// Assistant. Built by the script: cc ... -lmosquitto.
#include <mosquitto.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define TOPICS 64

// The last payload seen on each topic under the base.
static struct { char topic[256]; char payload[512]; int seen; } last[TOPICS];

static double now_ms(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)now.tv_sec * 1e3 + (double)now.tv_nsec / 1e6;
}

static int slot(const char *topic) {
    for (int i = 0; i < TOPICS; i++) {
        if (last[i].topic[0] == 0) {
            snprintf(last[i].topic, sizeof last[i].topic, "%s", topic);
            return i;
        }
        if (strcmp(last[i].topic, topic) == 0) return i;
    }
    return TOPICS - 1;
}

static void on_message(struct mosquitto *client, void *user, const struct mosquitto_message *message) {
    (void)client;
    (void)user;
    int i = slot(message->topic);
    int length = message->payloadlen < 511 ? message->payloadlen : 511;
    memcpy(last[i].payload, message->payload, (size_t)length);
    last[i].payload[length] = 0;
    last[i].seen = 1;
}

// Services the client until TOPIC's last payload is PAYLOAD or SECONDS passed; the milliseconds
// from START, or -1.
static double until(struct mosquitto *client, const char *topic, const char *payload, double start, double seconds) {
    int i = slot(topic);
    while (now_ms() - start < seconds * 1e3) {
        if (last[i].seen && strcmp(last[i].payload, payload) == 0) return now_ms() - start;
        if (mosquitto_loop(client, 5, 1) != MOSQ_ERR_SUCCESS) return -1;
    }
    return -1;
}

int main(int argc, char **argv) {
    if (argc != 4) {
        fprintf(stderr, "usage: %s HOST PORT BASE\n", argv[0]);
        return 2;
    }
    mosquitto_lib_init();
    struct mosquitto *client = mosquitto_new(NULL, true, NULL);
    char subscription[300];
    snprintf(subscription, sizeof subscription, "%s/#", argv[3]);
    // As Home Assistant's client (paho-mqtt) does: each message goes out as it is written.
    if (client) mosquitto_int_option(client, MOSQ_OPT_TCP_NODELAY, 1);
    if (!client || mosquitto_connect(client, argv[1], atoi(argv[2]), 60) != MOSQ_ERR_SUCCESS) {
        fprintf(stderr, "mqtt-latency-probe: cannot connect to %s:%s\n", argv[1], argv[2]);
        return 1;
    }
    mosquitto_message_callback_set(client, on_message);
    mosquitto_subscribe(client, NULL, subscription, 1);
    setvbuf(stdout, NULL, _IOLBF, 0);
    char line[2048];
    while (fgets(line, sizeof line, stdin)) {
        line[strcspn(line, "\n")] = 0;
        char *fields[5] = {0};
        int count = 0;
        for (char *field = strtok(line, "\t"); field && count < 5; field = strtok(NULL, "\t")) fields[count++] = field;
        if (count == 5 && strcmp(fields[0], "pub") == 0) {
            last[slot(fields[3])].seen = 0;
            double start = now_ms();
            mosquitto_publish(client, NULL, fields[1], (int)strlen(fields[2]), fields[2], 0, false);
            double took = until(client, fields[3], fields[4], start, 5);
            if (took < 0) printf("timeout\n"); else printf("%.3f\n", took);
        } else if (count == 3 && strcmp(fields[0], "is") == 0) {
            int i = slot(fields[1]);
            printf(last[i].seen && strcmp(last[i].payload, fields[2]) == 0 ? "yes\n" : "no\n");
        } else if (count == 3 && strcmp(fields[0], "wait") == 0) {
            printf(until(client, fields[1], fields[2], now_ms(), 30) < 0 ? "timeout\n" : "ok\n");
        } else {
            fprintf(stderr, "mqtt-latency-probe: cannot read the command '%s'\n", line);
            return 2;
        }
    }
    mosquitto_disconnect(client);
    mosquitto_destroy(client);
    mosquitto_lib_cleanup();
    return 0;
}
