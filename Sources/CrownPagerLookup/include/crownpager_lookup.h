#ifndef CROWNPAGER_LOOKUP_H
#define CROWNPAGER_LOOKUP_H

#include <stddef.h>

/// A name lookup under way in glibc's own helper (getaddrinfo_a(3) with GAI_NOWAIT), so the run
/// loop asks whether it is done instead of blocking in getaddrinfo(3).
struct crownpager_lookup;

/// Starts looking up `host` for TCP; NULL when it could not start (no memory, or the name is too long).
struct crownpager_lookup *crownpager_lookup_start(const char *host);

/// 0 when done and found, EAI_INPROGRESS (a negative number) while it goes, another EAI_ code when it failed.
int crownpager_lookup_status(struct crownpager_lookup *lookup);

/// The in-progress code crownpager_lookup_status returns while the lookup goes.
int crownpager_lookup_in_progress(void);

/// The address found at `index` (from 0, in the resolver's order), numeric ("192.0.2.7",
/// "2001:db8::7"), into `buffer`; 0 on success, EAI_NONAME past the last.
int crownpager_lookup_address(struct crownpager_lookup *lookup, size_t index, char *buffer, size_t length);

/// gai_strerror(3) of a status.
const char *crownpager_lookup_error(int status);

/// Ends the lookup. One still running is cancelled; one glibc cannot cancel is left to finish and
/// its few bytes are not freed (freeing them would race glibc's helper).
void crownpager_lookup_free(struct crownpager_lookup *lookup);

#endif
