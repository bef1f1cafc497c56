// libmjhand_preload.so: LD_PRELOADed into any MuJoCo 2.2.2 program (e.g. Debian's stock mujoco-simulate), it
// attaches mjhand's plugin host to every model the program loads and detaches it before the model is deleted.
// MuJoCo 2.2.2 has no plugin loader, so the shim interposes the exported loaders: the program's calls to
// mj_loadXML / mj_loadModel / mj_deleteModel go through its PLT and the dynamic linker resolves them here first;
// the real functions are reached with dlsym(RTLD_NEXT, ...).
#include <dlfcn.h>
#include <mujoco/mujoco.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <memory>
#include <mutex>
#include <string>

#include "host/config.h"
#include "host/host.h"

namespace {

// Control calls after which the log proves that mjhand's controllers ran (see log_control).
constexpr long kReportAfterCalls = 100;
// Most models held at once (mjhand's own routing table has the same bound).
constexpr int kMaxModels = 64;

struct Attached {
  std::atomic<const mjModel*> model{nullptr};  // published last, so a lock-free reader sees a complete entry
  std::unique_ptr<mjhand::Host> host;
  std::string file;
  // The log follows the first mjData seen for the model, so time and ctrl of its line come from one simulation
  // even when several threads step their own mjData of the model (mujoco-testspeed with nthread > 1).
  std::atomic<const mjData*> traced{nullptr};
  long calls = 0;             // control calls on `traced` so far
  double last_call_time = 0;  // d->time of the previous control call on `traced`
};

// Deliberately never destroyed: at exit another thread of the program may still be stepping a model, and a Host
// destroyed under it would pull the callbacks away mid-step.
Attached* const g_models = new Attached[kMaxModels];
std::mutex g_mutex;  // serialises attach and detach
mjfGeneric g_chained_control = nullptr;  // the program's mjcb_control at the time the logger was installed
bool g_logger_installed = false;

// MJHAND_PRELOAD_LOG, or nullptr when logging is off.
const char* log_path() {
  const char* p = std::getenv("MJHAND_PRELOAD_LOG");
  return p && *p ? p : nullptr;
}

// Appends one line to the log file; opened per line because lines are rare (attach, detach, one proof per model).
void log_line(const std::string& line) {
  const char* path = log_path();
  if (!path) return;
  if (FILE* f = std::fopen(path, "a")) {
    std::fprintf(f, "%s\n", line.c_str());
    std::fclose(f);
  }
}

Attached* find(const mjModel* m) {
  for (int i = 0; i < kMaxModels; ++i) {
    if (g_models[i].model.load(std::memory_order_acquire) == m) return &g_models[i];
  }
  return nullptr;
}

std::string format_number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

// Chained *before* mjhand's trampoline (mjhand calls callbacks installed before its first attach first), so at a
// model's control call N+1, d->ctrl still holds what mjhand's controllers wrote at call N; that call's time was
// kept. The line therefore shows the controllers' own output, which a test can recompute.
void log_control(const mjModel* m, mjData* d) {
  if (g_chained_control) g_chained_control(m, d);
  Attached* a = find(m);
  if (!a) return;
  const mjData* expected = nullptr;
  if (!a->traced.compare_exchange_strong(expected, d) && expected != d) return;
  const long n = ++a->calls;
  if (n == kReportAfterCalls + 1) {
    std::string line = "control " + a->file + " calls=" + std::to_string(kReportAfterCalls) +
                       " time=" + format_number(a->last_call_time) + " ctrl=";
    for (int i = 0; i < m->nu; ++i) line += (i ? "," : "") + format_number(d->ctrl[i]);
    log_line(line);
  }
  a->last_call_time = d->time;
}

// Attaches mjhand to a freshly loaded model. Never throws: a rejected model keeps running without plugins.
// `file` names the model in messages; `xml_path` (empty for binary models) lets errors point at MJCF lines.
void attach(const mjModel* m, const std::string& file, const std::string& xml_path) {
  std::lock_guard<std::mutex> lock(g_mutex);
  try {
    if (log_path() && !g_logger_installed) {
      // Must precede mjhand's first attach: mjhand chains what is installed then and refuses later replacements.
      g_chained_control = mjcb_control;
      mjcb_control = &log_control;
      g_logger_installed = true;
    }
    mjhand::AttachOptions options;
    options.xml_path = xml_path;
    std::unique_ptr<mjhand::Host> host = mjhand::Host::attach(m, options);
    if (host->instances().empty()) {
      log_line("pass-through " + file + " (no mjhand instances)");
      return;
    }
    Attached* slot = find(nullptr);
    if (!slot) {
      std::fprintf(stderr, "mjhand: %s: more than %d models loaded at once; this one runs without plugins\n",
                   file.c_str(), kMaxModels);
      return;
    }
    std::string names;
    for (const mjhand::Instance& inst : host->instances()) {
      names += (names.empty() ? "" : ",") + inst.name + "(" + inst.type + ")";
    }
    slot->host = std::move(host);
    slot->file = file;
    slot->traced.store(nullptr);
    slot->calls = 0;
    slot->last_call_time = 0;
    slot->model.store(m, std::memory_order_release);
    log_line("attach " + file + " instances=" + names);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "mjhand: %s\nmjhand: %s runs without mjhand plugins\n", e.what(), file.c_str());
    log_line("error " + file + ": " + e.what());
  } catch (...) {
    std::fprintf(stderr, "mjhand: %s: unknown error while attaching; it runs without mjhand plugins\n", file.c_str());
    log_line("error " + file + ": unknown error");
  }
}

// Detaches the host of m (if any) while m is still valid.
void detach(const mjModel* m) {
  std::lock_guard<std::mutex> lock(g_mutex);
  Attached* a = find(m);
  if (!a) return;
  a->model.store(nullptr, std::memory_order_release);
  a->host.reset();
  log_line("detach " + a->file);
}

template <typename F>
F real(const char* name) {
  void* sym = dlsym(RTLD_NEXT, name);
  if (!sym) {
    std::fprintf(stderr, "mjhand: libmjhand_preload.so cannot find the real %s (is libmujoco loaded?): %s\n", name,
                 dlerror());
    std::abort();
  }
  return reinterpret_cast<F>(sym);
}

}  // namespace

extern "C" {

// Interposed: the real loader, then mjhand's host for the model (errors go to stderr, prefixed "mjhand:").
mjModel* mj_loadXML(const char* filename, const mjVFS* vfs, char* error, int error_sz) {
  static const auto real_load = real<mjModel* (*)(const char*, const mjVFS*, char*, int)>("mj_loadXML");
  mjModel* m = real_load(filename, vfs, error, error_sz);
  if (m) attach(m, filename ? filename : "(unnamed model)", filename ? filename : "");
  return m;
}

// Interposed: binary models carry their <custom> texts too, so they get plugins as well.
mjModel* mj_loadModel(const char* filename, const mjVFS* vfs) {
  static const auto real_load = real<mjModel* (*)(const char*, const mjVFS*)>("mj_loadModel");
  mjModel* m = real_load(filename, vfs);
  if (m) attach(m, filename ? filename : "(unnamed model)", "");  // no MJCF to point error lines into
  return m;
}

// Interposed: detach first, so no callback is routed to a freed model (or a new one at the same address).
void mj_deleteModel(mjModel* m) {
  static const auto real_delete = real<void (*)(mjModel*)>("mj_deleteModel");
  if (m) detach(m);
  real_delete(m);
}

}  // extern "C"
