// The flood of Scripts/bench/mqtt-flood.sh: publishes RATE messages a second on TOPIC at
// HOST:PORT, QoS 0, each a new number, until SIGTERM or SIGINT; then prints the messages
// libmosquitto took and the seconds they took, for the script to report the rate reached.
// Paced on CLOCK_MONOTONIC in steps of 1 ms (the messages due are sent at each step), with
// libmosquitto's own thread writing them out. Built by the script: cc ... -lmosquitto.
#include <mosquitto.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static volatile sig_atomic_t stopping;

static void stop(int signal) {
    (void)signal;
    stopping = 1;
}

static double seconds_since(const struct timespec *start) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)(now.tv_sec - start->tv_sec) + (double)(now.tv_nsec - start->tv_nsec) / 1e9;
}

int main(int argc, char **argv) {
    if (argc != 5) {
        fprintf(stderr, "usage: %s HOST PORT TOPIC RATE\n", argv[0]);
        return 2;
    }
    const char *host = argv[1], *topic = argv[3];
    int port = atoi(argv[2]);
    double rate = atof(argv[4]);
    signal(SIGTERM, stop);
    signal(SIGINT, stop);
    mosquitto_lib_init();
    struct mosquitto *client = mosquitto_new(NULL, true, NULL);
    if (!client || mosquitto_connect(client, host, port, 60) != MOSQ_ERR_SUCCESS
        || mosquitto_loop_start(client) != MOSQ_ERR_SUCCESS) {
        fprintf(stderr, "mqtt-flood-publisher: cannot connect to %s:%d\n", host, port);
        return 1;
    }
    struct timespec start, step = {0, 1000000};
    clock_gettime(CLOCK_MONOTONIC, &start);
    unsigned long long sent = 0, refused = 0;
    while (!stopping) {
        unsigned long long due = (unsigned long long)(seconds_since(&start) * rate);
        for (; sent < due; sent++) {
            char payload[32];
            int length = snprintf(payload, sizeof payload, "%llu", sent);
            if (mosquitto_publish(client, NULL, topic, length, payload, 0, false) != MOSQ_ERR_SUCCESS) refused++;
        }
        nanosleep(&step, NULL);
    }
    double took = seconds_since(&start);
    mosquitto_disconnect(client);
    mosquitto_loop_stop(client, false);
    mosquitto_destroy(client);
    mosquitto_lib_cleanup();
    printf("%llu %llu %.3f\n", sent - refused, refused, took);
    return 0;
}
