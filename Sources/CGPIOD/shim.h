// libgpiod, whichever major pkg-config finds: 1.6 (Debian 12) or 2.x (Debian 13, current
// Raspberry Pi OS). Only the C shim (CrownPagerGPIO) includes it; Swift sees the shim's interface.
#include <gpiod.h>
