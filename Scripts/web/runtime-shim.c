// What the Embedded Swift runtime asks of its C library and wasi-libc does not name: a few
// lines that hand each to wasi-libc (Scripts/web/build-wasm.sh links them into the module).
#include <stdint.h>
#include <stdlib.h>

// Double(_ text:) and its kin parse through this hook: wasi-libc's strtod rounds correctly and
// knows no locale but C's. Returns where the number ended, as the runtime's own version does.
const char *_swift_stdlib_strtod_clocale(const char *text, double *result) {
  char *end = 0;
  *result = strtod(text, &end);
  return end;
}

// The stack protector's canary and its failure: wasi-libc has neither. A smashed stack stops
// the module (an `unreachable` trap the page reports), never runs on.
uintptr_t __stack_chk_guard = 0x2F8A6C15u;
void __stack_chk_fail(void) { __builtin_trap(); }
