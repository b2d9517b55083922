#ifndef REMINDERS_CPNG_SHIM_H
#define REMINDERS_CPNG_SHIM_H

#include <png.h>
#include <stdlib.h>
#include <string.h>

/// Result codes of reminders_png_decode.
enum {
    REMINDERS_PNG_OK = 0,
    REMINDERS_PNG_NOT_PNG = 1,
    REMINDERS_PNG_TOO_LARGE = 2,
    REMINDERS_PNG_DAMAGED = 3,
    REMINDERS_PNG_NO_MEMORY = 4
};

/// Reads only the header of a PNG held in memory: width and height.
static inline int reminders_png_size(const void *bytes, size_t length, unsigned *width, unsigned *height) {
    png_image image;
    memset(&image, 0, sizeof image);
    image.version = PNG_IMAGE_VERSION;
    if (length < 8 || png_sig_cmp((png_const_bytep)bytes, 0, 8) != 0) return REMINDERS_PNG_NOT_PNG;
    if (!png_image_begin_read_from_memory(&image, bytes, length)) return REMINDERS_PNG_DAMAGED;
    *width = image.width;
    *height = image.height;
    png_image_free(&image);
    return REMINDERS_PNG_OK;
}

/// Decodes a PNG held in memory into 8-bit RGBA pixels. The caller frees *pixels.
/// Images with more than max_pixels pixels are refused before any pixel memory is allocated.
static inline int reminders_png_decode(const void *bytes, size_t length, size_t max_pixels,
                                       unsigned char **pixels, unsigned *width, unsigned *height) {
    png_image image;
    memset(&image, 0, sizeof image);
    image.version = PNG_IMAGE_VERSION;
    *pixels = NULL;
    if (length < 8 || png_sig_cmp((png_const_bytep)bytes, 0, 8) != 0) return REMINDERS_PNG_NOT_PNG;
    if (!png_image_begin_read_from_memory(&image, bytes, length)) return REMINDERS_PNG_DAMAGED;
    if (image.width == 0 || image.height == 0 ||
        (size_t)image.width * (size_t)image.height > max_pixels) {
        png_image_free(&image);
        return REMINDERS_PNG_TOO_LARGE;
    }
    image.format = PNG_FORMAT_RGBA;
    size_t size = PNG_IMAGE_SIZE(image);
    unsigned char *buffer = (unsigned char *)malloc(size);
    if (buffer == NULL) {
        png_image_free(&image);
        return REMINDERS_PNG_NO_MEMORY;
    }
    if (!png_image_finish_read(&image, NULL, buffer, 0, NULL)) {
        free(buffer);
        png_image_free(&image);
        return REMINDERS_PNG_DAMAGED;
    }
    *pixels = buffer;
    *width = image.width;
    *height = image.height;
    return REMINDERS_PNG_OK;
}

static inline void reminders_png_free(unsigned char *pixels) { free(pixels); }

/// Encodes 8-bit RGBA pixels as a PNG in memory. The caller frees *png.
static inline int reminders_png_encode(const unsigned char *rgba, unsigned width, unsigned height,
                                       unsigned char **png, size_t *length) {
    png_image image;
    memset(&image, 0, sizeof image);
    image.version = PNG_IMAGE_VERSION;
    image.width = width;
    image.height = height;
    image.format = PNG_FORMAT_RGBA;
    *png = NULL;
    *length = 0;
    size_t size = 0;
    if (!png_image_write_to_memory(&image, NULL, &size, 0, rgba, 0, NULL)) return REMINDERS_PNG_DAMAGED;
    unsigned char *buffer = (unsigned char *)malloc(size);
    if (buffer == NULL) return REMINDERS_PNG_NO_MEMORY;
    if (!png_image_write_to_memory(&image, buffer, &size, 0, rgba, 0, NULL)) {
        free(buffer);
        return REMINDERS_PNG_DAMAGED;
    }
    *png = buffer;
    *length = size;
    return REMINDERS_PNG_OK;
}

#endif
