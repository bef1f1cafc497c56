#include "host/dispatch.h"

#include <atomic>
#include <mutex>
#include <string>

#include "host/config.h"
#include "host/host.h"

namespace mjhand {
namespace dispatch {

namespace {
struct Slot {
  std::atomic<const mjModel*> model{nullptr};
  std::atomic<const Host*> host{nullptr};
};

Slot g_slots[kMaxModels];
std::atomic<int> g_high_water{0};  // slots [0, g_high_water) may be in use: bounds the lookup scan
std::mutex g_mutex;                // serialises register/unregister and callback installation
int g_attached = 0;

// Callbacks that were installed before mjhand's; chained so a user's own callbacks keep running. Atomic because
// callbacks on other threads read them while a model is attached.
struct Previous {
  std::atomic<mjfGeneric> control{nullptr}, passive{nullptr};
  std::atomic<mjfSensor> sensor{nullptr};
  std::atomic<mjfAct> gain{nullptr}, bias{nullptr}, dyn{nullptr};
};
Previous g_prev;

void on_control(const mjModel* m, mjData* d) {
  // The user's callback runs first, so an mjhand controller has the last word on the ctrl it owns.
  if (mjfGeneric prev = g_prev.control.load(std::memory_order_acquire)) prev(m, d);
  if (const Host* h = lookup(m)) h->run_control(d);
}

void on_passive(const mjModel* m, mjData* d) {
  if (mjfGeneric prev = g_prev.passive.load(std::memory_order_acquire)) prev(m, d);
  if (const Host* h = lookup(m)) h->run_passive(d);
}

void on_sensor(const mjModel* m, mjData* d, int stage) {
  if (mjfSensor prev = g_prev.sensor.load(std::memory_order_acquire)) prev(m, d, stage);
  if (const Host* h = lookup(m)) h->run_sensor(d, stage);
}

// For actuators no mjhand instance owns, defer to the previous callback or MuJoCo's own default (1, 0, 0).
mjtNum on_gain(const mjModel* m, const mjData* d, int id) {
  const Host* h = lookup(m);
  if (h && h->owns_actuator(id)) return h->actuator_gain(d, id);
  mjfAct prev = g_prev.gain.load(std::memory_order_acquire);
  return prev ? prev(m, d, id) : 1;
}

mjtNum on_bias(const mjModel* m, const mjData* d, int id) {
  const Host* h = lookup(m);
  if (h && h->owns_actuator(id)) return h->actuator_bias(d, id);
  mjfAct prev = g_prev.bias.load(std::memory_order_acquire);
  return prev ? prev(m, d, id) : 0;
}

mjtNum on_dyn(const mjModel* m, const mjData* d, int id) {
  const Host* h = lookup(m);
  if (h && h->owns_actuator(id)) return h->actuator_dyn(d, id);
  mjfAct prev = g_prev.dyn.load(std::memory_order_acquire);
  return prev ? prev(m, d, id) : 0;
}

// First attach: whatever callback is installed becomes the chained "previous" and the trampoline takes its place.
template <typename F>
void install(F& slot, F ours, std::atomic<F>& previous) {
  previous.store(slot, std::memory_order_release);
  slot = ours;
}

// Later attaches: the trampoline must still be there; a program that replaced it broke the routing of the models
// already attached, and chaining the replacement now would lose the callback that was there before mjhand.
template <typename F>
void check_installed(F slot, F ours, const char* name) {
  if (slot != ours) {
    throw ConfigError(std::string(name) + " was replaced after mjhand attached a model; install your own callbacks " +
                      "before the first Host::attach so mjhand can chain them");
  }
}

template <typename F>
void uninstall(F& slot, F ours, std::atomic<F>& previous) {
  if (slot == ours) slot = previous.load();  // leave alone a callback someone installed after mjhand
  previous.store(nullptr);
}
}  // namespace

const Host* lookup(const mjModel* m) {
  const int n = g_high_water.load(std::memory_order_acquire);
  for (int i = 0; i < n; ++i) {
    if (g_slots[i].model.load(std::memory_order_acquire) == m) return g_slots[i].host.load(std::memory_order_acquire);
  }
  return nullptr;
}

void register_host(const mjModel* m, const Host* host) {
  std::lock_guard<std::mutex> lock(g_mutex);
  if (g_attached > 0) {
    check_installed(mjcb_control, &on_control, "mjcb_control");
    check_installed(mjcb_passive, &on_passive, "mjcb_passive");
    check_installed(mjcb_sensor, &on_sensor, "mjcb_sensor");
    check_installed(mjcb_act_gain, &on_gain, "mjcb_act_gain");
    check_installed(mjcb_act_bias, &on_bias, "mjcb_act_bias");
    check_installed(mjcb_act_dyn, &on_dyn, "mjcb_act_dyn");
  }
  int free_slot = -1;
  for (int i = 0; i < kMaxModels; ++i) {
    const mjModel* cur = g_slots[i].model.load(std::memory_order_relaxed);
    if (cur == m) throw ConfigError("this mjModel is already attached to an mjhand Host; detach it first");
    if (!cur && free_slot < 0) free_slot = i;
  }
  if (free_slot < 0) {
    throw ConfigError("more than " + std::to_string(kMaxModels) + " models attached to mjhand at once");
  }
  g_slots[free_slot].host.store(host, std::memory_order_release);
  g_slots[free_slot].model.store(m, std::memory_order_release);
  if (free_slot + 1 > g_high_water.load()) g_high_water.store(free_slot + 1, std::memory_order_release);
  if (g_attached++ == 0) {
    install(mjcb_control, &on_control, g_prev.control);
    install(mjcb_passive, &on_passive, g_prev.passive);
    install(mjcb_sensor, &on_sensor, g_prev.sensor);
    install(mjcb_act_gain, &on_gain, g_prev.gain);
    install(mjcb_act_bias, &on_bias, g_prev.bias);
    install(mjcb_act_dyn, &on_dyn, g_prev.dyn);
  }
}

void unregister_host(const mjModel* m, const Host* host) {
  std::lock_guard<std::mutex> lock(g_mutex);
  for (int i = 0; i < kMaxModels; ++i) {
    if (g_slots[i].model.load(std::memory_order_relaxed) == m &&
        g_slots[i].host.load(std::memory_order_relaxed) == host) {
      g_slots[i].model.store(nullptr, std::memory_order_release);
      g_slots[i].host.store(nullptr, std::memory_order_release);
      --g_attached;
    }
  }
  if (g_attached == 0) {
    uninstall(mjcb_control, &on_control, g_prev.control);
    uninstall(mjcb_passive, &on_passive, g_prev.passive);
    uninstall(mjcb_sensor, &on_sensor, g_prev.sensor);
    uninstall(mjcb_act_gain, &on_gain, g_prev.gain);
    uninstall(mjcb_act_bias, &on_bias, g_prev.bias);
    uninstall(mjcb_act_dyn, &on_dyn, g_prev.dyn);
    g_high_water.store(0, std::memory_order_release);
  }
}

}  // namespace dispatch

bool callbacks_installed() {
  return mjcb_control == &dispatch::on_control && mjcb_passive == &dispatch::on_passive &&
         mjcb_sensor == &dispatch::on_sensor && mjcb_act_gain == &dispatch::on_gain &&
         mjcb_act_bias == &dispatch::on_bias && mjcb_act_dyn == &dispatch::on_dyn;
}

}  // namespace mjhand
