// libmosquitto (Debian's libmosquitto-dev): the MQTT client, driven from the run loop's poll(2)
// through its external-loop functions (mosquitto_socket, mosquitto_loop_read/write/misc).
#include <mosquitto.h>
