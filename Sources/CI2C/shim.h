// libi2c (i2c-tools) for the SMBus operations, the kernel's i2c-dev interface for
// I2C_SLAVE, I2C_RDWR and struct i2c_msg (<linux/i2c.h> must come before <i2c/smbus.h>), and spidev.
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

// The kernel's spidev interface, for a display on SPI (/dev/spidevB.C). SPI_IOC_MESSAGE(N) is a
// macro Swift cannot import, and the settings' ioctls take a pointer of one exact width.
#include <stdint.h>
#include <linux/spi/spidev.h>

static inline int crownpager_spi_set_mode(int fd, uint8_t mode) { return ioctl(fd, SPI_IOC_WR_MODE, &mode); }

static inline int crownpager_spi_set_bits_per_word(int fd, uint8_t bits) {
    return ioctl(fd, SPI_IOC_WR_BITS_PER_WORD, &bits);
}

static inline int crownpager_spi_set_max_speed(int fd, uint32_t hertz) {
    return ioctl(fd, SPI_IOC_WR_MAX_SPEED_HZ, &hertz);
}

/// One write-only transfer of `length` bytes at `hertz`: the bytes sent, or -1 with errno.
static inline int crownpager_spi_write(int fd, const void *bytes, uint32_t length, uint32_t hertz) {
    struct spi_ioc_transfer transfer = {
        .tx_buf = (uint64_t)(uintptr_t)bytes, .len = length, .speed_hz = hertz, .bits_per_word = 8};
    return ioctl(fd, SPI_IOC_MESSAGE(1), &transfer);
}
