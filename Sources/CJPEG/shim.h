#ifndef REMINDERS_CJPEG_SHIM_H
#define REMINDERS_CJPEG_SHIM_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <setjmp.h>
#include <jpeglib.h>

/// Result codes of reminders_jpeg_decode.
enum {
    REMINDERS_JPEG_OK = 0,
    REMINDERS_JPEG_NOT_JPEG = 1,
    REMINDERS_JPEG_TOO_LARGE = 2,
    REMINDERS_JPEG_DAMAGED = 3,
    REMINDERS_JPEG_NO_MEMORY = 4
};

/// libjpeg reports errors by calling error_exit, which must not return:
/// it jumps back into reminders_jpeg_decode instead of exiting the process.
struct reminders_jpeg_error {
    struct jpeg_error_mgr manager;
    jmp_buf jump;
};

static void reminders_jpeg_error_exit(j_common_ptr info) {
    struct reminders_jpeg_error *error = (struct reminders_jpeg_error *)info->err;
    longjmp(error->jump, 1);
}

/// Warnings (a truncated file libjpeg pads with grey) count as damage.
static void reminders_jpeg_emit_message(j_common_ptr info, int level) {
    if (level < 0) reminders_jpeg_error_exit(info);
}

/// Decodes a JPEG held in memory into 8-bit RGBA pixels. The caller frees
/// *pixels. Images with more than max_pixels pixels are refused before
/// any pixel memory is allocated.
static inline int reminders_jpeg_decode(const void *bytes, size_t length, size_t max_pixels,
                                        unsigned char **pixels, unsigned *width, unsigned *height) {
    const unsigned char *data = (const unsigned char *)bytes;
    *pixels = NULL;
    if (length < 3 || data[0] != 0xFF || data[1] != 0xD8 || data[2] != 0xFF) return REMINDERS_JPEG_NOT_JPEG;
    struct jpeg_decompress_struct info;
    struct reminders_jpeg_error error;
    unsigned char *volatile buffer = NULL;
    memset(&info, 0, sizeof info);
    info.err = jpeg_std_error(&error.manager);
    error.manager.error_exit = reminders_jpeg_error_exit;
    error.manager.emit_message = reminders_jpeg_emit_message;
    if (setjmp(error.jump)) {
        jpeg_destroy_decompress(&info);
        free(buffer);
        return REMINDERS_JPEG_DAMAGED;
    }
    jpeg_create_decompress(&info);
    jpeg_mem_src(&info, data, (unsigned long)length);
    jpeg_read_header(&info, TRUE);
    if (info.image_width == 0 || info.image_height == 0 ||
        (size_t)info.image_width * (size_t)info.image_height > max_pixels) {
        jpeg_destroy_decompress(&info);
        return REMINDERS_JPEG_TOO_LARGE;
    }
    info.out_color_space = JCS_EXT_RGBA;
    jpeg_start_decompress(&info);
    size_t stride = (size_t)info.output_width * 4;
    buffer = (unsigned char *)malloc(stride * info.output_height);
    if (buffer == NULL) {
        jpeg_destroy_decompress(&info);
        return REMINDERS_JPEG_NO_MEMORY;
    }
    while (info.output_scanline < info.output_height) {
        unsigned char *row = buffer + stride * info.output_scanline;
        jpeg_read_scanlines(&info, &row, 1);
    }
    *width = info.output_width;
    *height = info.output_height;
    jpeg_finish_decompress(&info);
    jpeg_destroy_decompress(&info);
    *pixels = buffer;
    return REMINDERS_JPEG_OK;
}

static inline void reminders_jpeg_free(unsigned char *pixels) { free(pixels); }

#endif
