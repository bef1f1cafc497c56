// PNG through libpng (Debian libpng-dev): the reference implementation, already a dependency of the GL stack, and
// it reports errors (disk full, bad file) that stb_image_write would swallow.
#include <png.h>

#include <cerrno>
#include <csetjmp>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <stdexcept>

#include "render/image.h"

namespace mjhand::render {

namespace {
struct FileCloser {
  void operator()(std::FILE* f) const { std::fclose(f); }
};

// libpng reports errors through longjmp; the message is kept here and rethrown as an exception by the caller.
void png_error_to_buffer(png_structp png, png_const_charp msg) {
  auto* buf = static_cast<std::string*>(png_get_error_ptr(png));
  if (buf) *buf = msg ? msg : "libpng error";
  png_longjmp(png, 1);
}
void png_warning_ignore(png_structp, png_const_charp) {}
}  // namespace

void write_png(const std::string& path, const RgbImage& img) {
  if (img.width <= 0 || img.height <= 0 || img.rgb.size() != static_cast<size_t>(3) * img.width * img.height) {
    throw std::runtime_error(path + ": cannot write PNG: image is empty or its buffer does not match " +
                             std::to_string(img.width) + " x " + std::to_string(img.height));
  }
  std::unique_ptr<std::FILE, FileCloser> f(std::fopen(path.c_str(), "wb"));
  if (!f) throw std::runtime_error(path + ": cannot open for writing: " + std::strerror(errno));
  std::string err;
  png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &err, png_error_to_buffer, png_warning_ignore);
  if (!png) throw std::runtime_error(path + ": libpng could not start");
  png_infop info = png_create_info_struct(png);
  if (!info || setjmp(png_jmpbuf(png))) {
    png_destroy_write_struct(&png, &info);
    throw std::runtime_error(path + ": writing PNG failed: " + (err.empty() ? "libpng error" : err));
  }
  png_init_io(png, f.get());
  png_set_IHDR(png, info, img.width, img.height, 8, PNG_COLOR_TYPE_RGB, PNG_INTERLACE_NONE,
               PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
  png_write_info(png, info);
  for (int y = 0; y < img.height; ++y) png_write_row(png, const_cast<png_bytep>(img.at(0, y)));
  png_write_end(png, nullptr);
  png_destroy_write_struct(&png, &info);
  if (std::fflush(f.get()) != 0) throw std::runtime_error(path + ": writing PNG failed: " + std::strerror(errno));
}

RgbImage read_png(const std::string& path) {
  std::unique_ptr<std::FILE, FileCloser> f(std::fopen(path.c_str(), "rb"));
  if (!f) throw std::runtime_error(path + ": cannot open: " + std::strerror(errno));
  unsigned char sig[8] = {0};
  if (std::fread(sig, 1, 8, f.get()) != 8 || png_sig_cmp(sig, 0, 8) != 0) {
    throw std::runtime_error(path + ": not a PNG file");
  }
  std::string err;
  png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &err, png_error_to_buffer, png_warning_ignore);
  if (!png) throw std::runtime_error(path + ": libpng could not start");
  png_infop info = png_create_info_struct(png);
  RgbImage img;
  if (!info || setjmp(png_jmpbuf(png))) {
    png_destroy_read_struct(&png, &info, nullptr);
    throw std::runtime_error(path + ": reading PNG failed: " + (err.empty() ? "libpng error" : err));
  }
  png_init_io(png, f.get());
  png_set_sig_bytes(png, 8);
  png_read_info(png, info);
  // Normalise every colour type and depth to 8-bit RGB.
  png_set_expand(png);
  png_set_strip_16(png);
  png_set_strip_alpha(png);
  png_set_gray_to_rgb(png);
  png_read_update_info(png, info);
  const int w = static_cast<int>(png_get_image_width(png, info));
  const int h = static_cast<int>(png_get_image_height(png, info));
  img.resize(w, h);
  for (int y = 0; y < h; ++y) png_read_row(png, img.at(0, y), nullptr);
  png_read_end(png, nullptr);
  png_destroy_read_struct(&png, &info, nullptr);
  return img;
}

double fraction_unlike_corner(const RgbImage& img, int threshold) {
  if (img.width <= 0 || img.height <= 0) return 0.0;
  const unsigned char* c = img.at(0, 0);
  size_t differ = 0;
  const size_t n = static_cast<size_t>(img.width) * img.height;
  for (size_t i = 0; i < n; ++i) {
    const unsigned char* p = img.rgb.data() + 3 * i;
    for (int k = 0; k < 3; ++k) {
      if (std::abs(int(p[k]) - int(c[k])) > threshold) {
        ++differ;
        break;
      }
    }
  }
  return static_cast<double>(differ) / static_cast<double>(n);
}

}  // namespace mjhand::render
