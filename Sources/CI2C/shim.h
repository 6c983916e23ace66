// libi2c (i2c-tools) for the SMBus operations, and the kernel's i2c-dev interface for
// I2C_SLAVE, I2C_RDWR and struct i2c_msg. <linux/i2c.h> must come before <i2c/smbus.h>.
#include <linux/types.h>
#include <linux/i2c.h>
#include <linux/i2c-dev.h>
#include <i2c/smbus.h>
#include <sys/ioctl.h>

// ioctl is variadic: these fix the argument types the kernel expects (an unsigned long
// address for I2C_SLAVE, a pointer for I2C_RDWR), which Swift cannot spell for a C variadic.
static inline int crownpager_i2c_select_address(int fd, unsigned long address) {
    return ioctl(fd, I2C_SLAVE, address);
}

static inline int crownpager_i2c_rdwr(int fd, struct i2c_rdwr_ioctl_data *data) {
    return ioctl(fd, I2C_RDWR, data);
}

// The loop that drives the display takes SIGINT/SIGTERM through a descriptor, to blank the
// panel before exiting; Glibc's Swift module does not export <sys/signalfd.h>.
#include <sys/signalfd.h>
