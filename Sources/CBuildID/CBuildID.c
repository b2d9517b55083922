#if defined(__linux__)
#define _GNU_SOURCE
#endif

#include "CBuildID.h"

#if defined(__linux__)
#include <elf.h>
#include <link.h>
#include <string.h>

struct search {
    const void *address;
    unsigned char *out;
    size_t capacity;
    size_t length;
};

/// `size` rounded up to the notes' alignment (4, or 8 in a segment of
/// 8-aligned notes).
static size_t aligned(size_t size, size_t alignment) { return (size + alignment - 1) & ~(alignment - 1); }

/// The build ID among one PT_NOTE segment's notes.
static size_t copy_build_id(const unsigned char *notes, size_t size, size_t alignment, struct search *search) {
    size_t offset = 0;
    while (offset + sizeof(ElfW(Nhdr)) <= size) {
        ElfW(Nhdr) header;
        memcpy(&header, notes + offset, sizeof header);
        size_t name = offset + sizeof header, description = name + aligned(header.n_namesz, alignment);
        if (description + header.n_descsz > size) return 0;
        if (header.n_type == NT_GNU_BUILD_ID && header.n_namesz == 4 && memcmp(notes + name, "GNU", 4) == 0) {
            size_t length = header.n_descsz < search->capacity ? header.n_descsz : search->capacity;
            memcpy(search->out, notes + description, length);
            return length;
        }
        offset = description + aligned(header.n_descsz, alignment);
    }
    return 0;
}

static int visit(struct dl_phdr_info *info, size_t size, void *context) {
    (void)size;
    struct search *search = context;
    uintptr_t address = (uintptr_t)search->address;
    int holds = 0;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *segment = &info->dlpi_phdr[i];
        uintptr_t start = info->dlpi_addr + segment->p_vaddr;
        if (segment->p_type == PT_LOAD && address >= start && address - start < segment->p_memsz) holds = 1;
    }
    if (!holds) return 0;
    for (int i = 0; i < info->dlpi_phnum && search->length == 0; i++) {
        const ElfW(Phdr) *segment = &info->dlpi_phdr[i];
        if (segment->p_type != PT_NOTE) continue;
        size_t alignment = segment->p_align == 8 ? 8 : 4;
        search->length = copy_build_id((const unsigned char *)(info->dlpi_addr + segment->p_vaddr), segment->p_memsz, alignment, search);
    }
    return 1;
}

size_t reminders_build_id(const void *address, unsigned char *out, size_t capacity) {
    struct search search = { address, out, capacity, 0 };
    dl_iterate_phdr(visit, &search);
    return search.length;
}

#else

size_t reminders_build_id(const void *address, unsigned char *out, size_t capacity) {
    (void)address; (void)out; (void)capacity;
    return 0;
}

#endif
